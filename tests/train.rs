//! Training data and the trainer: the 32-byte record, `convert`, refusing bad files, and a
//! tiny training run whose `.nnue` file is checked by an independent decoder written here
//! from the specification (HELPERS.md / docs/training.md).

use horizon::data::convert::{self, record_of_line, ConvertError};
use horizon::data::datagen::Player;
use horizon::data::read::{self, FileError};
use horizon::data::record::{RawRecord, Record, RecordError, RECORD_SIZE};
use horizon::data::Format;
use horizon::eval::nnue::FeatureSet;
use horizon::train::checkpoint::Checkpoint;
use horizon::train::network::{eval_cp, run_slice, Layout, LossSpec, Scratch};
use horizon::train::{self, Config, Output};
use horizon::Board;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::process::Command;

/// A fresh path in the temp directory, unique to this test process and `name`.
fn temp_path(name: &str) -> String {
    let p: PathBuf = std::env::temp_dir().join(format!("horizon-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p.to_str().unwrap().to_string()
}

/// The FEN with its castling field replaced by `-` (records do not store castling).
fn without_castling(fen: &str) -> String {
    let mut f: Vec<&str> = fen.split_whitespace().collect();
    f[2] = "-";
    f.join(" ")
}

/// Positions from random games: many with an en passant square, both sides to move.
fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = vec![Board::startpos()];
    while out.len() < count {
        let mut b = Board::startpos();
        for _ in 0..rng.gen_range(1..120) {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            b.make(moves[rng.gen_range(0..moves.len())]);
            if rng.gen_bool(0.2) || b.ep_square().is_some() {
                out.push(Board::from_fen(&b.to_fen()).unwrap());
            }
        }
    }
    out
}

#[test]
fn start_position_record_bytes() {
    let r = Record::from_board(&Board::startpos(), -25, 2).to_bytes();
    // Occupancy: ranks 1, 2, 7, 8.
    assert_eq!(&r[0..8], &0xFFFF_0000_0000_FFFFu64.to_le_bytes());
    // a1 rook (3), b1 knight (1): low nibble first.
    assert_eq!(r[8], 0x13);
    // c1 bishop (2), d1 queen (4); e1 king (5), f1 bishop (2).
    assert_eq!(r[9], 0x42);
    assert_eq!(r[10], 0x25);
    // g1 knight (1), h1 rook (3).
    assert_eq!(r[11], 0x31);
    // Eight white pawns: bytes 12..16 are 0x00.
    assert_eq!(&r[12..16], &[0, 0, 0, 0]);
    // Black pawns (8) then a8 rook (11), b8 knight (9).
    assert_eq!(&r[16..20], &[0x88; 4]);
    assert_eq!(r[20], 0x9B);
    // c8 bishop (10), d8 queen (12).
    assert_eq!(r[21], 0xCA);
    // e8 king (13), f8 bishop (10) in byte 22; g8 knight (9), h8 rook (11) in byte 23.
    assert_eq!(r[22], 0xAD);
    assert_eq!(r[23], 0xB9);
    assert_eq!(r[24], 0); // white to move
    assert_eq!(r[25], 64); // no en passant
    assert_eq!(i16::from_le_bytes([r[26], r[27]]), -25);
    assert_eq!(r[28], 2);
    assert_eq!(r[29], 0);
    assert_eq!(u16::from_le_bytes([r[30], r[31]]), 1);
}

#[test]
fn records_round_trip() {
    let boards = random_positions(3000, 11);
    let (mut ep, mut black, mut full) = (0, 0, 0);
    for (i, b) in boards.iter().enumerate() {
        let score = (i as i32 * 37) % 64001 - 32000;
        let rec = Record::from_board(b, score, (i % 3) as u8);
        let bytes = rec.to_bytes();
        let back = Record::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", b.to_fen()));
        assert_eq!(back, rec);
        assert_eq!(back.to_board().unwrap().to_fen(), without_castling(&b.to_fen()));
        assert_eq!(back.score as i32, score);
        ep += usize::from(b.ep_square().is_some());
        black += usize::from(b.side_to_move() == horizon::Color::Black);
        full += usize::from(b.occupied().count() == 32);
    }
    assert!(ep >= 50 && black >= 500 && full >= 1, "coverage: {ep} en passant, {black} black, {full} full");
    // Scores beyond the range are clamped.
    assert_eq!(Record::from_board(&Board::startpos(), 99_999, 1).score, 32000);
    assert_eq!(Record::from_board(&Board::startpos(), -99_999, 1).score, -32000);
}

#[test]
fn invalid_records_are_refused_with_their_reason() {
    let good = Record::from_board(&Board::startpos(), 0, 1).to_bytes();
    let with = |f: &dyn Fn(&mut [u8; 32])| {
        let mut b = good;
        f(&mut b);
        Record::from_bytes(&b)
    };
    assert!(matches!(with(&|b| b[0..8].copy_from_slice(&u64::MAX.to_le_bytes())), Err(RecordError::TooManyPieces(64))));
    assert!(matches!(with(&|b| b[8] = 0x16), Err(RecordError::BadNibble { index: 0, value: 6 })));
    assert!(matches!(with(&|b| b[10] = 0x23), Err(RecordError::KingCount { color: "white", count: 0 })));
    assert!(matches!(with(&|b| b[24] = 2), Err(RecordError::BadSide(2))));
    assert!(matches!(with(&|b| b[25] = 65), Err(RecordError::BadEnPassant(65))));
    assert!(matches!(with(&|b| b[26..28].copy_from_slice(&32001i16.to_le_bytes())), Err(RecordError::BadScore(32001))));
    assert!(matches!(with(&|b| b[28] = 3), Err(RecordError::BadResult(3))));
    // Bare kings with a stray nibble after the two pieces.
    let kk = Record::from_board(&Board::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1").unwrap(), 0, 1).to_bytes();
    let mut b = kk;
    b[9] = 1;
    assert_eq!(Record::from_bytes(&b), Err(RecordError::NonZeroPadding));
    // A pawn on the eighth rank.
    let mut b = kk;
    b[0..8].copy_from_slice(&((1u64 << 4) | (1 << 60) | (1 << 63)).to_le_bytes());
    b[8] = 0x05;
    b[9] = 0x0D;
    assert_eq!(Record::from_bytes(&b), Err(RecordError::PawnOnBackRank));
    // Messages are one line.
    assert_eq!(RecordError::KingCount { color: "black", count: 2 }.to_string(), "2 black kings (exactly one needed)");
}

/// Text data lines from a few very short self-play games.
/// Writes `lines` to the text file `txt` and converts it (duplicates dropped) to `bin`.
fn write_binary_data(lines: &[String], txt: &str, bin: &str) {
    std::fs::write(txt, lines.join("\n")).unwrap();
    convert::run(&convert::Config {
        inputs: vec![txt.to_string()],
        out: bin.to_string(),
        to: Format::Bin,
        dedup: true,
        force: false,
    })
    .unwrap();
}

fn generated_lines(games: u64, nodes: u64, seed: u64) -> Vec<String> {
    let mut p = Player::new(1, nodes).unwrap();
    let mut lines = Vec::new();
    for i in 0..games {
        lines.extend(p.play(seed, i, &[], 8).lines().lines().map(str::to_string));
    }
    lines
}

#[test]
fn convert_text_bin_text_round_trip_with_dedup() {
    let lines = generated_lines(6, 150, 3);
    assert!(lines.len() > 100, "only {} lines", lines.len());
    // The input: every line, then the first 20 again (duplicates), then three bad lines.
    let mut text = lines.join("\n") + "\n";
    for l in &lines[..20] {
        text += &format!("{l}\n");
    }
    text += "not a data line\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 12 | 2.0\n";
    text += "8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5\n";
    let (txt, bin, back, bin2) = (temp_path("in.txt"), temp_path("a.bin"), temp_path("back.txt"), temp_path("b.bin"));
    std::fs::write(&txt, &text).unwrap();

    let unique = {
        let mut seen = std::collections::HashSet::new();
        lines.iter().filter(|l| seen.insert(record_of_line(l).unwrap().dedup_key())).count()
    };
    let cfg =
        convert::Config { inputs: vec![txt.clone()], out: bin.clone(), to: Format::Bin, dedup: true, force: false };
    let s = convert::run(&cfg).unwrap();
    assert_eq!(s.skipped, 3);
    assert_eq!(s.read, lines.len() as u64 + 20);
    assert_eq!(s.written, unique as u64);
    assert_eq!(s.duplicates, s.read - s.written);
    assert!(s.first_skipped[0].starts_with("skipped line"), "{:?}", s.first_skipped);
    assert!(s.first_skipped[0].contains(&format!("line {}", lines.len() + 21)), "{:?}", s.first_skipped);
    assert_eq!(std::fs::metadata(&bin).unwrap().len(), unique as u64 * RECORD_SIZE as u64);

    // An existing output is refused without --force.
    let e = convert::run(&cfg).unwrap_err();
    assert!(matches!(&e, ConvertError::Exists(p) if *p == bin), "{e:?}");
    assert_eq!(e.to_string(), format!("'{bin}' exists; add --force to replace it"));

    // Back to text: the unique lines in their first order, castling dropped.
    let s = convert::run(&convert::Config {
        inputs: vec![bin.clone()],
        out: back.clone(),
        to: Format::Text,
        dedup: false,
        force: false,
    })
    .unwrap();
    assert_eq!(s.written, unique as u64);
    let mut seen = std::collections::HashSet::new();
    let expected: Vec<String> = lines
        .iter()
        .filter(|l| seen.insert(record_of_line(l).unwrap().dedup_key()))
        .map(|l| {
            let (fen, rest) = l.split_once(" | ").unwrap();
            format!("{} | {rest}", without_castling(fen))
        })
        .collect();
    let got: Vec<String> = std::fs::read_to_string(&back).unwrap().lines().map(str::to_string).collect();
    assert_eq!(got, expected);

    // And to binary again: byte-identical.
    convert::run(&convert::Config {
        inputs: vec![back.clone()],
        out: bin2.clone(),
        to: Format::Bin,
        dedup: true,
        force: false,
    })
    .unwrap();
    assert_eq!(std::fs::read(&bin).unwrap(), std::fs::read(&bin2).unwrap());
    for p in [txt, bin, back, bin2] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn bad_data_files_are_refused_with_their_own_messages() {
    let short = temp_path("short.bin");
    std::fs::write(&short, [0u8; 33]).unwrap();
    let e = read::load(std::slice::from_ref(&short)).unwrap_err();
    assert!(matches!(e, FileError::Size { len: 33, .. }), "{e:?}");
    let e = e.to_string();
    assert!(e.contains(&short) && e.contains("not a multiple of 32"), "{e}");
    let missing = temp_path("missing.bin");
    let e = read::load(std::slice::from_ref(&missing)).unwrap_err().to_string();
    assert!(e.starts_with("cannot read") && e.contains(&missing), "{e}");

    // Invalid records are skipped and counted, not fatal.
    let mixed = temp_path("mixed.bin");
    let good = Record::from_board(&Board::startpos(), 5, 1).to_bytes();
    let mut bad = good;
    bad[28] = 9;
    let mut bytes = Vec::new();
    for r in [good, bad, good, [0u8; 32]] {
        bytes.extend_from_slice(&r);
    }
    std::fs::write(&mixed, &bytes).unwrap();
    let (records, stats) = read::load(std::slice::from_ref(&mixed)).unwrap();
    assert_eq!((records.len(), stats.records, stats.invalid), (2, 2, 2));
    assert!(stats.first_errors[0].contains("record 2: result 9"), "{:?}", stats.first_errors);

    // The command line says it in one line and exits 2.
    let o = Command::new(env!("CARGO_BIN_EXE_horizon"))
        .args(["train", &short, "--out", &temp_path("x.nnue")])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: ") && err.contains("not a multiple of 32"), "{err}");
    for p in [short, mixed] {
        let _ = std::fs::remove_file(p);
    }
}

/// FNV-1a 64, written again here from its definition.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100000001b3))
}

/// A network decoded by the file specification.
struct SpecNet {
    n: usize,
    w: Vec<i16>,
    b: Vec<i16>,
    /// Per output bucket.
    ow: Vec<Vec<i16>>,
    ob: Vec<i32>,
    /// The mirrored feature sets (version 3, set 1 or 2).
    mirrored: bool,
    /// Set 2: four blocks of 768 inputs, one per king bucket.
    king_buckets: bool,
}

fn decode_spec(bytes: &[u8]) -> SpecNet {
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    assert_eq!(&bytes[0..8], b"HZNNUE\0\0");
    // Version 1: one bucket, the last header field 0; version 2: that field is the bucket
    // count, 2 to 8 (one bucket is always written as version 1); version 3: the bucket count
    // 1 to 8, then the feature set (written for the mirrored sets only), a 44-byte header.
    let (buckets, header, set) = match u32_at(8) {
        1 => {
            assert_eq!(u32_at(36), 0);
            (1, 40, 0)
        }
        2 => {
            assert!((2..=8).contains(&u32_at(36)), "{}", u32_at(36));
            (u32_at(36) as usize, 40, 0)
        }
        3 => {
            assert!((1..=8).contains(&u32_at(36)), "{}", u32_at(36));
            assert!([1, 2].contains(&u32_at(40)), "version 3 is written for the mirrored sets");
            (u32_at(36) as usize, 44, u32_at(40))
        }
        v => panic!("version {v}"),
    };
    // 768 inputs, or four blocks of them with king buckets.
    let inputs = if set == 2 { 4 * 768 } else { 768 };
    assert_eq!(u32_at(12) as usize, inputs);
    let n = u32_at(16) as usize;
    assert_eq!(u32_at(20), 1);
    assert_eq!((u32_at(24), u32_at(28), u32_at(32)), (255, 64, 400));
    assert_eq!(bytes.len(), header + inputs * n * 2 + n * 2 + buckets * (2 * n * 2 + 4) + 8);
    let end = bytes.len() - 8;
    assert_eq!(u64::from_le_bytes(bytes[end..].try_into().unwrap()), fnv(&bytes[..end]), "checksum");
    let i16s = |from: usize, count: usize| -> Vec<i16> {
        bytes[from..from + 2 * count].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
    };
    let w = i16s(header, inputs * n);
    let b = i16s(header + inputs * n * 2, n);
    let ow = (0..buckets).map(|k| i16s(header + (inputs + 1 + 2 * k) * n * 2, 2 * n)).collect();
    let o = header + (inputs + 1 + 2 * buckets) * n * 2;
    let ob = (0..buckets).map(|k| i32::from_le_bytes(bytes[o + 4 * k..o + 4 * k + 4].try_into().unwrap())).collect();
    SpecNet { n, w, b, ow, ob, mirrored: set != 0, king_buckets: set == 2 }
}

/// The output bucket by the specification: (pieces − 2) · B / 32.
fn spec_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces - 2) * buckets / 32
}

