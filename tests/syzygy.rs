//! The Syzygy prober against an independent oracle (python-chess on the same tables), known
//! endgame facts, damaged files, and root ranking.

use horizon::search::tt::TranspositionTable;
use horizon::search::{Control, Limits, Options, Score, Searcher, Silent};
use horizon::syzygy::{Material, Tablebases, Wdl};
use horizon::{Board, Color, Piece};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

mod common;
use common::{board, table_dir, tables};

fn wdl(fen: &str) -> Wdl {
    tables().probe_wdl(&mut board(fen)).unwrap_or_else(|| panic!("no WDL for {fen}"))
}

fn dtz(fen: &str) -> i32 {
    tables().probe_dtz(&mut board(fen)).unwrap_or_else(|| panic!("no DTZ for {fen}"))
}

/// Every position of the oracle file: WDL exactly, and DTZ exactly. Both programs compute
/// the DTZ the format defines (plies to the next zeroing move with the tables' rounding:
/// where a table stores moves, the value may be one ply longer than the true distance);
/// the rounding is the tables', so two correct readers agree to the ply.
#[test]
fn matches_python_chess_on_random_positions() {
    let path = table_dir().join("oracle.csv");
    let text = std::fs::read_to_string(&path).expect("oracle.csv");
    let mut checked = 0;
    let mut ep = 0;
    let mut wrong = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let f: Vec<&str> = line.split(',').collect();
        let (fen, want_wdl, want_dtz): (&str, i32, i32) = (f[0], f[1].parse().unwrap(), f[2].parse().unwrap());
        let mut b = board(fen);
        ep += b.ep_square().is_some() as usize;
        let got_wdl = tables().probe_wdl(&mut b).map(|w| w.value());
        let got_dtz = tables().probe_dtz(&mut b);
        assert_eq!(b.to_fen(), board(fen).to_fen(), "the probe must leave the board as it was");
        if got_wdl != Some(want_wdl) || got_dtz != Some(want_dtz) {
            wrong.push(format!("{fen}: wdl {got_wdl:?} (want {want_wdl}), dtz {got_dtz:?} (want {want_dtz})"));
        }
        checked += 1;
    }
    assert!(checked >= 4000, "only {checked} positions");
    assert!(ep >= 50, "only {ep} en passant positions");
    assert!(wrong.is_empty(), "{} of {checked} differ:\n{}", wrong.len(), wrong[..wrong.len().min(20)].join("\n"));
}

/// Every legal placement of `white` (beside the white king) against a lone black king,
/// with `side` to move.
fn all_placements(piece: Piece, side: Color) -> Vec<Board> {
    let mut out = Vec::new();
    for wk in 0..64 {
        for p in 0..64 {
            for bk in 0..64 {
                if wk == p || wk == bk || p == bk {
                    continue;
                }
                let mut rows = [['1'; 8]; 8];
                rows[wk / 8][wk % 8] = 'K';
                rows[p / 8][p % 8] = piece.char().to_ascii_uppercase();
                rows[bk / 8][bk % 8] = 'k';
                let placement: Vec<String> = (0..8).rev().map(|r| rows[r].iter().collect()).collect();
                let fen = |c: char| format!("{} {c} - - 0 1", placement.join("/"));
                // The parser refuses positions whose side not to move is in check.
                let Ok(b) = Board::from_fen(&fen(if side == Color::White { 'w' } else { 'b' })) else { continue };
                let (wf, wr, bf, br) = (wk % 8, wk / 8, bk % 8, bk / 8);
                if wf.abs_diff(bf) <= 1 && wr.abs_diff(br) <= 1 {
                    continue;
                }
                out.push(b);
            }
        }
    }
    out
}

