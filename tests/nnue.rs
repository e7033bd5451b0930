//! NNUE inference: the network file (round trip, every corrupt file refused with its own
//! message), incremental accumulators equal to a full refresh over make/unmake trees, the
//! scalar and SIMD paths equal, colour symmetry, and the embedded placeholder.

use horizon::eval::nnue::network::{self, file_size, NetworkError, HEADER_BYTES, PLACEHOLDER_SEED};
use horizon::eval::nnue::{Network, HIDDEN};

/// Writes the placeholder default network `src/eval/nnue/nets/default.nnue` (deterministic:
/// rerunning it rewrites the same bytes). `cargo test --release --test nnue -- --ignored write_placeholder`
#[test]
#[ignore]
fn write_placeholder_network() {
    let net = Network::random(PLACEHOLDER_SEED);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/eval/nnue/nets/default.nnue");
    std::fs::write(path, net.to_bytes()).expect("write the placeholder network");
}

#[test]
fn embedded_network_is_the_placeholder() {
    assert_eq!(network::DEFAULT_NET_BYTES.len(), file_size(HIDDEN));
    let net = horizon::eval::nnue::default_network();
    assert!(*net == *Network::random(PLACEHOLDER_SEED));
}

/// The bytes of a valid file with header field at `offset` (a u32) set to `value` and the
/// checksum recomputed, so that only that field is wrong.
fn with_field(bytes: &[u8], offset: usize, value: u32) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    reseal(&mut b);
    b
}

/// Recomputes the checksum at the end of `b`.
fn reseal(b: &mut [u8]) {
    let body = b.len() - 8;
    let sum = network::fnv1a64(&b[..body]);
    b[body..].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn file_round_trip() {
    let net = Network::random(7);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), file_size(HIDDEN));
    assert_eq!(bytes.len(), 40 + 768 * HIDDEN * 2 + HIDDEN * 2 + 2 * HIDDEN * 2 + 4 + 8);
    assert_eq!(&bytes[..8], b"HZNNUE\0\0");
    let back = Network::from_bytes(&bytes).expect("round trip");
    assert!(*back == *net);
    assert_eq!(back.to_bytes(), bytes);
    // The layout: feature 1's first weight follows feature 0's HIDDEN weights.
    let at = |off: usize| i16::from_le_bytes([bytes[off], bytes[off + 1]]);
    assert_eq!(at(HEADER_BYTES), net.feature_weights[0].0[0]);
    assert_eq!(at(HEADER_BYTES + 2 * HIDDEN), net.feature_weights[1].0[0]);
    let bias_at = HEADER_BYTES + 768 * HIDDEN * 2;
    assert_eq!(at(bias_at + 2 * 3), net.feature_bias.0[3]);
    assert_eq!(at(bias_at + 2 * HIDDEN + 2 * (HIDDEN + 5)), net.output_weights.0[HIDDEN + 5]);
    let ob = bias_at + 2 * HIDDEN + 4 * HIDDEN;
    assert_eq!(i32::from_le_bytes(bytes[ob..ob + 4].try_into().unwrap()), net.output_bias);
}