/// The engine's integer evaluation by the specification, for the side to move.
fn spec_eval(net: &SpecNet, board: &Board) -> i32 {
    let (qa, qb, scale) = (255i32, 64i32, 400i32);
    let mut acc = [vec![0i16; net.n], vec![0i16; net.n]];
    for (p, a) in acc.iter_mut().enumerate() {
        a.copy_from_slice(&net.b);
        // Mirrored: files a–h reversed for a perspective whose own king is on files a–d.
        let color = if p == 0 { horizon::Color::White } else { horizon::Color::Black };
        let king = board.king_sq(color).index();
        let flip_files = net.mirrored && king % 8 < 4;
        // King buckets: the own king's rank as the perspective sees it, and its file folded
        // onto e–h: back rank g–h 0, back rank e–f 1, second rank 2, beyond 3.
        let block = if net.king_buckets {
            let rank = if p == 0 { king / 8 } else { 7 - king / 8 };
            let file = if flip_files { 7 - king % 8 } else { king % 8 };
            match (rank, file) {
                (0, 6 | 7) => 0,
                (0, _) => 768,
                (1, _) => 1536,
                _ => 2304,
            }
        } else {
            0
        };
        for sq in 0..64usize {
            let s = horizon::Square::from_index(sq);
            let (Some(piece), Some(c)) = (board.piece_on(s), board.color_on(s)) else { continue };
            let side = usize::from(c.index() != p);
            let sqp = if p == 0 { sq } else { sq ^ 56 };
            let sqp = if flip_files { sqp ^ 7 } else { sqp };
            let f = block + (side * 6 + piece.index()) * 64 + sqp;
            for (x, &w) in a.iter_mut().zip(&net.w[f * net.n..(f + 1) * net.n]) {
                *x = x.wrapping_add(w);
            }
        }
    }
    let us = board.side_to_move().index();
    let mut sum = 0i32;
    let bucket = spec_bucket(board.occupied().count() as usize, net.ow.len());
    let (ow_us, ow_them) = net.ow[bucket].split_at(net.n);
    for (((&u, &t), &wu), &wt) in acc[us].iter().zip(&acc[1 - us]).zip(ow_us).zip(ow_them) {
        let (u, t) = ((u as i32).clamp(0, qa), (t as i32).clamp(0, qa));
        sum += u * u * wu as i32 + t * t * wt as i32;
    }
    (sum / qa + net.ob[bucket]) * scale / (qa * qb)
}

