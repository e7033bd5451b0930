//! NNUE inference: the network file (round trip, every corrupt file refused with its own
//! message, the feature set in the header), incremental accumulators equal to a full
//! refresh over make/unmake trees for plain and mirrored networks, the scalar and SIMD
//! paths equal, colour symmetry, left–right symmetry of mirrored networks, and the embedded
//! network and every kept network file.

use horizon::eval::nnue::network::{
    self, file_size, file_size_with, NetworkError, HEADER_BYTES, HEADER_BYTES_V3, PLACEHOLDER_SEED,
};
use horizon::eval::nnue::{FeatureSet, Network, HIDDEN};
use horizon::hash::fnv1a64;

/// The embedded network is the trained one listed in `src/eval/nnue/nets/HISTORY.md`: it
/// parses, has this build's hidden size, and its checksum is the one recorded there.
#[test]
fn embedded_network_is_the_trained_one() {
    let bytes = network::DEFAULT_NET_BYTES;
    let net = horizon::eval::nnue::default_network();
    assert_eq!(bytes.len(), file_size_with(HIDDEN, net.buckets(), FeatureSet::Mirrored));
    let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap());
    assert_eq!(stored, EMBEDDED_NET_CHECKSUM, "update nets/HISTORY.md and this constant together");
    assert!(*net != *Network::random(PLACEHOLDER_SEED), "the embedded network is not the old random placeholder");
    assert_eq!(net.feature_set, FeatureSet::Mirrored, "generation 24 has mirrored inputs");
    assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap().to_bytes(), bytes);
}

/// Every network file kept in `src/eval/nnue/nets/` (the embedded one and those whose
/// self-play makes the next data, `datagen --evalfile`) is whole and valid. One of this
/// build's hidden size reads and round-trips; one of another size (the networks before
/// generation 24 have 256, for a build with `HIDDEN` 256) is refused with the size message
/// naming both sizes, and nothing else is wrong with it.
#[test]
fn kept_networks_are_readable() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/nnue/nets");
    let (mut names, mut other_size) = (Vec::new(), 0);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "nnue") {
            let bytes = std::fs::read(&path).unwrap();
            let shape = network::Shape::of_file(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if shape.hidden == HIDDEN {
                let net = Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert_eq!(net.to_bytes(), bytes, "{} does not round-trip", path.display());
            } else {
                let err = Network::from_bytes(&bytes).expect_err("another hidden size must be refused");
                assert_eq!(err, NetworkError::HiddenSizeMismatch { found: shape.hidden as u32 }, "{}", path.display());
                other_size += 1;
            }
            names.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    names.sort();
    assert!(names.len() > 1 && names.contains(&"default.nnue".to_string()), "{names:?}");
    assert!(other_size < names.len(), "the embedded network has this build's size");
}

/// FNV-1a checksum of the embedded `nets/default.nnue` (gen24-h384-b8-l0-e40 in `nets/HISTORY.md`).
const EMBEDDED_NET_CHECKSUM: u64 = 0xe3f8_0617_0baa_18a2;

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
    let sum = fnv1a64(&b[..body]);
    b[body..].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn file_round_trip() {
    let net = Network::random(7);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), file_size(HIDDEN, 1));
    assert_eq!(bytes.len(), 40 + 768 * HIDDEN * 2 + HIDDEN * 2 + 2 * HIDDEN * 2 + 4 + 8);
    assert_eq!(&bytes[..8], b"HZNNUE\0\0");
    // One output bucket: format version 1, the last header field 0.
    assert_eq!(bytes[8..12], 1u32.to_le_bytes());
    assert_eq!(bytes[36..40], 0u32.to_le_bytes());
    let back = Network::from_bytes(&bytes).expect("round trip");
    assert!(*back == *net);
    assert_eq!(back.to_bytes(), bytes);
    // The layout: feature 1's first weight follows feature 0's HIDDEN weights.
    let at = |off: usize| i16::from_le_bytes([bytes[off], bytes[off + 1]]);
    assert_eq!(at(HEADER_BYTES), net.feature_weights[0].0[0]);
    assert_eq!(at(HEADER_BYTES + 2 * HIDDEN), net.feature_weights[1].0[0]);
    let bias_at = HEADER_BYTES + 768 * HIDDEN * 2;
    assert_eq!(at(bias_at + 2 * 3), net.feature_bias.0[3]);
    assert_eq!(at(bias_at + 2 * HIDDEN + 2 * (HIDDEN + 5)), net.output_weights(0).0[HIDDEN + 5]);
    let ob = bias_at + 2 * HIDDEN + 4 * HIDDEN;
    assert_eq!(i32::from_le_bytes(bytes[ob..ob + 4].try_into().unwrap()), net.output_bias[0]);
}