/// KB v K and KN v K are draws in every position, whoever is to move.
#[test]
fn lone_minor_pieces_are_draws_everywhere() {
    for piece in [Piece::Bishop, Piece::Knight] {
        for side in Color::ALL {
            let boards = all_placements(piece, side);
            assert!(boards.len() > 20000);
            for mut b in boards {
                assert_eq!(tables().probe_wdl(&mut b), Some(Wdl::Draw), "{}", b.to_fen());
                assert_eq!(tables().probe_dtz(&mut b), Some(0), "{}", b.to_fen());
            }
        }
    }
}

/// KQ v K and KR v K: won for the stronger side to move everywhere; with the lone king to
/// move, lost unless it can take the piece (unprotected next to it) or is stalemated.
#[test]
fn queen_and_rook_win_unless_taken_or_stalemate() {
    for piece in [Piece::Queen, Piece::Rook] {
        for mut b in all_placements(piece, Color::White) {
            assert_eq!(tables().probe_wdl(&mut b), Some(Wdl::Win), "{}", b.to_fen());
            assert!(tables().probe_dtz(&mut b).unwrap() > 0, "{}", b.to_fen());
        }
        let (mut taken, mut stalemates) = (0, 0);
        for mut b in all_placements(piece, Color::Black) {
            let moves = b.legal_moves();
            let can_take = moves.iter().any(|&m| b.captured_piece(m).is_some());
            let stalemate = moves.is_empty() && !b.in_check();
            let want = if can_take || stalemate { Wdl::Draw } else { Wdl::Loss };
            taken += can_take as usize;
            stalemates += stalemate as usize;
            assert_eq!(tables().probe_wdl(&mut b), Some(want), "{}", b.to_fen());
            let dtz = tables().probe_dtz(&mut b).unwrap();
            assert_eq!(dtz.signum(), want.value().signum(), "{} dtz {dtz}", b.to_fen());
        }
        assert!(taken > 100 && stalemates > 10, "{piece:?}: {taken} captures, {stalemates} stalemates");
    }
}

/// Named positions: mate, stalemate, captures, en passant, and DTZ values.
#[test]
fn known_positions() {
    assert_eq!(wdl("k7/8/1K6/8/8/8/8/R7 b - - 0 1"), Wdl::Loss); // mated
    assert_eq!(wdl("k7/8/KR6/8/8/8/8/8 b - - 0 1"), Wdl::Draw); // stalemate
    assert_eq!(wdl("8/8/8/8/8/8/3Q4/K2k4 b - - 0 1"), Wdl::Draw); // takes the queen
    assert_eq!(wdl("8/8/8/8/8/8/1Q6/K1k5 b - - 0 1"), Wdl::Loss); // queen protected
    assert_eq!(wdl("8/8/4k3/8/8/8/8/K1BN4 w - - 0 1"), Wdl::Win);
    assert_eq!(dtz("8/8/4k3/8/8/8/8/K1BN4 w - - 0 1"), 58);
    assert_eq!(wdl("8/8/4k3/8/8/8/8/K1BN4 b - - 0 1"), Wdl::Loss);
    // En passant: black's only saving move is to take en passant (without the right,
    // white's pawn queens first); the tables store positions without the right.
    assert_eq!(wdl("8/8/8/8/5Pp1/8/7K/k7 b - f3 0 1"), Wdl::Draw);
    assert_eq!(wdl("8/8/8/8/5Pp1/8/7K/k7 b - - 0 1"), Wdl::Loss);
    assert_eq!(dtz("8/8/8/8/5Pp1/8/7K/k7 b - - 0 1"), -1);
    // KvK is a draw without a table.
    assert_eq!(wdl("8/8/4k3/8/8/8/8/K7 w - - 0 1"), Wdl::Draw);
    // Castling rights and too many pieces are not covered.
    assert_eq!(tables().probe_wdl(&mut board("r3k3/8/8/8/8/8/8/4K3 w q - 0 1")), None);
    assert_eq!(tables().probe_wdl(&mut board("4k3/8/8/8/8/8/8/RN2K2R w - - 0 1")), None);
}