/// The tiny run's hidden size: the engine's (its network reader is built for one size).
const TINY_HIDDEN: usize = horizon::eval::nnue::HIDDEN;

#[test]
fn tiny_training_run_lowers_the_loss_and_writes_a_valid_network() {
    tiny_training_run(1);
}

#[test]
fn tiny_training_run_with_eight_output_buckets() {
    tiny_training_run(8);
}

/// Trains a network with `buckets` output buckets on a few thousand positions, resumes it,
/// and checks the file, the engine's reading of it and the checkpoint checks.
fn tiny_training_run(buckets: usize) {
    // A few thousand positions from very short self-play games.
    let lines = generated_lines(60, 120, 9);
    assert!(lines.len() >= 2000, "only {} positions", lines.len());
    let tag = format!("tiny-b{buckets}");
    let (txt, bin, net) =
        (temp_path(&format!("{tag}.txt")), temp_path(&format!("{tag}.bin")), temp_path(&format!("{tag}.nnue")));
    write_binary_data(&lines, &txt, &bin);

    let mut cfg = Config::new(vec![bin.clone()], net.clone());
    cfg.hidden = Some(TINY_HIDDEN);
    cfg.output_buckets = Some(buckets);
    cfg.epochs = 8;
    cfg.batch = 256;
    cfg.threads = 2;
    cfg.lr = 0.005;
    cfg.val = Some(0.1);
    cfg.seed = Some(5);
    let mut lines_out = Vec::new();
    let mut line = |s: &str| lines_out.push(s.to_string());
    let mut progress = |_: &str| {};
    // Four epochs, then resume for the other four.
    cfg.epochs = 4;
    let first = train::run(&cfg, &mut Output { line: &mut line, progress: &mut progress }).unwrap();
    cfg.epochs = 8;
    cfg.resume = Some(cfg.checkpoint.clone());
    let second = train::run(&cfg, &mut Output { line: &mut line, progress: &mut progress }).unwrap();
    assert_eq!(first.iter().map(|r| r.epoch).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!(second.iter().map(|r| r.epoch).collect::<Vec<_>>(), [5, 6, 7, 8]);
    // Training fits the positions: the training loss falls severalfold over the eight epochs,
    // and the resumed run goes on from the checkpoint instead of starting again. A few
    // thousand positions are too few to generalise from (the validation loss stays within
    // about 10 % of its first figure, up or down with the games), so it is only checked to
    // be reported.
    let t: Vec<f64> = first.iter().chain(&second).map(|r| r.train_loss).collect();
    assert!(t[7] < t[0] / 4.0, "training loss {t:?}");
    assert!(t[4] < t[3] * 1.2, "the resumed run did not go on from epoch 4: {t:?}");
    assert!(first.iter().chain(&second).all(|r| r.val_loss.is_some_and(f64::is_finite)), "{first:?} {second:?}");
    assert!(lines_out.iter().any(|l| l.starts_with("resuming after epoch 4")), "{lines_out:?}");
    // Resuming a run that has finished its epochs trains nothing and writes nothing: it is
    // refused, and the network file is left as it was.
    let before = std::fs::read(&net).unwrap();
    let e = train::run(&cfg, &mut Output { line: &mut |_| {}, progress: &mut |_| {} }).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the checkpoint has finished 8 epoch(s), and --epochs 8 asks for no more: nothing to train (raise --epochs to go on)"
    );
    assert_eq!(std::fs::read(&net).unwrap(), before);

    // The network file: by the specification, the checkpoint's weights quantised.
    let bytes = std::fs::read(&net).unwrap();
    let spec = decode_spec(&bytes);
    assert_eq!((spec.n, spec.ow.len()), (TINY_HIDDEN, buckets));
    let ckpt = Checkpoint::load(&cfg.checkpoint).unwrap();
    assert_eq!((ckpt.epochs_done, ckpt.buckets), (8, buckets));
    let l = Layout::new(TINY_HIDDEN, buckets, FeatureSet::Plain);
    let q = |x: f32, s: f32| (x * s).round() as i64;
    assert!(ckpt.params[l.w()].iter().zip(&spec.w).all(|(&x, &y)| q(x, 255.0) == y as i64));
    assert!(ckpt.params[l.b()].iter().zip(&spec.b).all(|(&x, &y)| q(x, 255.0) == y as i64));
    let spec_ow: Vec<i16> = spec.ow.concat();
    assert_eq!(spec_ow.len(), l.ow().len());
    assert!(ckpt.params[l.ow()].iter().zip(&spec_ow).all(|(&x, &y)| q(x, 64.0) == y as i64));
    for (&x, &y) in ckpt.params[l.ob()].iter().zip(&spec.ob) {
        assert_eq!((x as f64 * 255.0 * 64.0).round() as i64, y as i64);
    }
    if buckets > 1 {
        // Each bucket learned weights of its own.
        assert!(spec.ow.windows(2).all(|p| p[0] != p[1]), "two buckets with the same weights");
    }

    let engine_net = horizon::eval::nnue::network::Network::from_bytes(&bytes).expect("the engine reads the file");
    // The integer evaluation is the float network's on the quantised weights, up to the
    // integer divisions (at most a centipawn or two).
    let mut dequantised = vec![0.0f32; l.param_count()];
    for (d, &w) in dequantised[l.w()].iter_mut().zip(&spec.w) {
        *d = w as f32 / 255.0;
    }
    for (d, &w) in dequantised[l.b()].iter_mut().zip(&spec.b) {
        *d = w as f32 / 255.0;
    }
    for (d, &w) in dequantised[l.ow()].iter_mut().zip(&spec_ow) {
        *d = w as f32 / 64.0;
    }
    for (d, &b) in dequantised[l.ob()].iter_mut().zip(&spec.ob) {
        *d = b as f32 / (255.0 * 64.0);
    }
    for (i, text) in lines.iter().enumerate().step_by(97) {
        let rec = record_of_line(text).unwrap();
        let board = rec.to_board().unwrap();
        let float = eval_cp(&ckpt.params, l, &rec.to_bytes(), 400.0);
        let deq = eval_cp(&dequantised, l, &rec.to_bytes(), 400.0);
        let int = spec_eval(&spec, &board);
        assert!((deq - int as f32).abs() <= 2.0, "line {i}: dequantised float {deq} int {int}");
        // The engine's reader and evaluation give the same integer.
        assert_eq!(horizon::eval::nnue::evaluate_board(&engine_net, &board), int, "line {i}");
        assert!((float - int as f32).abs() <= 30.0 + 0.1 * float.abs(), "line {i}: float {float} int {int}");
        // Colour symmetry of the float net: the mirrored position scores the same.
        let mirrored = Record::from_board(&board.mirrored(), 0, 1);
        let fm = eval_cp(&ckpt.params, l, &mirrored.to_bytes(), 400.0);
        assert!((float - fm).abs() < 0.01, "line {i}: {float} vs mirrored {fm}");
    }

    // Corrupt checkpoints are refused, each with its own message.
    let ck = std::fs::read(&cfg.checkpoint).unwrap();
    let bad = temp_path(&format!("{tag}-bad.ckpt"));
    let mut flipped = ck.clone();
    flipped[100] ^= 1;
    for (bytes, want) in [
        (ck[..ck.len() - 1].to_vec(), "size"),
        (flipped, "bad checksum"),
        (b"HZNNUE\0\0".repeat(10), "bad magic"),
        (vec![1, 2, 3], "too short"),
    ] {
        std::fs::write(&bad, bytes).unwrap();
        let e = Checkpoint::load(&bad).unwrap_err().to_string();
        assert!(e.contains(want) && e.contains(&bad), "{e} lacks {want}");
    }
    // A --hidden or --output-buckets that contradicts the checkpoint.
    cfg.output_buckets = Some(buckets % 8 + 1);
    let e = train::run(&cfg, &mut Output { line: &mut |_| {}, progress: &mut |_| {} }).unwrap_err();
    assert!(matches!(e, train::TrainError::BucketsMismatch { start, .. } if start == buckets), "{e:?}");
    assert!(e.to_string().contains("--output-buckets") && e.to_string().contains("differs"), "{e}");
    cfg.output_buckets = None;
    cfg.hidden = Some(64);
    let e = train::run(&cfg, &mut Output { line: &mut |_| {}, progress: &mut |_| {} }).unwrap_err();
    assert!(matches!(e, train::TrainError::HiddenMismatch { given: 64, .. }), "{e:?}");
    assert!(e.to_string().contains("--hidden") && e.to_string().contains("differs"), "{e}");
    for p in [txt, bin, net.clone(), format!("{net}.ckpt"), bad] {
        let _ = std::fs::remove_file(p);
    }
}