#[test]
fn file_round_trip_with_output_buckets() {
    for buckets in 2..=8 {
        let net = Network::random_bucketed(9, buckets);
        assert_eq!(net.buckets(), buckets);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_size(HIDDEN, buckets));
        assert_eq!(bytes.len(), 40 + 768 * HIDDEN * 2 + HIDDEN * 2 + buckets * (2 * HIDDEN * 2 + 4) + 8);
        // Format version 2, the bucket count in the header's last field.
        assert_eq!(bytes[8..12], 2u32.to_le_bytes());
        assert_eq!(bytes[36..40], (buckets as u32).to_le_bytes());
        let back = Network::from_bytes(&bytes).expect("round trip");
        assert!(*back == *net);
        assert_eq!(back.to_bytes(), bytes);
        // The layout: every bucket's 2N weights, then every bucket's bias.
        let at = |off: usize| i16::from_le_bytes([bytes[off], bytes[off + 1]]);
        let outputs_at = HEADER_BYTES + 769 * HIDDEN * 2;
        let last = buckets - 1;
        assert_eq!(at(outputs_at + 4 * HIDDEN * last + 2 * 3), net.output_weights(last).0[3]);
        let ob = outputs_at + 4 * HIDDEN * buckets + 4 * last;
        assert_eq!(i32::from_le_bytes(bytes[ob..ob + 4].try_into().unwrap()), net.output_bias[last]);
        assert!(net.output_weights(last) != net.output_weights(0));
    }
    // A bucketed file with a bad bucket count is refused before its size is looked at.
    let good = Network::random_bucketed(3, 4).to_bytes();
    for bad in [0u32, 9, 1000] {
        let e = Network::from_bytes(&with_field(&good, 36, bad)).expect_err("bad bucket count");
        assert_eq!(e.to_string(), format!("network file: output bucket count {bad} out of range (1..=8)"));
    }
    // Version 2 with one bucket is read too (only written as version 1).
    let mut one = Network::random(4).to_bytes();
    one[8..12].copy_from_slice(&2u32.to_le_bytes());
    one[36..40].copy_from_slice(&1u32.to_le_bytes());
    reseal(&mut one);
    assert!(*Network::from_bytes(&one).unwrap() == *Network::random(4));
}

/// The bucket of every piece count: `(pieces − 2) · B / 32`, every bucket used, in order.
#[test]
fn output_buckets_split_the_piece_counts_evenly() {
    use horizon::eval::nnue::output_bucket;
    let eight: Vec<usize> = (2..=32).map(|p| output_bucket(p, 8)).collect();
    let mut expected = Vec::new();
    for (b, len) in [4, 4, 4, 4, 4, 4, 4, 3].into_iter().enumerate() {
        expected.extend(std::iter::repeat_n(b, len));
    }
    assert_eq!(eight, expected);
    for buckets in 1..=8 {
        let all: Vec<usize> = (2..=32).map(|p| output_bucket(p, buckets)).collect();
        assert!(all.windows(2).all(|w| w[0] <= w[1] && w[1] <= w[0] + 1), "{buckets}: {all:?}");
        assert_eq!((all[0], all[30]), (0, buckets - 1), "{buckets}");
        // Counts outside 2..=32 stay in range.
        assert_eq!(output_bucket(0, buckets), 0);
        assert_eq!(output_bucket(64, buckets), buckets - 1);
    }
    assert_eq!(output_bucket(17, 0), 0);
}

#[test]
fn checksum_is_fnv1a_64() {
    // Published FNV-1a 64 test vectors.
    assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
    assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
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
        ("version", err(&with_field(&good, 8, 4)), "network file: unsupported format version 4 (expected 1, 2 or 3)".to_string()),
        ("version 2 with bucket count 0", err(&with_field(&good, 8, 2)), "network file: output bucket count 0 out of range (1..=8)".to_string()),
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
            "twice the hidden size on this build's body",
            err(&with_field(&good, 16, 2 * HIDDEN as u32)),
            format!("network file: truncated ({n} bytes, expected {})", file_size(2 * HIDDEN, 1)),
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
    let found = fnv1a64(&flipped[..n - 8]);
    assert_eq!(e.to_string(), format!("network file: bad checksum (expected {stored:016x}, found {found:016x})"));
    // A damaged checksum itself.
    let mut bad_sum = good.clone();
    bad_sum[n - 1] ^= 1;
    assert!(matches!(err(&bad_sum), NetworkError::BadChecksum { .. }));
    // A valid file of another hidden size: everything checks out but this build's size.
    let other = HIDDEN / 2;
    let mut big = good[..HEADER_BYTES].to_vec();
    big[16..20].copy_from_slice(&(other as u32).to_le_bytes());
    big.resize(file_size(other, 1), 0);
    reseal(&mut big);
    assert_eq!(
        err(&big).to_string(),
        format!("network file: hidden size mismatch (file has {other}, this build supports {HIDDEN})")
    );
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
    assert!(messages.len() >= 12);
}

/// The feature set in the header: a mirrored network is written as version 3 (the bucket
/// count at byte 36 and the set at byte 40, a 44-byte header, then the same body as a plain
/// file) and reads back mirrored; a version-3 file of the plain set reads as plain; plain
/// networks are still written as versions 1 and 2; an unknown set or a cut version-3 header
/// is refused with its own message.
#[test]
fn feature_set_in_the_header() {
    let err = |b: &[u8]| Network::from_bytes(b).expect_err("must be refused");
    for buckets in [1, 8] {
        let plain = Network::random_bucketed(13, buckets);
        let mirrored = Network::random_bucketed(13, buckets).with_feature_set(FeatureSet::Mirrored);
        let (pb, mb) = (plain.to_bytes(), mirrored.to_bytes());
        let plain_version: u32 = if buckets == 1 { 1 } else { 2 };
        assert_eq!(pb[8..12], plain_version.to_le_bytes(), "plain networks keep their old version");
        assert_eq!(mb.len(), file_size_with(HIDDEN, buckets, FeatureSet::Mirrored));
        assert_eq!(mb.len(), pb.len() + 4);
        assert_eq!(mb[8..12], 3u32.to_le_bytes());
        assert_eq!(mb[36..40], (buckets as u32).to_le_bytes());
        assert_eq!(mb[40..44], 1u32.to_le_bytes());
        assert_eq!(mb[HEADER_BYTES_V3..mb.len() - 8], pb[HEADER_BYTES..pb.len() - 8], "the same body");
        let back = Network::from_bytes(&mb).expect("a mirrored file reads");
        assert_eq!(back.feature_set, FeatureSet::Mirrored);
        assert!(*back == *mirrored);
        assert_eq!(back.to_bytes(), mb);
        assert_eq!(Network::from_bytes(&pb).unwrap().feature_set, FeatureSet::Plain);
        // Version 3 naming the plain set is the plain network.
        let v3_plain = Network::from_bytes(&with_field(&mb, 40, 0)).expect("version 3, plain");
        assert!(*v3_plain == *plain);
        // An unknown set.
        for code in [3, 0xFFFF_FFFF] {
            let e = err(&with_field(&mb, 40, code));
            assert_eq!(e, NetworkError::UnknownFeatureSet(code));
            assert_eq!(
                e.to_string(),
                format!(
                    "network file: unknown feature set {code} (expected 0 = plain, 1 = mirrored, 2 = mirrored-kb4)"
                )
            );
        }
        // The king-bucket set with the 768 inputs of the others: its input count is wrong.
        let e = err(&with_field(&mb, 40, 2));
        assert_eq!(e, NetworkError::WrongInputCount { found: 768, expected: 3072 });
        assert_eq!(e.to_string(), "network file: wrong input count 768 (expected 3072)");
        // Version 3 still checks the bucket count, before the feature set.
        let e = err(&with_field(&with_field(&mb, 40, 7), 36, 0));
        assert_eq!(e.to_string(), "network file: output bucket count 0 out of range (1..=8)");
    }
    let mb = Network::random(13).with_feature_set(FeatureSet::Mirrored).to_bytes();
    assert_eq!(err(&mb[..42]).to_string(), "network file: truncated header (42 bytes, a header is 44)");
    assert_eq!(err(&mb[..39]).to_string(), "network file: truncated header (39 bytes, a header is 40)");
    let n = mb.len();
    assert_eq!(err(&mb[..n - 4]).to_string(), format!("network file: truncated ({} bytes, expected {n})", n - 4));
}