/// The 3-4 piece tables hold no cursed win (every win there is won well within fifty
/// moves), so the fifty-move rule is tested through the clock: a win whose DTZ no longer
/// fits before the clock reaches 100 plies ranks as "the rule may void it" (outcome 1),
/// and the search shows it as a draw-ish +1 with Syzygy50MoveRule on, as a win with it off.
#[test]
fn a_win_too_late_for_the_clock_is_cursed_by_the_rule() {
    let fen = |clock: u32| format!("8/8/4k3/8/8/8/8/K1BN4 w - - {clock} 80");
    let r = tables().rank_root(&mut board(&fen(0)), true).unwrap();
    assert!(r.by_dtz && r.moves[0].outcome() == 2 && r.moves[0].dtz == Some(58));
    let r = tables().rank_root(&mut board(&fen(60)), true).unwrap();
    assert_eq!(r.moves[0].outcome(), 1);
    assert_eq!(r.best_moves().len(), 2, "only the shortest wins are kept: {:?}", r.moves);
    for (rule50, want) in [(true, Score::Cp(1)), (false, Score::Cp(29999))] {
        let mut s = searcher(rule50);
        let mut rep = horizon_reports::Keep::default();
        let res = s.search(&board(&fen(60)), Limits { depth: Some(3), ..Default::default() }, &mut rep);
        assert_eq!(rep.0.last().unwrap().score, want);
        assert!(r.best_moves().contains(&res.best));
    }
}

/// MultiPV beyond the moves the tables let the root play (KQ v KR: two least-DTZ wins, the
/// other sure wins count only as mates) must end its lines, not re-search the empty third
/// line forever: every depth completes with the lines there are, each a least-DTZ win.
#[test]
fn multipv_beyond_the_playable_tablebase_moves_completes_its_depths() {
    let fen = "8/8/k7/5Q2/1r6/5K2/8/8 w - - 0 1";
    let ranking = tables().rank_root(&mut board(fen), true).unwrap();
    let fastest = ranking.fastest_moves();
    assert!(fastest.len() < 3 && ranking.best_moves().len() > 3, "{:?}", ranking.moves);
    let mut s = searcher(true);
    let mut rep = horizon_reports::Keep::default();
    let limits = Limits { depth: Some(6), multipv: 3, nodes: Some(3_000_000), ..Default::default() };
    let res = s.search(&board(fen), limits, &mut rep);
    assert_eq!(res.depth, 6, "stopped at depth {} after {} nodes", res.depth, res.stats.nodes);
    let last: Vec<_> = rep.0.iter().filter(|r| r.depth == 6).collect();
    assert_eq!(last.len(), fastest.len(), "{last:?}");
    assert!(last.iter().all(|r| r.score == Score::Cp(29999) && fastest.contains(&r.pv[0])), "{last:?}");
    assert!(fastest.contains(&res.best));
}

mod horizon_reports {
    use horizon::search::{Report, Reporter};
    #[derive(Default)]
    pub struct Keep(pub Vec<Report>);
    impl Reporter for Keep {
        fn report(&mut self, r: &Report) {
            self.0.push(r.clone());
        }
    }
}

fn searcher(rule50: bool) -> Searcher {
    let mut s = Searcher::new(Arc::new(TranspositionTable::new(8)), Arc::new(Control::default()));
    let (tb, _) = Tablebases::open(table_dir().to_str().unwrap());
    s.set_tablebases(Some(Arc::new(tb)));
    s.set_options(Options { tb_rule50: rule50, ..Options::default() });
    s
}

// ---- damaged files -----------------------------------------------------------------------

/// A fresh directory under the target folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("syzygy-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy(name: &str, to: &Path) {
    std::fs::copy(table_dir().join(name), to.join(name)).unwrap();
}

fn open(dir: &Path) -> (Tablebases, Vec<String>) {
    Tablebases::open(dir.to_str().unwrap())
}

const KQK: &str = "8/8/4k3/8/8/8/8/KQ6 w - - 0 1";