/// A mirrored network end to end: one epoch on a small data file, the file written as
/// version 3 with the mirrored set, the checkpoint remembering the set (a resumed run with
/// `--features plain` is refused), and the engine reading the file and evaluating exactly as
/// an independent decoder of the specification does.
#[test]
fn tiny_mirrored_training_run_is_read_by_the_engine() {
    tiny_training_run_in(FeatureSet::Mirrored);
}

/// The same with king buckets: the file holds 3072 inputs (the factoriser folded in), the
/// engine and the specification agree on every position, and the float network with its
/// factoriser agrees with the written one.
#[test]
fn tiny_king_bucket_training_run_is_read_by_the_engine() {
    tiny_training_run_in(FeatureSet::MirroredKingBuckets);
}

/// A run of `epochs` on the data file `bin` writing `net`: the tiny hidden size, two output
/// buckets, feature set `set`, small batches on two threads.
fn tiny_config(bin: &str, net: &str, set: FeatureSet, epochs: u32) -> Config {
    let mut cfg = Config::new(vec![bin.to_string()], net.to_string());
    cfg.hidden = Some(TINY_HIDDEN);
    cfg.output_buckets = Some(2);
    cfg.features = Some(set);
    cfg.epochs = epochs;
    cfg.batch = 256;
    cfg.threads = 2;
    cfg
}

fn tiny_training_run_in(set: FeatureSet) {
    let lines = generated_lines(12, 120, 17);
    let name = set.to_string();
    let (txt, bin, net) =
        (temp_path(&format!("{name}.txt")), temp_path(&format!("{name}.bin")), temp_path(&format!("{name}.nnue")));
    write_binary_data(&lines, &txt, &bin);
    let mut cfg = tiny_config(&bin, &net, set, 1);
    let mut out = Vec::new();
    let reports = train::run(&cfg, &mut Output { line: &mut |s| out.push(s.to_string()), progress: &mut |_| {} })
        .expect("a mirrored run");
    assert_eq!(reports.len(), 1);
    assert!(out.iter().any(|l| l.contains(&format!("{set} features"))), "{out:?}");
    let factorised = set == FeatureSet::MirroredKingBuckets;
    assert_eq!(out.iter().any(|l| l.contains("with a factoriser")), factorised, "{out:?}");

    let bytes = std::fs::read(&net).unwrap();
    let spec = decode_spec(&bytes);
    assert!(spec.mirrored);
    assert_eq!(spec.king_buckets, factorised);
    let engine_net = horizon::eval::nnue::network::Network::from_file(&net).expect("the engine reads the file");
    assert_eq!(engine_net.feature_set, set);
    let ckpt = Checkpoint::load(&cfg.checkpoint).unwrap();
    assert_eq!(ckpt.features, set);
    let l = ckpt.layout();
    assert_eq!(l.factoriser, factorised);
    if factorised {
        // The factoriser was trained (it is not still all zero).
        assert!(ckpt.params[l.fw()].iter().any(|&x| x != 0.0));
    }
    let mut sides = [0usize; 2];
    let mut ranks = [0usize; 3];
    for text in lines.iter().step_by(7) {
        let rec = record_of_line(text).unwrap();
        let board = rec.to_board().unwrap();
        let int = horizon::eval::nnue::evaluate_board(&engine_net, &board);
        assert_eq!(int, spec_eval(&spec, &board), "{}", board.to_fen());
        let float = eval_cp(&ckpt.params, l, &rec.to_bytes(), 400.0);
        assert!((float - int as f32).abs() <= 30.0 + 0.1 * float.abs(), "{}: float {float} int {int}", board.to_fen());
        let king = board.king_sq(board.side_to_move()).index();
        sides[(king % 8 < 4) as usize] += 1;
        let rank = if board.side_to_move() == horizon::Color::White { king / 8 } else { 7 - king / 8 };
        ranks[rank.min(2)] += 1;
    }
    assert!(sides[0] > 0 && sides[1] > 0, "kings on both halves: {sides:?}");
    assert!(ranks.iter().all(|&r| r > 0), "kings on the back rank, the second and beyond: {ranks:?}");

    cfg.resume = Some(cfg.checkpoint.clone());
    cfg.features = Some(FeatureSet::Plain);
    cfg.epochs = 2;
    let e = train::run(&cfg, &mut Output { line: &mut |_| {}, progress: &mut |_| {} }).unwrap_err();
    assert!(matches!(e, train::TrainError::FeaturesMismatch { .. }), "{e:?}");
    assert_eq!(e.to_string(), format!("--features plain differs from the checkpoint's feature set {set}"));
    for p in [txt, bin, net.clone(), format!("{net}.ckpt")] {
        let _ = std::fs::remove_file(p);
    }
}