/// A network with king buckets is written as version 3 with set 2 and 3072 inputs (four
/// blocks of 768), reads back equal, and its input count is checked against its set.
#[test]
fn king_bucket_networks_in_the_file() {
    let err = |b: &[u8]| Network::from_bytes(b).expect_err("must be refused");
    let set = FeatureSet::MirroredKingBuckets;
    for buckets in [1, 8] {
        let net = Network::random_bucketed(13, buckets).with_feature_set(set);
        let mirrored = Network::random_bucketed(13, buckets).with_feature_set(FeatureSet::Mirrored);
        let (kb, mb) = (net.to_bytes(), mirrored.to_bytes());
        assert_eq!(kb.len(), file_size_with(HIDDEN, buckets, set));
        assert_eq!(kb.len(), mb.len() + 3 * 768 * HIDDEN * 2, "three more blocks of 768 columns");
        assert_eq!(kb[8..12], 3u32.to_le_bytes());
        assert_eq!(kb[12..16], 3072u32.to_le_bytes());
        assert_eq!(kb[40..44], 2u32.to_le_bytes());
        // The first block is the mirrored network's; the others differ from it.
        let block = 768 * HIDDEN * 2;
        assert_eq!(kb[HEADER_BYTES_V3..HEADER_BYTES_V3 + block], mb[HEADER_BYTES_V3..HEADER_BYTES_V3 + block]);
        for k in 1..4 {
            let at = HEADER_BYTES_V3 + k * block;
            assert_ne!(kb[at..at + block], kb[HEADER_BYTES_V3..HEADER_BYTES_V3 + block], "block {k}");
        }
        let back = Network::from_bytes(&kb).expect("a king-bucket file reads");
        assert_eq!(back.feature_set, set);
        assert!(*back == *net);
        assert_eq!(back.to_bytes(), kb);
        // Naming another set with 3072 inputs: the input count is wrong for it.
        let e = err(&with_field(&kb, 40, 1));
        assert_eq!(e.to_string(), "network file: wrong input count 3072 (expected 768)");
    }
}

#[test]
fn unreadable_file_is_an_error() {
    let e = Network::from_file("/nonexistent/dir/net.nnue").expect_err("no such file");
    assert!(e.to_string().starts_with("network file: cannot read /nonexistent/dir/net.nnue: "), "{e}");
}

// ---- incremental accumulators equal a full refresh --------------------------------------

mod common;

use common::accumulators::{check, Seen};
use horizon::eval::nnue::simd::{self, Backend};
use horizon::eval::nnue::{Accumulator, AccumulatorStack};
use horizon::{Board, Move, MoveKind, Piece};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Positions rich in castling (standard and Chess960, where king and rook land on each
/// other's squares or the king stays put), en passant, promotions and captures.
const WALK_FENS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    // Chess960: king f1 / rook g1 (king-side castling swaps their squares).
    "1r3kr1/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/1R3KR1 w GBgb - 0 1",
    // Chess960: rook c1 / king d1 (queen-side castling swaps their squares).
    "2rk3r/pp3ppp/8/2ppp3/2PPP3/8/PP3PPP/2RK3R w CHch - 0 1",
    // Chess960: king g1 / rook h1 (king-side castling leaves the king where it is).
    "r5kr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/R5KR w HAha - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    // Captures of every piece, promotions with capture.
    "r1b1k2r/1P1p1ppp/2n2n2/1qp1p3/1bPPP1Q1/2N2N2/p4PPP/R1B1KB1R w KQkq - 0 1",
    "4k3/1P4P1/8/3Pp3/8/8/1p4p1/R3K2R w KQ e6 0 1",
];