#[test]
fn a_missing_directory_is_reported_and_the_others_used() {
    let path = format!("/no/such/dir{}{}", horizon::syzygy::PATH_SEPARATOR, table_dir().display());
    let (tb, errors) = Tablebases::open(&path);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("syzygy: cannot read directory '/no/such/dir'"), "{errors:?}");
    assert_eq!((tb.count(), tb.max_pieces()), (35, 4));
}

#[test]
fn a_wdl_table_without_dtz_gives_wdl_only() {
    let dir = scratch("no-dtz");
    copy("KQvK.rtbw", &dir);
    let (tb, errors) = open(&dir);
    assert_eq!(errors, vec!["syzygy: KQvK.rtbw has no KQvK.rtbz beside it: WDL only for this table".to_string()]);
    let mut b = board(KQK);
    assert_eq!(tb.probe_wdl(&mut b), Some(Wdl::Win));
    assert_eq!(tb.probe_dtz(&mut b), None);
    let r = tb.rank_root(&mut b, true).unwrap();
    assert!(!r.by_dtz && r.moves[0].wdl == Wdl::Win && r.moves[0].dtz.is_none());
}

#[test]
fn an_empty_file_is_reported_and_left_out() {
    let dir = scratch("empty");
    copy("KQvK.rtbz", &dir);
    std::fs::write(dir.join("KQvK.rtbw"), b"").unwrap();
    let (tb, errors) = open(&dir);
    assert!(errors.iter().any(|e| e.ends_with("KQvK.rtbw: empty file")), "{errors:?}");
    assert_eq!(tb.count(), 0);
    assert_eq!(tb.probe_wdl(&mut board(KQK)), None);
}

#[test]
fn a_wrong_magic_number_is_reported_and_left_out() {
    let dir = scratch("magic");
    std::fs::copy(table_dir().join("KQvK.rtbz"), dir.join("KQvK.rtbw")).unwrap();
    copy("KQvK.rtbz", &dir);
    let (tb, errors) = open(&dir);
    assert!(
        errors.iter().any(|e| e.ends_with("KQvK.rtbw: wrong magic number (not a Syzygy .rtbw file)")),
        "{errors:?}"
    );
    assert_eq!(tb.count(), 0);
}

#[test]
fn a_truncated_file_is_reported_once_when_first_loaded() {
    let dir = scratch("truncated");
    let full = std::fs::read(table_dir().join("KRvK.rtbw")).unwrap();
    std::fs::write(dir.join("KRvK.rtbw"), &full[..full.len() / 2]).unwrap();
    copy("KRvK.rtbz", &dir);
    let (tb, errors) = open(&dir);
    assert!(errors.is_empty(), "{errors:?}");
    let mut b = board("8/8/4k3/8/8/8/8/KR6 w - - 0 1");
    assert_eq!(tb.probe_wdl(&mut b), None);
    assert_eq!(tb.probe_wdl(&mut b), None);
    let late = tb.take_errors();
    assert_eq!(late.len(), 1, "{late:?}");
    assert!(late[0].contains("KRvK.rtbw: truncated: the header describes"), "{late:?}");
    assert!(tb.take_errors().is_empty(), "reported once");
}

#[test]
fn a_garbled_header_is_reported() {
    let mut bytes = std::fs::read(table_dir().join("KRvKN.rtbw")).unwrap();
    bytes[4] ^= 2; // the "has pawns" flag
    let (tb, errors) = Tablebases::from_bytes(Material::parse("KRvKN").unwrap(), bytes, None);
    assert_eq!(errors.len(), 1);
    assert!(errors[0].contains("header disagrees with the file name about pawns"), "{errors:?}");
    assert_eq!(tb.probe_wdl(&mut board("8/8/4k3/8/8/2n5/8/KR6 w - - 0 1")), None);
}