/// One epoch on `bin` into `out`, started from the network `init`, at a learning rate too
/// small to move a weight by a quantisation step; shape flags left to the file.
fn negligible_run_from(bin: &str, out: &str, init: &str) -> Config {
    let mut cfg = Config::new(vec![bin.to_string()], out.to_string());
    cfg.init = Some(init.to_string());
    cfg.epochs = 1;
    cfg.batch = 256;
    cfg.threads = 2;
    cfg.lr = 1e-9;
    cfg.val = Some(0.1);
    cfg
}

/// Runs `cfg`, keeping the log lines.
fn run_logged(cfg: &Config) -> (Result<Vec<train::EpochReport>, train::TrainError>, Vec<String>) {
    let mut out = Vec::new();
    let r = train::run(cfg, &mut Output { line: &mut |s| out.push(s.to_string()), progress: &mut |_| {} });
    (r, out)
}

/// `--init NET`: a run that starts from a network file's weights. With a learning rate too
/// small to move a weight by a quantisation step, the network it writes is the one it
/// started from (with king buckets too: the file's sums become the buckets' own weights and
/// the factoriser starts at zero), its first validation loss is the starting network's, far
/// below a fresh run's, and the shape of the file overrules nothing: a contradicting flag,
/// `--resume` beside it and a file that is no network are refused.
#[test]
fn a_run_started_from_a_network_file_continues_from_its_weights() {
    for set in [FeatureSet::Plain, FeatureSet::MirroredKingBuckets] {
        let lines = generated_lines(20, 120, 23);
        let name = format!("init-{set}");
        let (txt, bin, first, second) = (
            temp_path(&format!("{name}.txt")),
            temp_path(&format!("{name}.bin")),
            temp_path(&format!("{name}-1.nnue")),
            temp_path(&format!("{name}-2.nnue")),
        );
        write_binary_data(&lines, &txt, &bin);
        let mut cfg = tiny_config(&bin, &first, set, 3);
        cfg.lr = 0.005;
        cfg.val = Some(0.1);
        let quiet = |c: &Config| train::run(c, &mut Output { line: &mut |_| {}, progress: &mut |_| {} });
        let fresh = quiet(&cfg).unwrap();

        // Started from the first network, shape flags left out, at a negligible rate.
        let mut init = negligible_run_from(&bin, &second, &first);
        let (reports, out) = run_logged(&init);
        let reports = reports.expect("a run from a network file");
        assert!(out.iter().any(|l| l == &format!("starting from the weights of '{first}'")), "{out:?}");
        assert!(out.iter().any(|l| l.contains(&format!("{set} features"))), "{out:?}");
        let (a, b) = (std::fs::read(&first).unwrap(), std::fs::read(&second).unwrap());
        assert_eq!(a.len(), b.len());
        let (sa, sb) = (decode_spec(&a), decode_spec(&b));
        let moved = sa.w.iter().zip(&sb.w).filter(|(x, y)| x != y).count();
        assert!(moved * 1000 <= sa.w.len(), "{moved} of {} feature weights moved", sa.w.len());
        let start_val = reports[0].val_loss.unwrap();
        let (fresh_first, fresh_last) = (fresh[0].val_loss.unwrap(), fresh[2].val_loss.unwrap());
        assert!((start_val - fresh_last).abs() <= 0.05 * fresh_last, "{start_val} vs {fresh_last}");
        assert!(start_val < fresh_first, "{start_val} vs a fresh first epoch's {fresh_first}");
        if set == FeatureSet::MirroredKingBuckets {
            let ckpt = Checkpoint::load(&init.checkpoint).unwrap();
            let l = ckpt.layout();
            assert!(ckpt.params[l.fw()].iter().all(|x| x.abs() < 1e-6), "the factoriser starts at zero");
        }

        // Refusals, each a one-line error.
        init.hidden = Some(TINY_HIDDEN * 2);
        let e = quiet(&init).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("--hidden {} differs from the starting network's hidden size {TINY_HIDDEN}", TINY_HIDDEN * 2)
        );
        init.hidden = None;
        init.features = Some(if set == FeatureSet::Plain { FeatureSet::Mirrored } else { FeatureSet::Plain });
        assert!(matches!(quiet(&init).unwrap_err(), train::TrainError::FeaturesMismatch { .. }));
        init.features = None;
        init.resume = Some(init.checkpoint.clone());
        assert!(matches!(quiet(&init).unwrap_err(), train::TrainError::InitAndResume));
        init.resume = None;
        init.init = Some(bin.clone());
        let e = quiet(&init).unwrap_err().to_string();
        assert!(e.contains("bad magic") && e.contains(&bin) && !e.contains('\n'), "{e}");
        for p in [txt, bin, first.clone(), format!("{first}.ckpt"), second.clone(), format!("{second}.ckpt")] {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// `--init` a mirrored network with `--features mirrored-kb4`: the run grows king buckets.
/// The starting weights become the factoriser and every bucket's own weights start at zero,
/// so at a negligible learning rate each of the four blocks of the written network is the
/// starting network's feature weights, everything after them is unchanged, and the first
/// validation loss is the starting network's. Only that widening is allowed: a plain network
/// given king buckets, a king-bucket network given fewer inputs, and a resumed mirrored run
/// given king buckets are each refused.
#[test]
fn a_mirrored_network_grows_king_buckets_that_start_as_it() {
    let lines = generated_lines(20, 120, 29);
    let (txt, bin, first, grown, plain) = (
        temp_path("grow.txt"),
        temp_path("grow.bin"),
        temp_path("grow-mirrored.nnue"),
        temp_path("grow-kb4.nnue"),
        temp_path("grow-plain.nnue"),
    );
    write_binary_data(&lines, &txt, &bin);
    let quiet = |c: &Config| train::run(c, &mut Output { line: &mut |_| {}, progress: &mut |_| {} });
    let mut cfg = tiny_config(&bin, &first, FeatureSet::Mirrored, 3);
    cfg.lr = 0.005;
    cfg.val = Some(0.1);
    let trained = quiet(&cfg).unwrap();

    let mut grow = negligible_run_from(&bin, &grown, &first);
    grow.features = Some(FeatureSet::MirroredKingBuckets);
    grow.bucket_decay = Some(0.1);
    let (reports, out) = run_logged(&grow);
    let reports = reports.expect("a mirrored network grown to king buckets");
    assert!(
        out.iter()
            .any(|l| l
                == "mirrored weights shared by the king buckets (the factoriser); each bucket's own start at zero"),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.contains("3072") && l.contains("mirrored-kb4 features with a factoriser")), "{out:?}");

    let (a, b) = (decode_spec(&std::fs::read(&first).unwrap()), decode_spec(&std::fs::read(&grown).unwrap()));
    assert!(a.mirrored && !a.king_buckets && b.king_buckets);
    assert_eq!(b.w.len(), 4 * a.w.len());
    for (k, block) in b.w.chunks_exact(a.w.len()).enumerate() {
        let moved = block.iter().zip(&a.w).filter(|(x, y)| x != y).count();
        assert!(moved * 1000 <= a.w.len(), "bucket {k}: {moved} of {} weights differ from the start", a.w.len());
    }
    assert_eq!((&b.b, &b.ow, &b.ob), (&a.b, &a.ow, &a.ob));
    let ckpt = Checkpoint::load(&grow.checkpoint).unwrap();
    let l = ckpt.layout();
    assert!(ckpt.params[l.w()].iter().all(|x| x.abs() < 1e-6), "each bucket's own weights start at zero");
    let shared: Vec<i16> = ckpt.params[l.fw()].iter().map(|&x| (x * 255.0).round() as i16).collect();
    assert_eq!(shared, a.w, "the factoriser holds the starting weights");
    let (start, before) = (reports[0].val_loss.unwrap(), trained[2].val_loss.unwrap());
    assert!((start - before).abs() <= 0.02 * before, "{start} vs the starting network's {before}");

    // Refusals: a plain start, a king-bucket start given mirrored inputs, a resumed run.
    let mut p = tiny_config(&bin, &plain, FeatureSet::Plain, 1);
    p.val = Some(0.1);
    quiet(&p).unwrap();
    grow.init = Some(plain.clone());
    let e = quiet(&grow).unwrap_err();
    assert_eq!(e.to_string(), "--features mirrored-kb4 differs from the starting network's feature set plain");
    grow.init = Some(grown.clone());
    grow.features = Some(FeatureSet::Mirrored);
    grow.bucket_decay = None;
    assert!(matches!(quiet(&grow).unwrap_err(), train::TrainError::FeaturesMismatch { .. }));
    cfg.resume = Some(cfg.checkpoint.clone());
    cfg.features = Some(FeatureSet::MirroredKingBuckets);
    cfg.epochs = 4;
    let e = quiet(&cfg).unwrap_err();
    assert_eq!(e.to_string(), "--features mirrored-kb4 differs from the checkpoint's feature set mirrored");
    for f in [txt, bin, first.clone(), grown.clone(), plain.clone()] {
        let _ = std::fs::remove_file(&f);
        let _ = std::fs::remove_file(format!("{f}.ckpt"));
    }
}

/// The trainer's features of a record are the engine's features of the same position
/// (`eval::nnue::for_each_feature`, on which the accumulator's refresh is built), in both
/// feature sets, for positions with each king on either half.
#[test]
fn trainer_features_are_the_engine_s() {
    use horizon::eval::nnue::for_each_feature;
    use horizon::train::network::{features, MAX_ACTIVE};
    let mut mirrored_perspectives = 0;
    let positions = random_positions(1500, 23);
    for board in &positions {
        let raw = Record::from_board(board, 0, 1).to_bytes();
        for set in FeatureSet::ALL {
            let (mut white, mut black) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
            let count = features(&raw, set, &mut white, &mut black);
            for (color, trainer) in [(horizon::Color::White, &white[..count]), (horizon::Color::Black, &black[..count])]
            {
                let mut engine = Vec::new();
                for_each_feature(set, color, |c, p| board.colored(c, p), |f| engine.push(f as u16));
                let mut trainer = trainer.to_vec();
                trainer.sort_unstable();
                engine.sort_unstable();
                assert_eq!(trainer, engine, "{set} {color:?} {}", board.to_fen());
                let plain =
                    horizon::eval::nnue::feature_index(color, color, horizon::Piece::King, board.king_sq(color)) as u16;
                if set == FeatureSet::Mirrored && !engine.contains(&plain) {
                    mirrored_perspectives += 1;
                }
            }
        }
    }
    // Perspectives that were mirrored (the king's feature moved), but far from all.
    assert!(
        mirrored_perspectives > positions.len() / 5 && mirrored_perspectives < positions.len() * 9 / 5,
        "{mirrored_perspectives} of {} perspectives mirrored",
        2 * positions.len()
    );
}

/// A run interrupted after an epoch and resumed from that epoch's checkpoint ends with the
/// very network of the unbroken run: the resumed run replays the random stream.
#[test]
fn a_resumed_run_ends_like_the_unbroken_run() {
    let lines = generated_lines(30, 120, 4);
    let (txt, bin) = (temp_path("resume.txt"), temp_path("resume.bin"));
    write_binary_data(&lines, &txt, &bin);
    let (whole, part, saved) =
        (temp_path("resume-whole.nnue"), temp_path("resume-part.nnue"), temp_path("resume-2.ckpt"));
    let mut cfg = Config::new(vec![bin.clone()], whole.clone());
    cfg.hidden = Some(TINY_HIDDEN);
    cfg.epochs = 4;
    cfg.batch = 128;
    cfg.threads = 2;
    cfg.lr = 0.005;
    cfg.val = Some(0.1);
    cfg.seed = Some(11);
    // The unbroken run, keeping a copy of the checkpoint written after epoch 2.
    let ckpt = cfg.checkpoint.clone();
    let mut line = |s: &str| {
        if s.starts_with("epoch 2/4 ") {
            std::fs::copy(&ckpt, &saved).unwrap();
        }
    };
    train::run(&cfg, &mut Output { line: &mut line, progress: &mut |_| {} }).unwrap();
    // The same run "interrupted" after epoch 2 and resumed.
    let mut resumed = Config::new(vec![bin.clone()], part.clone());
    resumed.epochs = 4;
    resumed.batch = 128;
    resumed.threads = 2;
    resumed.lr = 0.005;
    resumed.resume = Some(saved.clone());
    let reports = train::run(&resumed, &mut Output { line: &mut |_| {}, progress: &mut |_| {} }).unwrap();
    assert_eq!(reports.iter().map(|r| r.epoch).collect::<Vec<_>>(), [3, 4]);
    assert!(std::fs::read(&whole).unwrap() == std::fs::read(&part).unwrap(), "the resumed run's network differs");
    for p in [txt, bin, whole.clone(), format!("{whole}.ckpt"), part.clone(), format!("{part}.ckpt"), saved] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn datagen_format_bin_and_soft_nodes() {
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_horizon")).args(args).output().unwrap();
    let (txt, bin) = (temp_path("dg.txt"), temp_path("dg.bin"));
    let base = ["--games", "2", "--soft-nodes", "200", "--seed", "4"];
    let o = run(&[&["datagen", "--out", &txt][..], &base].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&[&["datagen", "--out", &bin, "--format", "bin"][..], &base].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The same games: every text line is the record's position.
    let text = std::fs::read_to_string(&txt).unwrap();
    let bytes = std::fs::read(&bin).unwrap();
    assert_eq!(bytes.len(), text.lines().count() * RECORD_SIZE);
    for (line, raw) in text.lines().zip(bytes.chunks_exact(RECORD_SIZE)) {
        assert_eq!(record_of_line(line).unwrap().to_bytes(), raw);
    }
    // A hard cap below the soft limit is refused.
    let o = run(&["datagen", "--out", &temp_path("x.txt"), "--games", "1", "--nodes", "100", "--soft-nodes", "200"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("below --soft-nodes"));
    for p in [txt, bin] {
        let _ = std::fs::remove_file(p);
    }
}

/// The quantisation error of a real network: set `HORIZON_CKPT` (a trainer checkpoint) and
/// `HORIZON_DATA` (a binary data file), then
/// `cargo test --release --test train -- --ignored --nocapture quantisation_error`.
#[test]
#[ignore]
fn quantisation_error() {
    let (Ok(ckpt), Ok(data)) = (std::env::var("HORIZON_CKPT"), std::env::var("HORIZON_DATA")) else {
        eprintln!("set HORIZON_CKPT and HORIZON_DATA");
        return;
    };
    let ckpt = Checkpoint::load(&ckpt).unwrap();
    let l = ckpt.layout();
    let spec = decode_spec(&horizon::train::export::network_bytes(&ckpt.params, l));
    let bytes = std::fs::read(&data).unwrap();
    let (mut sum, mut max, mut count, mut sum_abs) = (0.0f64, 0.0f64, 0usize, 0.0f64);
    for raw in bytes.chunks_exact(RECORD_SIZE).take(20_000) {
        let raw: &[u8; 32] = raw.try_into().unwrap();
        let rec = Record::from_bytes(raw).unwrap();
        let Ok(board) = rec.to_board() else { continue };
        let float = eval_cp(&ckpt.params, l, raw, 400.0) as f64;
        let int = spec_eval(&spec, &board) as f64;
        sum += (float - int).abs();
        sum_abs += float.abs();
        max = max.max((float - int).abs());
        count += 1;
    }
    println!(
        "{count} positions: mean |float - int| {:.2} cp, max {:.1} cp, mean |eval| {:.1} cp",
        sum / count as f64,
        max,
        sum_abs / count as f64
    );
}

#[test]
fn convert_reads_text_from_stdin_on_the_command_line() {
    use std::io::Write;
    let lines = generated_lines(2, 150, 21);
    let out = temp_path("stdin.bin");
    let mut child = Command::new(env!("CARGO_BIN_EXE_horizon"))
        .args(["convert", "-", "--out", &out])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = lines.join("\n") + "\n";
    input += &format!("{}\nbroken | line\n", lines[0]);
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    let n = lines.len();
    assert!(err.contains(&format!("skipped line {} of 'stdin': expected", n + 2)), "{err}");
    assert!(err.contains(&format!("read {}, duplicates dropped", n + 1)) && err.contains("skipped 1"), "{err}");
    let size = std::fs::metadata(&out).unwrap().len() as usize;
    assert!(size.is_multiple_of(RECORD_SIZE) && size / RECORD_SIZE < n + 1, "{size} bytes for {n} lines");
    let _ = std::fs::remove_file(out);
}

/// `convert` and `train` read their arguments like every subcommand: one line, exit code 2.
#[test]
fn bad_arguments_are_one_line_with_exit_code_2() {
    for (args, want) in [
        (
            &["train", "a.bin", "--out", "n.nnue", "--hidden", "100"][..],
            "error: --hidden must be a multiple of 16 from 16 to 4096, got '100'\n",
        ),
        (
            &["train", "a.bin", "--out", "n.nnue", "--lambda", "1.5"][..],
            "error: --lambda must be a number from 0 to 1, got '1.5'\n",
        ),
        (
            &["train", "a.bin", "--out", "n.nnue", "--wdl-scale", "fitted"][..],
            "error: --wdl-scale must be 'fit' or a number from 1 to 10000, got 'fitted'\n",
        ),
        (
            &["train", "a.bin", "--out", "n.nnue", "--threads", "0"][..],
            "error: --threads must be a whole number from 1 to 256, got '0'\n",
        ),
        (&["train", "a.bin"][..], "error: --out NET is required\n"),
        (
            &["train", "a.bin", "--out", "n.nnue", "--lr-final", "0"][..],
            "error: --lr-final must be a number from 0.000001 to 1, got '0'\n",
        ),
        (
            &["train", "a.bin", "--out", "n.nnue", "--weight-decay", "-1"][..],
            "error: --weight-decay must be a number from 0 to 100, got '-1'\n",
        ),
        (
            &["train", "a.bin", "--out", "n.nnue", "--features", "mirrored", "--bucket-decay", "1"][..],
            "error: --bucket-decay needs a feature set with king buckets, and mirrored has none\n",
        ),
        (
            &["train", "a.bin", "--out", "n.nnue", "--features", "sideways"][..],
            "error: --features must be 'plain', 'mirrored' or 'mirrored-kb4', got 'sideways'\n",
        ),
        (
            &["convert", "a.txt", "--out", "b.bin", "--dedup", "--no-dedup"][..],
            "error: --dedup and --no-dedup exclude each other\n",
        ),
        (
            &["convert", "a.txt", "--out", "b.bin", "--to", "csv"][..],
            "error: --to must be 'bin' or 'text', got 'csv'\n",
        ),
        (&["convert", "a.txt", "--out", "b.bin", "--frobnicate"][..], "error: unknown option '--frobnicate'\n"),
        (
            &["datagen", "--out", "x.txt", "--games", "1", "--format", "csv"][..],
            "error: --format must be 'text' or 'bin', got 'csv'\n",
        ),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_horizon")).args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), want, "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

/// Records of the start position whose results follow `sigmoid(score / k)`: scores spread
/// over ±1000 cp, each result a win or a loss drawn with that probability.
fn records_with_scale(count: usize, k: f64, seed: u64) -> Vec<RawRecord> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let score: i32 = rng.gen_range(-1000..=1000);
            let p_win = 1.0 / (1.0 + (-(score as f64) / k).exp());
            let result = if rng.gen_bool(p_win) { 2 } else { 0 };
            Record::from_board(&Board::startpos(), score, result).to_bytes()
        })
        .collect()
}

#[test]
fn fitted_wdl_scale_finds_the_scale_of_the_results() {
    use horizon::train::network::fit_wdl_scale;
    for k in [150.0, 400.0] {
        let (fit, mse) = fit_wdl_scale(&records_with_scale(100_000, k, 7)).unwrap();
        assert!((fit as f64 - k).abs() < 0.08 * k, "fitted {fit} for results drawn at scale {k}");
        assert!(mse > 0.0 && mse < 0.25, "{mse}");
    }
    assert_eq!(fit_wdl_scale(&[]), None);
}

/// The loss and the gradient of the output bias for one network with one output bucket and
/// one record.
fn loss_and_bias_gradient(params: &[f32], n: usize, raw: &RawRecord, spec: LossSpec) -> (f64, f32) {
    let mut grad = vec![0.0; params.len()];
    let l = Layout::single(n);
    let loss = run_slice(params, l, std::slice::from_ref(raw), spec, Some(&mut grad), &mut Scratch::new(n));
    (loss, grad[l.ob().start])
}

#[test]
fn the_wdl_scale_changes_the_loss_but_not_the_centipawn_scale_of_the_output() {
    // A network whose weights are all zero outputs its bias: out · SCALE centipawns. With
    // the target from the score alone (lambda 0), the loss is lowest when out · SCALE is the
    // score, whatever the scale.
    let n = 16;
    let raw = Record::from_board(&Board::startpos(), 240, 1).to_bytes();
    let ob = Layout::single(n).ob().start;
    let mut params = vec![0.0f32; Layout::single(n).param_count()];
    for wdl_scale in [150.0, 400.0, 1000.0] {
        let spec = LossSpec { lambda: 0.0, wdl_scale };
        params[ob] = 240.0 / horizon::eval::nnue::SCALE as f32;
        let (loss, g) = loss_and_bias_gradient(&params, n, &raw, spec);
        assert!(loss < 1e-12 && g.abs() < 1e-6, "scale {wdl_scale}: loss {loss}, gradient {g}");
        // Off the optimum the analytic gradient matches a central difference.
        for out_cp in [-300.0f32, 100.0, 700.0] {
            let h = 1e-3f32;
            let bias = out_cp / horizon::eval::nnue::SCALE as f32;
            params[ob] = bias + h;
            let (up, _) = loss_and_bias_gradient(&params, n, &raw, spec);
            params[ob] = bias - h;
            let (down, _) = loss_and_bias_gradient(&params, n, &raw, spec);
            params[ob] = bias;
            let (_, g) = loss_and_bias_gradient(&params, n, &raw, spec);
            let numeric = ((up - down) / (2.0 * h as f64)) as f32;
            assert!(g.signum() == (bias * 400.0 - 240.0).signum(), "scale {wdl_scale}, {out_cp} cp: gradient {g}");
            assert!(
                (g - numeric).abs() <= 0.02 * numeric.abs() + 1e-6,
                "scale {wdl_scale}, {out_cp} cp: {g} vs {numeric}"
            );
        }
    }
}

#[test]
fn train_fits_the_wdl_scale_when_asked() {
    let data = temp_path("wdl-fit.bin");
    let bytes: Vec<u8> = records_with_scale(20_000, 200.0, 3).concat();
    std::fs::write(&data, bytes).unwrap();
    let net = temp_path("wdl-fit.nnue");
    let out = Command::new(env!("CARGO_BIN_EXE_horizon"))
        .args([
            "train",
            &data,
            "--out",
            &net,
            "--hidden",
            "16",
            "--epochs",
            "1",
            "--threads",
            "1",
            "--wdl-scale",
            "fit",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.starts_with("wdl scale fitted")).unwrap_or_else(|| panic!("{text}"));
    let k: f64 = line.split(": ").nth(1).and_then(|s| s.split(' ').next()).and_then(|s| s.parse().ok()).unwrap();
    assert!((170.0..230.0).contains(&k), "{line}");
    // The run trains with the fitted scale.
    let setup = text.lines().find(|l| l.starts_with("network ")).unwrap_or_else(|| panic!("{text}"));
    let used: f64 =
        setup.split("wdl scale ").nth(1).and_then(|s| s.split(',').next()).and_then(|s| s.parse().ok()).unwrap();
    assert!((used - k).abs() < 0.1, "{setup}");
    for f in [data, net.clone(), format!("{net}.ckpt")] {
        let _ = std::fs::remove_file(f);
    }
}

/// With output buckets, a position's gradient reaches only its own bucket's output weights
/// and bias, and matches a central difference there.
#[test]
fn output_bucket_gradients_go_to_the_position_s_bucket() {
    let (n, buckets) = (16, 8);
    let l = Layout::new(n, buckets, FeatureSet::Plain);
    let mut rng = SmallRng::seed_from_u64(21);
    let mut params: Vec<f32> = (0..l.param_count()).map(|_| rng.gen_range(-0.3f32..0.3)).collect();
    let spec = LossSpec { lambda: 0.0, wdl_scale: 400.0 };
    // 32 pieces: bucket 7; 3 pieces: bucket 0; 11 pieces: (11 − 2) · 8 / 32 = 2.
    for (fen, bucket) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 7),
        ("8/8/4k3/8/8/3K4/4P3/8 b - - 0 1", 0),
        ("r3k3/pp3p2/8/8/8/8/PP3P2/R2QK3 w - - 0 1", 2),
    ] {
        let raw = Record::from_board(&Board::from_fen(fen).unwrap(), 120, 2).to_bytes();
        let loss_grad = |params: &[f32]| {
            let mut grad = vec![0.0; params.len()];
            let loss = run_slice(params, l, std::slice::from_ref(&raw), spec, Some(&mut grad), &mut Scratch::new(n));
            (loss, grad)
        };
        let (_, grad) = loss_grad(&params);
        for k in 0..buckets {
            let touched = grad[l.ow_of(k)].iter().any(|&g| g != 0.0) || grad[l.ob().start + k] != 0.0;
            assert_eq!(touched, k == bucket, "{fen}: bucket {k}");
        }
        // Central differences of the bucket's bias and one of its weights.
        for at in [l.ob().start + bucket, l.ow_of(bucket).start + 5, l.ow_of(bucket).start + n + 2] {
            let numeric = central_difference(&mut params, at, |p| loss_grad(p).0);
            assert!(
                (grad[at] - numeric).abs() <= 0.02 * numeric.abs() + 1e-6,
                "{fen} at {at}: {} vs {numeric}",
                grad[at]
            );
        }
    }
}

/// With king buckets, a position's gradient reaches its active features' rows in their
/// buckets' blocks and in the factoriser, and matches central differences in both.
#[test]
fn factoriser_gradients_match_central_differences() {
    use horizon::train::network::{features, MAX_ACTIVE};
    let n = 16;
    let l = Layout::new(n, 2, FeatureSet::MirroredKingBuckets);
    assert!(l.factoriser);
    let mut rng = SmallRng::seed_from_u64(22);
    let mut params: Vec<f32> = (0..l.param_count()).map(|_| rng.gen_range(-0.3f32..0.3)).collect();
    let spec = LossSpec { lambda: 0.0, wdl_scale: 400.0 };
    // White's king on the second rank (bucket 2), Black's on its back rank at c8 (bucket 1).
    let raw =
        Record::from_board(&Board::from_fen("2k5/pp3p2/8/8/8/8/PP3PK1/R2Q4 w - - 0 1").unwrap(), 120, 2).to_bytes();
    let loss_grad = |params: &[f32]| {
        let mut grad = vec![0.0; params.len()];
        let loss = run_slice(params, l, std::slice::from_ref(&raw), spec, Some(&mut grad), &mut Scratch::new(n));
        (loss, grad)
    };
    let (_, grad) = loss_grad(&params);
    let (mut white, mut black) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
    let count = features(&raw, FeatureSet::MirroredKingBuckets, &mut white, &mut black);
    assert!(white[..count].iter().all(|&f| (1536..2304).contains(&f)), "White's king bucket 2");
    assert!(black[..count].iter().all(|&f| (768..1536).contains(&f)), "Black's king bucket 1");
    let (w, b) = (white[0] as usize, black[0] as usize);
    for row in [w * n, b * n, l.fw().start + (w % 768) * n, l.fw().start + (b % 768) * n] {
        // A neuron of the row that is live for this position (some are clipped to 0 or 1).
        let at = row + (0..n).find(|&j| grad[row + j] != 0.0).unwrap_or_else(|| panic!("row {row}: no gradient"));
        let numeric = central_difference(&mut params, at, |p| loss_grad(p).0);
        assert!((grad[at] - numeric).abs() <= 0.02 * numeric.abs() + 1e-6, "at {at}: {} vs {numeric}", grad[at]);
    }
    // Blocks of buckets no king stands in get nothing.
    assert!(grad[0..768 * n].iter().all(|&g| g == 0.0));
    assert!(grad[2304 * n..3072 * n].iter().all(|&g| g == 0.0));
}

/// The central difference of `loss` in parameter `at` (a step of 0.01 each way), `params`
/// left as it was.
fn central_difference(params: &mut [f32], at: usize, loss: impl Fn(&[f32]) -> f64) -> f32 {
    let h = 1e-2f32;
    let keep = params[at];
    params[at] = keep + h;
    let up = loss(params);
    params[at] = keep - h;
    let down = loss(params);
    params[at] = keep;
    ((up - down) / (2.0 * h as f64)) as f32
}