/// Walks a make/unmake tree below `b`: every special move, plus `branch` random others, to
/// `depth`; at each node a null move too. Checks every node (sometimes skipping, so that
/// the lazy stack materialises several plies at once).
#[allow(clippy::too_many_arguments)]
fn walk(
    b: &mut Board,
    stack: &mut AccumulatorStack,
    net: &Network,
    ply: usize,
    depth: usize,
    branch: usize,
    rng: &mut SmallRng,
    seen: &mut Seen,
) {
    if depth == 0 || rng.gen_bool(0.8) {
        check(stack, net, b, ply, seen);
    }
    if depth == 0 {
        return;
    }
    let moves: Vec<Move> = b.legal_moves().iter().copied().collect();
    let mut chosen: Vec<Move> =
        moves.iter().copied().filter(|&m| m.kind() != MoveKind::Normal || b.captured_piece(m).is_some()).collect();
    for _ in 0..branch {
        if !moves.is_empty() {
            chosen.push(moves[rng.gen_range(0..moves.len())]);
        }
    }
    chosen.truncate(12);
    for m in chosen {
        seen.record(b, m);
        stack.push_move(ply, net, b, m);
        b.make(m);
        walk(b, stack, net, ply + 1, depth - 1, branch, rng, seen);
        b.unmake();
    }
    if !b.in_check() && depth >= 2 {
        seen.nulls += 1;
        stack.push_null(ply);
        b.make_null();
        walk(b, stack, net, ply + 1, depth - 1, branch, rng, seen);
        b.unmake_null();
    }
    // After unmaking, this ply's accumulator is still this position's.
    check(stack, net, b, ply, seen);
}

#[test]
fn incremental_equals_refresh_over_make_unmake_trees() {
    incremental_equals_refresh_over_make_unmake_trees_with(&Network::random(3));
}

/// The same for a mirrored network: king moves across the d/e line refresh the mover's
/// perspective, lazily, below the node evaluated.
#[test]
fn incremental_equals_refresh_over_make_unmake_trees_mirrored() {
    let seen = incremental_equals_refresh_over_make_unmake_trees_with(
        &Network::random_bucketed(3, 8).with_feature_set(FeatureSet::Mirrored),
    );
    assert!(seen.king_crossings > 20, "{seen:?}");
}

/// The same for a network with king buckets: a king move into another bucket refreshes
/// the mover's perspective too.
#[test]
fn incremental_equals_refresh_over_make_unmake_trees_king_buckets() {
    let seen = incremental_equals_refresh_over_make_unmake_trees_with(
        &Network::random_bucketed(3, 8).with_feature_set(FeatureSet::MirroredKingBuckets),
    );
    assert!(seen.king_crossings > 20 && seen.king_bucket_changes > 20, "{seen:?}");
}

fn incremental_equals_refresh_over_make_unmake_trees_with(net: &Network) -> Seen {
    let mut rng = SmallRng::seed_from_u64(28);
    let mut seen = Seen::default();
    let mut stack = AccumulatorStack::new(64);
    for fen in WALK_FENS {
        let mut b = Board::from_fen(fen).unwrap();
        b.set_chess960(fen.contains(" w G") || fen.contains(" w C") || fen.contains(" w H"));
        stack.refresh(0, net, &b);
        walk(&mut b, &mut stack, net, 0, 4, 2, &mut rng, &mut seen);
        assert_eq!(b.to_fen(), Board::from_fen(fen).unwrap().to_fen());
    }
    eprintln!("{seen:?}");
    assert!(seen.castles > 20 && seen.castles_king_on_rook_square > 5, "{seen:?}");
    assert!(seen.en_passant > 5 && seen.capture_promotions > 5 && seen.nulls > 50, "{seen:?}");
    for p in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        assert!(seen.promotions[p.index()] > 5, "promotions to {p:?}: {seen:?}");
    }
    for p in [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        assert!(seen.captured[p.index()] > 5, "captures of {p:?}: {seen:?}");
    }
    seen
}

#[test]
fn incremental_equals_refresh_over_long_random_games() {
    incremental_equals_refresh_over_long_random_games_with(&Network::random(5));
}

#[test]
fn incremental_equals_refresh_over_long_random_games_mirrored() {
    let seen = incremental_equals_refresh_over_long_random_games_with(
        &Network::random(5).with_feature_set(FeatureSet::Mirrored),
    );
    assert!(seen.king_crossings > 50, "{seen:?}");
}

#[test]
fn incremental_equals_refresh_over_long_random_games_king_buckets() {
    let seen = incremental_equals_refresh_over_long_random_games_with(
        &Network::random(5).with_feature_set(FeatureSet::MirroredKingBuckets),
    );
    assert!(seen.king_crossings > 50 && seen.king_bucket_changes > 50, "{seen:?}");
}