/// Damage anywhere in a file: every probe returns a value in range or "unknown", and
/// never panics or hangs. (Damage inside the compressed data cannot be told from good
/// data without the published checksums, so a value may be wrong; only its range is
/// checked.)
#[test]
fn random_damage_never_panics() {
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let oracle = std::fs::read_to_string(table_dir().join("oracle.csv")).unwrap();
    for name in ["KRvKN", "KPvKP", "KBNvK", "KQvKR"] {
        let m = Material::parse(name).unwrap();
        let fens: Vec<&str> = oracle
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split(',').next().unwrap())
            .filter(|f| Material::of(&board(f)) == m || Material::of(&board(f)) == m.flipped())
            .take(30)
            .collect();
        assert!(!fens.is_empty());
        let wdl = std::fs::read(table_dir().join(format!("{name}.rtbw"))).unwrap();
        let dtz = std::fs::read(table_dir().join(format!("{name}.rtbz"))).unwrap();
        for round in 0..150 {
            let (mut w, mut z) = (wdl.clone(), dtz.clone());
            // Early rounds hit the headers, later ones anywhere.
            let span = |len: usize| if round < 100 { len.min(256) } else { len };
            for _ in 0..1 + next() % 8 {
                let i = next() as usize % span(w.len());
                w[i] = next() as u8;
                let j = next() as usize % span(z.len());
                z[j] = next() as u8;
            }
            if round % 10 == 0 {
                let cut = next() as usize % w.len();
                w.truncate(cut);
            }
            let (tb, _) = Tablebases::from_bytes(m, w, Some(z));
            for f in &fens {
                let mut b = board(f);
                if let Some(v) = tb.probe_wdl(&mut b) {
                    assert!((-2..=2).contains(&v.value()));
                }
                if let Some(d) = tb.probe_dtz(&mut b) {
                    assert!(d.abs() < 1 << 20);
                }
                assert_eq!(b.to_fen(), board(f).to_fen());
            }
        }
    }
}

// ---- the command line and UCI ------------------------------------------------------------

fn horizon(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_horizon")).args(args).output().unwrap()
}