#[test]
fn checksum_is_fnv1a_64() {
    // Published FNV-1a 64 test vectors.
    assert_eq!(network::fnv1a64(b""), 0xcbf29ce484222325);
    assert_eq!(network::fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(network::fnv1a64(b"foobar"), 0x85944171f73967e8);
}

#[test]
fn corrupt_files_are_refused_each_with_its_own_message() {
    let good = Network::random(11).to_bytes();
    let n = good.len();
    let err = |b: &[u8]| Network::from_bytes(b).expect_err("must be refused");
    let cases: Vec<(&str, NetworkError, String)> = vec![
        ("empty", err(&[]), "network file: truncated header (0 bytes, a header is 40)".to_string()),
        ("header cut", err(&good[..39]), "network file: truncated header (39 bytes, a header is 40)".to_string()),
        ("bad magic", err(&{ let mut b = good.clone(); b[0] = b'X'; b }), "network file: bad magic (not a Horizon .nnue network)".to_string()),
        ("version", err(&with_field(&good, 8, 2)), "network file: unsupported format version 2 (expected 1)".to_string()),
        ("inputs", err(&with_field(&good, 12, 769)), "network file: wrong input count 769 (expected 768)".to_string()),
        ("activation", err(&with_field(&good, 20, 2)), "network file: wrong activation 2 (expected 1 = SCReLU)".to_string()),
        ("hidden 0", err(&with_field(&good, 16, 0)), "network file: hidden size 0 out of range (1..=4096, a multiple of 16)".to_string()),
        ("hidden 100", err(&with_field(&good, 16, 100)), "network file: hidden size 100 out of range (1..=4096, a multiple of 16)".to_string()),
        ("hidden 8192", err(&with_field(&good, 16, 8192)), "network file: hidden size 8192 out of range (1..=4096, a multiple of 16)".to_string()),
        (
            "truncated",
            err(&good[..n - 1]),
            format!("network file: truncated ({} bytes, expected {n})", n - 1),
        ),
        (
            "trailing",
            err(&{ let mut b = good.clone(); b.push(0); b }),
            format!("network file: trailing bytes ({} bytes, expected {n})", n + 1),
        ),
        (
            "hidden 256 on a 128 body",
            err(&with_field(&good, 16, 256)),
            format!("network file: truncated ({n} bytes, expected {})", file_size(256)),
        ),
        (
            "quantisation",
            err(&with_field(&good, 24, 256)),
            "network file: quantisation constants mismatch (file QA 256 QB 64 SCALE 400, engine QA 255 QB 64 SCALE 400)".to_string(),
        ),
        (
            "scale",
            err(&with_field(&good, 32, 100)),
            "network file: quantisation constants mismatch (file QA 255 QB 64 SCALE 100, engine QA 255 QB 64 SCALE 400)".to_string(),
        ),
    ];
    for (name, e, message) in &cases {
        assert_eq!(e.to_string(), *message, "case {name}");
        assert!(!e.to_string().contains('\n'), "case {name}: one line");
    }
    // A flipped payload byte (not fixed up): the checksum catches it.
    let mut flipped = good.clone();
    flipped[HEADER_BYTES + 1000] ^= 0x10;
    let e = err(&flipped);
    assert!(matches!(e, NetworkError::BadChecksum { .. }), "{e}");
    let stored = u64::from_le_bytes(good[n - 8..].try_into().unwrap());
    let found = network::fnv1a64(&flipped[..n - 8]);
    assert_eq!(e.to_string(), format!("network file: bad checksum (expected {stored:016x}, found {found:016x})"));
    // A damaged checksum itself.
    let mut bad_sum = good.clone();
    bad_sum[n - 1] ^= 1;
    assert!(matches!(err(&bad_sum), NetworkError::BadChecksum { .. }));
    // A valid file of another hidden size: everything checks out but this build's size.
    let other = 256usize;
    let mut big = good[..HEADER_BYTES].to_vec();
    big[16..20].copy_from_slice(&(other as u32).to_le_bytes());
    big.resize(file_size(other), 0);
    reseal(&mut big);
    assert_eq!(err(&big).to_string(), "network file: hidden size mismatch (file has 256, this build supports 128)");
    // The order of the checks: magic before version, and the size before the checksum.
    let mut both = with_field(&good, 8, 9);
    both[0] = 0;
    assert_eq!(err(&both), NetworkError::BadMagic);
    let mut cut_and_flipped = good[..n - 10].to_vec();
    cut_and_flipped[HEADER_BYTES] ^= 1;
    assert!(matches!(err(&cut_and_flipped), NetworkError::Truncated { .. }));
    // Every distinct kind prints a distinct message.
    let mut messages: Vec<String> = cases.iter().map(|(_, e, _)| e.to_string()).collect();
    messages.sort();
    messages.dedup();
    assert!(messages.len() >= 11);
}

#[test]
fn unreadable_file_is_an_error() {
    let e = Network::from_file("/nonexistent/dir/net.nnue").expect_err("no such file");
    assert!(e.to_string().starts_with("network file: cannot read /nonexistent/dir/net.nnue: "), "{e}");
}