fn incremental_equals_refresh_over_long_random_games_with(net: &Network) -> Seen {
    let mut rng = SmallRng::seed_from_u64(960);
    let mut seen = Seen::default();
    let plies = 100;
    let mut stack = AccumulatorStack::new(plies + 2);
    for game in 0..40 {
        let fen = WALK_FENS[game % WALK_FENS.len()];
        let mut b = Board::from_fen(fen).unwrap();
        stack.refresh(0, net, &b);
        let mut played = 0;
        for ply in 0..plies {
            let moves: Vec<Move> = b.legal_moves().iter().copied().collect();
            if moves.is_empty() {
                break;
            }
            // Prefer special moves and captures half of the time, so games reach them.
            let special: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| m.kind() != MoveKind::Normal || b.captured_piece(m).is_some())
                .collect();
            let m = if !special.is_empty() && rng.gen_bool(0.5) {
                special[rng.gen_range(0..special.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            if !b.in_check() && rng.gen_bool(0.1) {
                seen.nulls += 1;
                stack.push_null(ply);
                b.make_null();
            } else {
                seen.record(&b, m);
                stack.push_move(ply, net, &b, m);
                b.make(m);
            }
            played += 1;
            // Evaluate only now and then: the lazy stack catches up over several plies.
            if rng.gen_bool(0.3) {
                check(&mut stack, net, &b, ply + 1, &mut seen);
            }
        }
        check(&mut stack, net, &b, played, &mut seen);
        // Unwinding: every ply's accumulator is still its position's.
        for ply in (0..played).rev() {
            if b.last_move() == Some(Move::NULL) {
                b.unmake_null();
            } else {
                b.unmake();
            }
            if rng.gen_bool(0.2) {
                check(&mut stack, net, &b, ply, &mut seen);
            }
        }
    }
    eprintln!("{seen:?}");
    assert!(seen.castles > 10 && seen.en_passant >= 3 && seen.capture_promotions > 3, "{seen:?}");
    seen
}

#[test]
fn castling_in_both_notations_gives_the_same_accumulator() {
    for set in FeatureSet::ALL {
        let net = Network::random(9).with_feature_set(set);
        castling_in_both_notations_gives_the_same_accumulator_with(&net);
    }
}

fn castling_in_both_notations_gives_the_same_accumulator_with(net: &Network) {
    for (fen, standard, chess960) in [
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "e1h1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "e1a1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", "e8h8"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "e8a8"),
    ] {
        let mut results = Vec::new();
        for (text, is960) in [(standard, false), (chess960, true)] {
            let mut b = Board::from_fen(fen).unwrap();
            b.set_chess960(is960);
            let m = b.parse_uci_move(text).unwrap();
            assert_eq!(m.kind(), MoveKind::Castle, "{text}");
            let mut stack = AccumulatorStack::new(4);
            stack.refresh(0, net, &b);
            stack.push_move(0, net, &b, m);
            b.make(m);
            let acc = *stack.get(1, net);
            assert!(acc == Accumulator::refreshed(net, &b), "{fen} {text}");
            results.push(acc);
        }
        assert!(results[0] == results[1], "{fen}: {standard} and {chess960} differ");
    }
}

// ---- SIMD and scalar paths agree ---------------------------------------------------------

/// Random positions reached by random play from the walk positions.
fn random_positions(n: usize, seed: u64) -> Vec<Board> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut b = Board::from_fen(WALK_FENS[rng.gen_range(0..WALK_FENS.len())]).unwrap();
        for _ in 0..rng.gen_range(0..80) {
            let moves: Vec<Move> = b.legal_moves().iter().copied().collect();
            if moves.is_empty() {
                break;
            }
            b.make(moves[rng.gen_range(0..moves.len())]);
            out.push(b.clone());
        }
    }
    out.truncate(n);
    out
}

#[test]
fn scalar_and_simd_paths_give_the_same_integers() {
    let (paths, missing): (Vec<Backend>, Vec<Backend>) =
        [Backend::Avx2, Backend::Avx512].into_iter().partition(|b| b.available());
    for b in missing {
        // Straight to stderr, which the test harness does not capture (it captures
        // `eprintln!`), so a skipped comparison shows in every run's output.
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "skipped: the {} path against scalar (this CPU lacks {0})", b.name());
    }
    eprintln!("backend in use: {}; compared with scalar: {:?}", simd::backend().name(), paths);
    for &path in &paths {
        compare_with_scalar(path);
    }
}

/// Every comparison of `scalar_and_simd_paths_give_the_same_integers` for one SIMD path.
fn compare_with_scalar(path: Backend) {
    // A network with large weights as well, so that accumulators reach the clipping limits
    // and beyond, and the output sum wraps.
    for net in [Network::random(1), {
        let mut n = Network::random(2);
        for (i, c) in n.feature_weights.iter_mut().enumerate() {
            for (j, w) in c.0.iter_mut().enumerate() {
                *w = w.wrapping_mul(((i + j) % 200) as i16);
            }
        }
        let mut weights = *n.output_weights(0);
        for (j, w) in weights.0.iter_mut().enumerate() {
            *w = w.wrapping_mul(3000 + j as i16);
        }
        n.set_output_weights(0, weights);
        n
    }] {
        let mut extremes = 0;
        for b in random_positions(3000, 77) {
            let acc = Accumulator::refreshed(&net, &b);
            for (us, them) in [(0, 1), (1, 0)] {
                let (w, offset) = (net.output_weights(0), net.output_offset(0));
                let s = simd::screlu_dot_with(Backend::Scalar, &acc.values[us], &acc.values[them], w, offset);
                let v = simd::screlu_dot_with(path, &acc.values[us], &acc.values[them], w, offset);
                assert_eq!(s, v, "{path:?}: output layer differs on {}", b.to_fen());
            }
            extremes += acc.values[0].0.iter().filter(|&&x| !(0..=255).contains(&x)).count();
            // First-layer updates: every shape the moves use.
            let cols = |k: usize| &net.feature_weights[(b.key() as usize).wrapping_add(k * 97) % 768];
            let inp = &acc.values[0];
            let mut out_s = acc.values[1];
            let mut out_v = acc.values[1];
            simd::update_with(Backend::Scalar, &mut out_s, inp, [cols(0), cols(1)], [cols(2), cols(3)]);
            simd::update_with(path, &mut out_v, inp, [cols(0), cols(1)], [cols(2), cols(3)]);
            assert_eq!(out_s, out_v, "{path:?}");
            simd::update_with(Backend::Scalar, &mut out_s, inp, [cols(4)], [cols(5), cols(6)]);
            simd::update_with(path, &mut out_v, inp, [cols(4)], [cols(5), cols(6)]);
            assert_eq!(out_s, out_v, "{path:?}");
            simd::update_with(Backend::Scalar, &mut out_s, inp, [cols(7)], [cols(8)]);
            simd::update_with(path, &mut out_v, inp, [cols(7)], [cols(8)]);
            assert_eq!(out_s, out_v, "{path:?}");
        }
        eprintln!("accumulator values outside 0..=255: {extremes}");
    }
    // The extremes of the output layer: every value clipped to QA against the largest and
    // smallest weights (the sums wrap in i32), and mixtures.
    use horizon::eval::nnue::network::{Column, OutputWeights};
    for (x, w) in [(255i16, i16::MIN), (255, i16::MAX), (i16::MAX, i16::MIN), (300, -1), (-5, 7), (128, 12345)] {
        let acc = Column([x; HIDDEN]);
        let mut weights = OutputWeights([w; 2 * HIDDEN]);
        for k in [(0usize, 0usize)].into_iter().chain((0..2 * HIDDEN).step_by(7).map(|k| (k, 1))) {
            if k.1 == 1 {
                weights.0[k.0] = weights.0[k.0].wrapping_neg();
            }
            let offset = weights.screlu_offset();
            let s = simd::screlu_dot_with(Backend::Scalar, &acc, &acc, &weights, offset);
            let v = simd::screlu_dot_with(path, &acc, &acc, &weights, offset);
            assert_eq!(s, v, "{path:?}: x {x} w {w}");
        }
    }
}