#[test]
fn tb_command_prints_wdl_dtz_and_ranked_moves() {
    let dir = table_dir();
    let o = horizon(&["tb", "8/8/4k3/8/8/8/8/K1BN4 w - - 0 1", "--path", dir.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("wdl    win (2)\n") && out.contains("dtz    58\n"), "{out}");
    assert!(out.lines().any(|l| l.contains("Kb2") && l.contains("dtz    58") && l.ends_with("best")), "{out}");
    for (args, needle) in [
        (vec!["tb", "not a fen", "--path", dir.to_str().unwrap()], "error: "),
        (
            vec!["tb", KQK, "--path", "/no/such/dir"],
            "error: no Syzygy tables found in '/no/such/dir' (syzygy: cannot read",
        ),
        (vec!["tb", KQK], "error: tb needs --path"),
        (vec!["tb", "4k3/8/8/8/8/8/8/RN2K2R w - - 0 1", "--path", dir.to_str().unwrap()], "has 5 pieces"),
    ] {
        let o = horizon(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn uci_options_info_strings_and_tbhits() {
    use std::io::Write;
    let dir = table_dir();
    let mut child = Command::new(env!("CARGO_BIN_EXE_horizon"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!(
        "uci\nsetoption name SyzygyPath value /no/such/dir\nsetoption name SyzygyPath value {}\n\
         setoption name SyzygyProbeDepth value 0\nsetoption name SyzygyProbeLimit value 5\n\
         position fen 8/8/4k3/8/8/8/8/K1BN4 w - - 0 1\ngo nodes 3000\nisready\n",
        dir.display()
    );
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    // Wait for the search to end before closing input (end of input stops a search).
    let out = {
        use std::io::BufRead;
        let stdout = child.stdout.take().unwrap();
        let mut lines = Vec::new();
        for l in std::io::BufReader::new(stdout).lines() {
            let l = l.unwrap();
            let done = l.starts_with("bestmove");
            lines.push(l);
            if done {
                break;
            }
        }
        stdin.write_all(b"quit\n").unwrap();
        lines
    };
    let _ = child.wait();
    let has = |s: &str| out.iter().any(|l| l.contains(s));
    assert!(has("option name SyzygyPath type string default <empty>"), "{out:?}");
    assert!(has("option name SyzygyProbeDepth type spin default 1 min 1 max 100"));
    assert!(has("option name Syzygy50MoveRule type check default true"));
    assert!(has("option name SyzygyProbeLimit type spin default 7 min 0 max 7"));
    assert!(has("info string error: syzygy: cannot read directory '/no/such/dir'"), "{out:?}");
    assert!(has("info string syzygy: 35 tables found (35 with DTZ), largest 4 pieces"), "{out:?}");
    assert!(has("info string error: option 'SyzygyProbeDepth': 0 is out of range 1..100"), "{out:?}");
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty() && infos.iter().all(|l| l.contains(" tbhits ")), "{out:?}");
    assert!(infos.last().unwrap().contains("score cp 29999"), "{out:?}");
    let best = out.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    let ranking = tables().rank_root(&mut board("8/8/4k3/8/8/8/8/K1BN4 w - - 0 1"), true).unwrap();
    assert!(ranking.best_moves().iter().any(|m| m.uci(false).to_string() == best), "{best}");
}

// ---- games ---------------------------------------------------------------------------------

/// How a game ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    Mate { winner: Color, plies: usize },
    Draw(&'static str),
}

/// Plays `fen` out with the engine on both sides, `nodes` per move, with or without the
/// tables; stops at mate or a draw (stalemate, fifty moves, repetition, material).
fn play_out(fen: &str, nodes: u64, tables: bool) -> End {
    let mut s = Searcher::new(Arc::new(TranspositionTable::new(16)), Arc::new(Control::default()));
    if tables {
        let (tb, _) = Tablebases::open(table_dir().to_str().unwrap());
        s.set_tablebases(Some(Arc::new(tb)));
    }
    let mut b = board(fen);
    for ply in 0..400 {
        if b.legal_moves().is_empty() {
            return if b.in_check() {
                End::Mate { winner: b.side_to_move().flip(), plies: ply }
            } else {
                End::Draw("stalemate")
            };
        }
        if b.fifty_move_draw() {
            return End::Draw("fifty moves");
        }
        if b.is_repetition(0) {
            return End::Draw("repetition");
        }
        if b.insufficient_material() {
            return End::Draw("material");
        }
        let r = s.search(&b, Limits { nodes: Some(nodes), ..Default::default() }, &mut Silent);
        b.make(r.best);
    }
    End::Draw("too long")
}

/// Oracle positions of one material with the side to move at `wdl`, at least `min_dtz`.
fn oracle_positions(name: &str, wdl: i32, min_dtz: i32, n: usize) -> Vec<String> {
    let m = Material::parse(name).unwrap();
    let text = std::fs::read_to_string(table_dir().join("oracle.csv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[1].parse::<i32>().unwrap() == wdl && f[2].parse::<i32>().unwrap().abs() >= min_dtz)
        .filter(|f| Material::of(&board(f[0])) == m)
        .take(n)
        .map(|f| f[0].to_string())
        .collect()
}

/// Fixed nodes per move in the game tests (deterministic: one thread, node limit).
const GAME_NODES: u64 = 2000;

/// Won KBN v K and KQ v KR: the engine with tables mates (the winner is the side to move
/// at the start) before the fifty-move rule; KR v KB draws are held.
#[test]
fn games_convert_wins_and_hold_draws() {
    let mut won = vec!["8/8/4k3/8/8/8/8/K1BN4 w - - 0 1".to_string()];
    won.extend(oracle_positions("KQvKR", 2, 20, 2));
    for fen in &won {
        let winner = board(fen).side_to_move();
        match play_out(fen, GAME_NODES, true) {
            End::Mate { winner: w, plies } => {
                assert!(w == winner && plies < 200, "{fen}: mate by {w:?} after {plies} plies")
            }
            other => panic!("{fen}: {other:?}"),
        }
    }
    for fen in oracle_positions("KRvKB", 0, 0, 2) {
        let end = play_out(&fen, GAME_NODES, true);
        assert!(matches!(end, End::Draw(_)), "{fen}: {end:?}");
    }
}

/// The larger version and the measurements for docs/syzygy.md (run with
/// `cargo test --release --test syzygy -- --ignored --nocapture`): WDL probe cost cold
/// (first probe of each table, loading included) and warm, and conversion of 20 won
/// 4-piece positions with and without tables at a fixed node budget.
#[test]
#[ignore]
fn measure_probe_cost_and_conversion() {
    use std::time::Instant;
    let text = std::fs::read_to_string(table_dir().join("oracle.csv")).unwrap();
    let fens: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split(',').next().unwrap()).collect();
    // Cold: a fresh set; the first position of each material loads its table.
    let (tb, _) = open(&table_dir());
    let mut seen = std::collections::HashSet::new();
    let table_key = |b: &Board| {
        let m = Material::of(b);
        m.key().min(m.flipped().key())
    };
    let firsts: Vec<Board> = fens.iter().map(|f| board(f)).filter(|b| seen.insert(table_key(b))).collect();
    let t = Instant::now();
    for b in &firsts {
        let mut b = b.clone();
        tb.probe_wdl(&mut b);
    }
    let cold = t.elapsed().as_nanos() as f64 / firsts.len() as f64;
    let mut boards: Vec<Board> = fens.iter().map(|f| board(f)).collect();
    const ROUNDS: usize = 20;
    let t = Instant::now();
    for _ in 0..ROUNDS {
        for b in boards.iter_mut() {
            std::hint::black_box(tb.probe_wdl(b));
        }
    }
    let warm = t.elapsed().as_nanos() as f64 / (ROUNDS * boards.len()) as f64;
    println!(
        "WDL probe: cold {:.0} ns ({} tables, first probe each, mapped: {}), warm {:.0} ns ({} probes)",
        cold,
        firsts.len(),
        tb.mapped(),
        warm,
        ROUNDS * boards.len()
    );

    let mut won = Vec::new();
    for name in ["KBNvK", "KQvKR", "KBBvK", "KRvKN", "KQvKN", "KRvKB", "KQvKB"] {
        won.extend(oracle_positions(name, 2, 20, 6));
    }
    won.truncate(20);
    const NODES: u64 = 20_000;
    for tables in [true, false] {
        let t = Instant::now();
        let mated = won
            .iter()
            .filter(
                |f| matches!(play_out(f, NODES, tables), End::Mate { winner, .. } if winner == board(f).side_to_move()),
            )
            .count();
        println!(
            "conversion {} tables: {mated}/{} mated within the fifty-move rule ({NODES} nodes a move, {:.0} s)",
            if tables { "with" } else { "without" },
            won.len(),
            t.elapsed().as_secs_f64()
        );
    }
}

/// Search threads probe one shared set at the same time, while its tables load: every
/// thread gets the oracle's answers.
#[test]
fn concurrent_probes_agree() {
    let text = std::fs::read_to_string(table_dir().join("oracle.csv")).unwrap();
    let cases: Vec<(String, i32)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[1].parse().unwrap())
        })
        .collect();
    let (tb, _) = open(&table_dir());
    let tb = Arc::new(tb);
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let (tb, cases) = (tb.clone(), cases.clone());
            std::thread::spawn(move || {
                // Each thread walks the positions from a different start.
                let n = cases.len();
                (0..n)
                    .filter(|i| {
                        let (fen, want) = &cases[(i + t * n / 4) % n];
                        tb.probe_wdl(&mut board(fen)).map(|w| w.value()) != Some(*want)
                    })
                    .count()
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), 0);
    }
    assert!(tb.take_errors().is_empty());
}
