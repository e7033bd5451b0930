//! Generates the attack tables at build time and writes them to `OUT_DIR/tables.rs`:
//! rook and bishop magics (searched with a fixed seed, so the output is deterministic) with
//! their shared attack table, knight/king/pawn attacks, between/line tables and Zobrist keys.
//! Every table is checked against the slow reference before it is written.

use std::fmt::Write as _;
use std::time::Instant;

#[path = "src/tables/gen.rs"]
mod gen;

use gen::*;

fn write_array(out: &mut String, name: &str, ty: &str, values: &[u64]) {
    writeln!(out, "pub static {name}: [{ty}; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    let start = Instant::now();
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/tables/gen.rs");

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = String::with_capacity(4 << 20);
    let mut slider_table: Vec<u64> = Vec::new();

    for (name, dirs) in [("ROOK_MAGICS", &ROOK_DIRS), ("BISHOP_MAGICS", &BISHOP_DIRS)] {
        writeln!(out, "pub static {name}: [Magic; 64] = [").unwrap();
        for sq in 0..64 {
            let (magic, shift, table) = find_magic(sq, dirs, &mut rng);
            let mask = slider_mask(sq, dirs);
            let offset = slider_table.len();
            // Verify: every blocker subset (and any superset of outside bits) maps to the
            // reference attack set.
            for occ in subsets(mask) {
                let idx = magic_index(occ, mask, magic, shift);
                assert_eq!(table[idx], slider_attacks(sq, occ, dirs), "bad magic on square {sq}");
            }
            slider_table.extend_from_slice(&table);
            writeln!(out, "    Magic {{ mask: {mask:#x}, magic: {magic:#x}, shift: {shift}, offset: {offset} }},")
                .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    write_array(&mut out, "SLIDER_ATTACKS", "u64", &slider_table);

    let knight: Vec<u64> = (0..64).map(knight_attacks).collect();
    let king: Vec<u64> = (0..64).map(king_attacks).collect();
    let pawn: Vec<u64> = (0..2).flat_map(|c| (0..64).map(move |s| pawn_attacks(c, s))).collect();
    let rook_rays: Vec<u64> = (0..64).map(|s| slider_attacks(s, 0, &ROOK_DIRS)).collect();
    let bishop_rays: Vec<u64> = (0..64).map(|s| slider_attacks(s, 0, &BISHOP_DIRS)).collect();
    write_array(&mut out, "ROOK_RAYS", "u64", &rook_rays);
    write_array(&mut out, "BISHOP_RAYS", "u64", &bishop_rays);
    write_array(&mut out, "KNIGHT_ATTACKS", "u64", &knight);
    write_array(&mut out, "KING_ATTACKS", "u64", &king);
    write_array(&mut out, "PAWN_ATTACKS_FLAT", "u64", &pawn);
    let betw: Vec<u64> = (0..64).flat_map(|a| (0..64).map(move |b| between(a, b))).collect();
    let line_t: Vec<u64> = (0..64).flat_map(|a| (0..64).map(move |b| line(a, b))).collect();
    write_array(&mut out, "BETWEEN_FLAT", "u64", &betw);
    write_array(&mut out, "LINE_FLAT", "u64", &line_t);

    // Zobrist keys: 2 colours x 6 pieces x 64 squares, then side, 16 castling, 8 ep files.
    let mut zrng = Rng(0x0123_4567_89AB_CDEF);
    let zob: Vec<u64> = (0..2 * 6 * 64 + 1 + 16 + 8).map(|_| zrng.next_u64()).collect();
    write_array(&mut out, "ZOBRIST_FLAT", "u64", &zob);

    let dest = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("tables.rs");
    std::fs::write(&dest, out).unwrap();
    emit_commit();
    eprintln!("horizon build.rs: tables generated in {:?}", start.elapsed());
}

/// Files whose uncommitted changes make a build differ from its commit: a binary built with
/// any of them changed is named `<commit>-dirty`.
const BUILD_INPUTS: [&str; 4] = ["src", "build.rs", "Cargo.toml", "Cargo.lock"];

/// Sets `HORIZON_COMMIT` to the checkout's short commit hash (`unknown` outside a git
/// checkout or without git), with `-dirty` when a build input differs from that commit, for
/// `id name` and `--version`, and asks cargo to run this script again when the checked-out
/// commit moves or a build input changes.
fn emit_commit() {
    let git = |args: &[&str]| -> Option<(bool, String)> {
        let out = std::process::Command::new("git").args(args).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        Some((out.status.success(), text.trim().to_string()))
    };
    let value = |args: &[&str]| git(args).and_then(|(ok, text)| (ok && !text.is_empty()).then_some(text));
    let commit = match value(&["rev-parse", "--short=7", "HEAD"]) {
        Some(hash) => {
            // `--no-optional-locks`: status must not rewrite the index, which is watched below.
            let mut status = vec!["--no-optional-locks", "status", "--porcelain", "--untracked-files=no", "--"];
            status.extend(BUILD_INPUTS);
            match git(&status) {
                Some((true, changes)) if changes.is_empty() => hash,
                _ => format!("{hash}-dirty"),
            }
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=HORIZON_COMMIT={commit}");
    // HEAD names the branch; the branch's ref file (or packed-refs) moves with each commit.
    // Only files that exist are watched: cargo would rerun on every build for a missing one.
    let mut watched: Vec<String> = BUILD_INPUTS.iter().map(|p| p.to_string()).collect();
    if let Some(dir) = value(&["rev-parse", "--git-dir"]) {
        watched.push(format!("{dir}/HEAD"));
        if let Some(branch) = value(&["symbolic-ref", "-q", "HEAD"]) {
            if let Some(common) = value(&["rev-parse", "--git-common-dir"]) {
                watched.push(format!("{common}/{branch}"));
                watched.push(format!("{common}/packed-refs"));
            }
        }
    }
    for path in watched.iter().filter(|p| std::path::Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={path}");
    }
}