// ---- colour symmetry -----------------------------------------------------------------------

#[test]
fn colour_flipped_positions_evaluate_the_same() {
    let net = horizon::eval::nnue::default_network();
    let other = Network::random(4);
    let mut nonzero = 0;
    for b in random_positions(2000, 5) {
        let m = b.mirrored();
        for n in [&*net, &*other] {
            let e = horizon::eval::nnue::evaluate_board(n, &b);
            assert_eq!(e, horizon::eval::nnue::evaluate_board(n, &m), "{} vs {}", b.to_fen(), m.to_fen());
            nonzero += (e != 0) as usize;
        }
    }
    assert!(nonzero > 1000);
}

// ---- left–right symmetry of mirrored networks ----------------------------------------------

/// `b` mirrored left–right (files a <-> h), the same side to move; castling rights and the
/// en passant square dropped (neither changes the evaluation).
fn mirrored_left_right(b: &Board) -> Board {
    let fen = b.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let ranks: Vec<String> = fields[0].split('/').map(|r| r.chars().rev().collect()).collect();
    let fen = format!("{} {} - - {} {}", ranks.join("/"), fields[1], fields[4], fields[5]);
    Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The defining property of the mirrored feature set: a position and its left–right mirror
/// image evaluate exactly the same, whatever the weights. A plain network does not have it
/// (checked too, so the test can tell the two apart).
#[test]
fn mirrored_networks_evaluate_left_right_mirror_images_the_same() {
    use horizon::eval::nnue::evaluate_board;
    let mirrored = [
        Network::random(14).with_feature_set(FeatureSet::Mirrored),
        Network::random_bucketed(15, 8).with_feature_set(FeatureSet::Mirrored),
        Network::random_bucketed(15, 8).with_feature_set(FeatureSet::MirroredKingBuckets),
    ];
    let plain = Network::random(14);
    let (mut positions, mut plain_differs, mut kings_queen_side) = (0, 0, 0);
    for b in random_positions(2000, 16).into_iter().chain(endgames()) {
        let m = mirrored_left_right(&b);
        for net in &mirrored {
            assert_eq!(evaluate_board(net, &b), evaluate_board(net, &m), "{} vs {}", b.to_fen(), m.to_fen());
        }
        positions += 1;
        plain_differs += (evaluate_board(&plain, &b) != evaluate_board(&plain, &m)) as usize;
        kings_queen_side += (b.king_sq(horizon::Color::White).index() % 8 < 4) as usize;
    }
    assert!(plain_differs > positions * 9 / 10, "plain: {plain_differs} of {positions} differ");
    // Both halves were seen (the mirror image puts each king on the other half).
    assert!(kings_queen_side > positions / 5 && kings_queen_side < positions * 4 / 5, "{kings_queen_side}");
}

/// A mirrored network is the plain one with each perspective's squares mirrored while its
/// king stands on files a–d: positions with both kings on e–h evaluate as the plain network
/// does, and a position evaluates as the plain network evaluates its mirror image when both
/// kings stand on a–d.
#[test]
fn mirrored_network_is_the_plain_one_seen_from_the_king_s_half() {
    use horizon::eval::nnue::evaluate_board;
    let plain = Network::random_bucketed(17, 4);
    let mirrored = Network::random_bucketed(17, 4).with_feature_set(FeatureSet::Mirrored);
    let mut both = [0usize; 2];
    for b in random_positions(2000, 18).into_iter().chain(endgames()) {
        let half = |c: horizon::Color| b.king_sq(c).index() % 8 < 4;
        match (half(horizon::Color::White), half(horizon::Color::Black)) {
            (false, false) => {
                assert_eq!(evaluate_board(&mirrored, &b), evaluate_board(&plain, &b), "{}", b.to_fen());
                both[0] += 1;
            }
            (true, true) => {
                let m = mirrored_left_right(&b);
                assert_eq!(evaluate_board(&mirrored, &b), evaluate_board(&plain, &m), "{}", b.to_fen());
                both[1] += 1;
            }
            _ => {}
        }
    }
    assert!(both[0] > 100 && both[1] > 20, "{both:?}");
}

/// The evaluation against an independent, plain transcription of the spec's formula.
#[allow(clippy::needless_range_loop)]
#[test]
fn evaluation_follows_the_formula() {
    for net in [Network::random(6), Network::random_bucketed(6, 8), Network::random_bucketed(6, 3)] {
        evaluation_follows_the_formula_with(&net);
    }
}

#[allow(clippy::needless_range_loop)]
fn evaluation_follows_the_formula_with(net: &Network) {
    let buckets = net.buckets();
    let mut used = vec![false; buckets];
    for b in random_positions(300, 8).into_iter().chain(endgames()) {
        let stm = b.side_to_move();
        let mut acc = [[0i32; HIDDEN]; 2];
        for (p, persp) in [horizon::Color::White, horizon::Color::Black].into_iter().enumerate() {
            for j in 0..HIDDEN {
                acc[p][j] = net.feature_bias.0[j] as i32;
            }
            for sq in b.occupied() {
                let color = b.color_on(sq).unwrap();
                let piece = b.piece_on(sq).unwrap();
                let side = if color == persp { 0 } else { 1 };
                let sq2 = if persp == horizon::Color::White { sq.index() } else { sq.index() ^ 56 };
                let f = (side * 6 + piece.index()) * 64 + sq2;
                for j in 0..HIDDEN {
                    acc[p][j] += net.feature_weights[f].0[j] as i32;
                }
            }
        }
        let (us, them) = (acc[stm.index()], acc[1 - stm.index()]);
        // The bucket: (pieces − 2) · B / 32.
        let k = (b.occupied().count() as usize - 2) * buckets / 32;
        used[k] = true;
        let ow = &net.output_weights(k).0;
        let mut sum: i64 = 0;
        for j in 0..HIDDEN {
            let a = us[j].clamp(0, 255) as i64;
            let c = them[j].clamp(0, 255) as i64;
            sum += a * a * ow[j] as i64 + c * c * ow[HIDDEN + j] as i64;
        }
        let expected = ((sum / 255) + net.output_bias[k] as i64) * 400 / (255 * 64);
        assert_eq!(horizon::eval::nnue::evaluate_board(net, &b) as i64, expected, "{}", b.to_fen());
    }
    assert!(used.iter().all(|&u| u), "{buckets} buckets, used {used:?}");
}

/// Positions with few pieces (random play reaches few of them): 2 to 9 pieces.
fn endgames() -> Vec<Board> {
    [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3K4/4P3/8 b - - 0 1",
        "8/5r2/4k3/8/8/3K4/4P3/8 w - - 0 1",
        "8/5r2/4k3/8/8/3K4/4P3/2B5 w - - 0 1",
        "8/5r2/4k1p1/8/8/3K4/4P3/2B5 w - - 0 1",
        "8/5r2/4k1p1/8/8/3KN3/4P3/2B5 b - - 0 1",
        "8/5r2/4k1p1/p7/8/3KN3/4P3/2B5 w - - 0 1",
        "8/5r2/4k1p1/p7/8/3KN3/4PP2/2B5 w - - 0 1",
        "8/5r2/1q2k1p1/p7/8/3KN3/4PP2/2B5 w - - 0 1",
        "8/1p3r2/1q2k1p1/p7/8/3KN3/4PP2/2B5 w - - 0 1",
        "8/1p3r2/1q2k1p1/p7/8/1R1KN3/4PP2/2B5 w - - 0 1",
        "8/1p3r2/1q2k1p1/p7/3n4/1R1KN3/4PP2/2B5 w - - 0 1",
    ]
    .iter()
    .map(|f| Board::from_fen(f).unwrap())
    .collect()
}

// ---- the search with the network -------------------------------------------------------------

/// A search evaluating with the network: in test builds (debug assertions on) every
/// evaluation the search makes is checked against a full refresh, so this walks the
/// search's own make/unmake/null-move paths; and the result is a legal move.
#[test]
fn search_with_the_network_checks_every_evaluation() {
    use horizon::search::tt::TranspositionTable;
    use horizon::search::{Control, Searcher};
    use std::sync::Arc;
    let tt = Arc::new(TranspositionTable::new(4));
    let mut s = Searcher::new(tt, Arc::new(Control::default()));
    // The embedded network, and a random one with eight output buckets (captures change
    // the bucket along the search's lines).
    let bucketed: Arc<Network> = Arc::from(Network::random_bucketed(12, 8));
    let mirrored: Arc<Network> = Arc::from(Network::random_bucketed(12, 8).with_feature_set(FeatureSet::Mirrored));
    for net in [horizon::eval::nnue::default_network(), bucketed, mirrored] {
        s.set_network(Some(net));
        search_walk(&mut s);
    }
}

fn search_walk(s: &mut horizon::search::Searcher) {
    use horizon::search::{Limits, Silent};
    for fen in WALK_FENS {
        let mut b = Board::from_fen(fen).unwrap();
        b.set_chess960(fen.contains(" w G") || fen.contains(" w C") || fen.contains(" w H"));
        let limits = Limits { nodes: Some(20_000), multipv: 1, ..Limits::default() };
        let r = s.search(&b, limits, &mut Silent);
        assert!(b.legal_moves().contains(r.best), "{fen}: {:?}", r.best);
        assert!(r.stats.nodes >= 20_000);
        // The quiescence entry point (datagen's) refreshes its root too.
        let q = s.quiescence(&b);
        assert!(q.abs() < 30_000);
    }
}

// ---- the output layer's overflow bound --------------------------------------------------------

use horizon::eval::nnue::network::{Column, OutputWeights, MAX_OUTPUT_WEIGHT_SUM};

/// The `i`-th of `lanes` magnitudes that sum to exactly the bound (as even as can be: at
/// `HIDDEN` = 384 and 768 lanes, 44 on the first and 43 on the others).
fn at_the_bound(i: usize, lanes: usize) -> i16 {
    let (base, rest) = (MAX_OUTPUT_WEIGHT_SUM as usize / lanes, MAX_OUTPUT_WEIGHT_SUM as usize % lanes);
    (base + usize::from(i < rest)) as i16
}

/// A network at the bound: bucket 0's weights all positive and bucket 1's all negative, each
/// summing to `±MAX_OUTPUT_WEIGHT_SUM`; bucket 2's positive on even lanes and negative on odd
/// ones, each sign at the bound. The first layer is the bias alone (every feature weight 0),
/// so every accumulator holds the bias whatever the position.
fn network_at_the_bound(bias: [i32; 3]) -> Box<Network> {
    let mut net = Network::zeroed();
    net.set_output_weights(0, OutputWeights(std::array::from_fn(|j| at_the_bound(j, 2 * HIDDEN))));
    net.set_output_weights(1, OutputWeights(std::array::from_fn(|j| -at_the_bound(j, 2 * HIDDEN))));
    let mixed = OutputWeights(std::array::from_fn(|j| {
        let magnitude = at_the_bound(j / 2, HIDDEN);
        if j % 2 == 0 {
            magnitude
        } else {
            -magnitude
        }
    }));
    net.set_output_weights(2, mixed);
    net.output_bias[..3].copy_from_slice(&bias);
    net.output_buckets = 3;
    net
}

/// The output layer in i64, by the formula: the sum and the evaluation.
fn output_in_i64(us: &Column, them: &Column, w: &OutputWeights, bias: i32) -> (i64, i64) {
    let screlu = |x: i16| (x as i64).clamp(0, 255).pow(2);
    let half = |acc: &Column, w: &[i16]| acc.0.iter().zip(w).map(|(&x, &w)| screlu(x) * w as i64).sum::<i64>();
    let sum = half(us, &w.0[..HIDDEN]) + half(them, &w.0[HIDDEN..]);
    (sum, (sum / 255 + bias as i64) * 400 / (255 * 64))
}

/// At the bound, with every activation at its largest where the weights are of the sign
/// that counts (and 0 elsewhere), the output sum is `±QA² · MAX_OUTPUT_WEIGHT_SUM`, inside
/// i32 by 33,022; every path computes it exactly, and the evaluation (with the most extreme
/// biases) equals the i64 computation.
#[test]
fn output_at_the_overflow_bound_is_exact_on_every_path() {
    let extreme = 255 * 255 * MAX_OUTPUT_WEIGHT_SUM;
    assert!(extreme <= i32::MAX as i64 && extreme + 255 * 255 > i32::MAX as i64, "the bound is the tightest");
    let net = network_at_the_bound([i32::MAX, i32::MIN, 0]);
    // The file is accepted, and reads back as the same network.
    let back = Network::from_bytes(&net.to_bytes()).expect("a network at the bound is valid");
    assert!(*back == *net);
    // Accumulators: every lane clipped to QA (at and far above it), or even lanes at QA and
    // odd ones at or below 0 (for the mixed bucket).
    let all = Column(std::array::from_fn(|j| if j % 3 == 0 { 255 } else { i16::MAX }));
    let even = Column(std::array::from_fn(|j| if j % 2 == 0 { 255 + j as i16 } else { -(j as i16) }));
    let odd = Column(std::array::from_fn(|j| if j % 2 == 1 { i16::MAX } else { 0 }));
    let cases =
        [(0, &all, &all, extreme), (1, &all, &all, -extreme), (2, &even, &even, extreme), (2, &odd, &odd, -extreme)];
    for backend in Backend::ALL.into_iter().filter(|b| b.available()) {
        for &(k, us, them, want) in &cases {
            let (sum, eval) = output_in_i64(us, them, back.output_weights(k), back.output_bias[k]);
            assert_eq!(sum, want, "bucket {k}: the case hits the bound");
            let got = simd::screlu_dot_with(backend, us, them, back.output_weights(k), back.output_offset(k));
            assert_eq!(got as i64, sum, "{backend:?}, bucket {k}");
            assert_eq!(horizon::eval::nnue::scale_output(got, back.output_bias[k]) as i64, eval, "{backend:?} {k}");
        }
    }
    // Through the board: with the bias as every accumulator, positions of each bucket
    // (2–12 pieces bucket 0, 13–23 bucket 1, 24–32 bucket 2) against the i64 formula.
    let mut full = net;
    full.feature_bias = all;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for fen in ["8/8/4k3/8/8/3K4/8/8 w - - 0 1", "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R b - - 0 1", start] {
        let b = Board::from_fen(fen).unwrap();
        let k = horizon::eval::nnue::output_bucket(b.occupied().count(), 3);
        let (sum, eval) = output_in_i64(&all, &all, full.output_weights(k), full.output_bias[k]);
        assert_eq!(sum.abs(), if k == 2 { 0 } else { extreme }, "{fen}");
        assert_eq!(horizon::eval::nnue::evaluate_board(&full, &b) as i64, eval, "{fen}");
    }
}

/// One weight past the bound, on either side, and the file is refused with its own message.
#[test]
fn a_network_file_past_the_overflow_bound_is_refused() {
    let net = network_at_the_bound([0, 0, 0]);
    let good = net.to_bytes();
    let outputs_at = HEADER_BYTES + 769 * HIDDEN * 2;
    let limit = MAX_OUTPUT_WEIGHT_SUM;
    // One more on bucket 0's last weight, one less on bucket 1's, one more on bucket 2's
    // first (positive) weight.
    for (bucket, lane, delta, positive, negative) in [
        (0usize, 2 * HIDDEN - 1, 1i16, limit + 1, 0),
        (1, 2 * HIDDEN - 1, -1, 0, limit + 1),
        (2, 0, 1, limit + 1, limit),
    ] {
        let mut bytes = good.clone();
        let at = outputs_at + bucket * 4 * HIDDEN + 2 * lane;
        let w = i16::from_le_bytes([bytes[at], bytes[at + 1]]) + delta;
        bytes[at..at + 2].copy_from_slice(&w.to_le_bytes());
        reseal(&mut bytes);
        let e = Network::from_bytes(&bytes).expect_err("past the bound");
        assert_eq!(e, NetworkError::OutputOverflow { bucket, positive, negative });
        assert_eq!(
            e.to_string(),
            format!(
                "network file: output bucket {bucket}'s weights could overflow the output sum (positive weights sum to {positive}, negative ones to -{negative}; each must be within 33025)"
            )
        );
    }
}
