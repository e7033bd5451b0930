//! Command-line subcommands other than the UCI loop. Each returns the process exit code;
//! argument errors print one line to stderr and return 2.

use crate::board::{Board, START_FEN};
use crate::epd::parse_epd;
use crate::error::{ArgError, ReadError};
use crate::json;
use crate::perft::{self, Perft, PerftCounters, PerftOptions};
use crate::progress::{self, Progress};
use std::fmt::Display;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Writes `text` to stdout. A reader that has gone away (`horizon perft 7 | head -3`) only
/// means the rest is not wanted: the write error is ignored instead of panicking as
/// `print!` would.
pub fn emit(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// `println!` through [`emit`].
macro_rules! say {
    ($($arg:tt)*) => { emit(&format!("{}\n", format_args!($($arg)*))) };
}

/// Exit code for bad arguments or input.
pub const EXIT_USAGE: i32 = 2;

fn usage_error(msg: impl Display) -> i32 {
    eprintln!("error: {msg}");
    EXIT_USAGE
}

/// Applies space-separated UCI moves to `board`. On an illegal move the board is left
/// at the position before it, which the error names.
pub fn apply_moves(board: &mut Board, moves: &str) -> Result<(), String> {
    for tok in moves.split_whitespace() {
        match board.parse_uci_move(tok) {
            Ok(m) => board.make(m),
            Err(e) => return Err(format!("{e} (position {})", board.to_fen())),
        }
    }
    Ok(())
}

/// Positional arguments, and `(flag, value)` pairs (value "" for boolean flags).
type SplitArgs<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>);

/// Splits `--flag value` options (from `value_flags`) and boolean `--flags` from positional
/// arguments.
pub(crate) fn split_args<'a>(args: &'a [String], value_flags: &[&str], bool_flags: &[&str]) -> Result<SplitArgs<'a>, ArgError> {
    let mut pos = Vec::new();
    let mut flags = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if value_flags.contains(&a) {
            let v = args.get(i + 1).ok_or_else(|| ArgError::MissingValue(a.to_string()))?;
            flags.push((a, v.as_str()));
            i += 2;
        } else if bool_flags.contains(&a) {
            flags.push((a, ""));
            i += 1;
        } else if a.starts_with("--") {
            return Err(ArgError::UnknownFlag(a.to_string()));
        } else {
            pos.push(a);
            i += 1;
        }
    }
    Ok((pos, flags))
}

/// Reads a suite file, with a one-line message on failure.
fn read_input(path: &str) -> Result<String, ReadError> {
    std::fs::read_to_string(path).map_err(|source| ReadError { path: path.to_string(), source })
}

pub(crate) fn parse_num<T: std::str::FromStr>(what: &str, v: &str) -> Result<T, ArgError> {
    v.parse().map_err(|_| ArgError::NotANumber(what.to_string(), v.to_string()))
}

fn perft_options(flags: &[(&str, &str)]) -> Result<PerftOptions, ArgError> {
    let mut o = PerftOptions::default();
    for &(f, v) in flags {
        match f {
            "--no-bulk" => o.bulk = false,
            "--threads" => o.threads = parse_num::<usize>("--threads", v)?.clamp(1, 256),
            "--hash" => o.hash_mb = parse_num::<usize>("--hash", v)?.min(1 << 16),
            _ => {}
        }
    }
    Ok(o)
}

const PERFT_VALUE_FLAGS: [&str; 2] = ["--threads", "--hash"];
const PERFT_BOOL_FLAGS: [&str; 3] = ["--no-bulk", "--json", "--progress"];
/// `perft` shows progress on a terminal from this depth on (shallower runs take a moment).
const PERFT_PROGRESS_DEPTH: u32 = 7;

fn has_flag(flags: &[(&str, &str)], name: &str) -> bool {
    flags.iter().any(|&(f, _)| f == name)
}

/// The progress line of a running `perft`.
fn perft_status(depth: u32, c: &PerftCounters, start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64();
    let nodes = c.nodes.load(Ordering::Relaxed);
    format!(
        "perft {depth}: {}/{} root moves, {} nodes, {} nodes/s, ETA {}",
        c.roots_done.load(Ordering::Relaxed),
        c.roots_total.load(Ordering::Relaxed),
        progress::si(nodes as f64),
        progress::si(nodes as f64 / secs.max(1e-9)),
        progress::eta(secs, c.tasks_done.load(Ordering::Relaxed) as u64, c.tasks_total.load(Ordering::Relaxed) as u64)
    )
}

/// `horizon perft <depth> [<fen>] [<moves>] [--no-bulk] [--threads N] [--hash MB] [--json] [--progress]`
///
/// Prints `<move> <count>` per root move, an empty line and the total (the format
/// `perftree` reads), or one JSON object with `--json`; time and speed go to stderr.
pub fn perft_command(args: &[String]) -> i32 {
    let (pos, flags) = match split_args(args, &PERFT_VALUE_FLAGS, &PERFT_BOOL_FLAGS) {
        Ok(x) => x,
        Err(e) => return usage_error(e),
    };
    let opts = match perft_options(&flags) {
        Ok(o) => o,
        Err(e) => return usage_error(e),
    };
    if pos.is_empty() || pos.len() > 3 {
        return usage_error(
            "usage: horizon perft <depth> [<fen>] [<moves>] [--no-bulk] [--threads N] [--hash MB] [--json] [--progress]",
        );
    }
    let depth: u32 = match pos[0].parse() {
        Ok(d) if d <= 64 => d,
        _ => return usage_error(format!("depth must be a number from 0 to 64, got '{}'", pos[0])),
    };
    let fen = pos.get(1).copied().filter(|f| !f.trim().is_empty()).unwrap_or(START_FEN);
    let mut board = match Board::from_fen(fen) {
        Ok(b) => b,
        Err(e) => return usage_error(e),
    };
    if let Some(moves) = pos.get(2) {
        if let Err(e) = apply_moves(&mut board, moves) {
            return usage_error(e);
        }
    }
    let runner = match Perft::new(opts) {
        Ok(r) => r,
        Err(e) => return usage_error(e),
    };
    let counters = Arc::new(PerftCounters::default());
    let start = Instant::now();
    let show = Progress::choose(has_flag(&flags, "--progress"), depth >= PERFT_PROGRESS_DEPTH);
    let reporter = progress::start(show, {
        let counters = counters.clone();
        move || perft_status(depth, &counters, start)
    });
    let split = runner.divide_counted(&board, depth, &counters);
    reporter.finish();
    let total: u64 = if depth == 0 { 1 } else { split.iter().map(|(_, n)| n).sum() };
    let secs = start.elapsed().as_secs_f64();
    let nps = total as f64 / secs.max(1e-9);
    let chess960 = board.is_chess960();
    let mut out = String::new();
    if has_flag(&flags, "--json") {
        let divide: Vec<String> = split
            .iter()
            .map(|(m, n)| format!("{{\"move\": {}, \"nodes\": {n}}}", json::string(&m.uci(chess960).to_string())))
            .collect();
        out.push_str(&format!(
            "{{\"fen\": {}, \"depth\": {depth}, \"nodes\": {total}, \"divide\": [{}], \"seconds\": {}, \"nps\": {}}}\n",
            json::string(&board.to_fen()),
            divide.join(", "),
            json::number(secs),
            json::number(nps.round())
        ));
    } else {
        for (m, n) in &split {
            out.push_str(&format!("{} {}\n", m.uci(chess960), n));
        }
        out.push('\n');
        out.push_str(&format!("{total}\n"));
    }
    emit(&out);
    eprintln!("time {:.3} s, {:.1} M nodes/s", secs, nps / 1e6);
    0
}

/// One checked count of a suite, for the report.
struct SuiteResult {
    line: usize,
    fen: String,
    depth: u32,
    expected: u64,
    got: u64,
}

/// `horizon perft-suite <file.epd> [--max-depth D] [--max-nodes N] [--threads N] [--hash MB] [--json] [--progress]`
pub fn perft_suite_command(args: &[String]) -> i32 {
    let (pos, flags) = match split_args(
        args,
        &["--max-depth", "--max-nodes", "--threads", "--hash"],
        &PERFT_BOOL_FLAGS,
    ) {
        Ok(x) => x,
        Err(e) => return usage_error(e),
    };
    if pos.len() != 1 {
        return usage_error(
            "usage: horizon perft-suite <file.epd> [--max-depth D] [--max-nodes N] [--threads N] [--hash MB] [--json] [--progress]",
        );
    }
    let opts = match perft_options(&flags) {
        Ok(o) => o,
        Err(e) => return usage_error(e),
    };
    let mut max_depth = u32::MAX;
    let mut max_nodes = u64::MAX;
    for &(f, v) in &flags {
        let r = match f {
            "--max-depth" => parse_num("--max-depth", v).map(|d| max_depth = d),
            "--max-nodes" => parse_num("--max-nodes", v).map(|n| max_nodes = n),
            _ => Ok(()),
        };
        if let Err(e) = r {
            return usage_error(e);
        }
    }
    let text = match read_input(pos[0]) {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    // One runner (and one hash table) for the whole suite.
    let runner = match Perft::new(opts) {
        Ok(r) => r,
        Err(e) => return usage_error(e),
    };
    let json_out = has_flag(&flags, "--json");
    let positions = text.lines().filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#')).count();
    // Positions done and failures so far, for the progress line.
    let shown = Arc::new((AtomicUsize::new(0), AtomicUsize::new(0)));
    let start = Instant::now();
    let reporter = progress::start(Progress::choose(has_flag(&flags, "--progress"), true), {
        let shown = shown.clone();
        move || {
            let done = shown.0.load(Ordering::Relaxed);
            let eta = progress::eta(start.elapsed().as_secs_f64(), done as u64, positions as u64);
            format!("perft-suite: {done}/{positions} positions, {} failed, ETA {eta}", shown.1.load(Ordering::Relaxed))
        }
    });
    let (mut results, mut errors) = (Vec::new(), Vec::new());
    for (lineno, line) in text.lines().enumerate() {
        let problem = match perft::parse_suite_line(line) {
            Ok(Some(entry)) => match Board::from_fen(&entry.fen) {
                Ok(board) => {
                    for &(depth, expected) in &entry.depths {
                        if depth > max_depth || expected > max_nodes {
                            continue;
                        }
                        let got = runner.count(&board, depth);
                        if got != expected {
                            shown.1.fetch_add(1, Ordering::Relaxed);
                            if !json_out {
                                say!("FAIL {} depth {depth}: expected {expected}, got {got}", entry.fen);
                            }
                        }
                        results.push(SuiteResult { line: lineno + 1, fen: entry.fen.clone(), depth, expected, got });
                    }
                    None
                }
                Err(e) => Some(format!("{e}: {}", entry.fen)),
            },
            Ok(None) => continue,
            Err(e) => Some(format!("unreadable: {e}")),
        };
        if let Some(problem) = problem {
            shown.1.fetch_add(1, Ordering::Relaxed);
            if !json_out {
                say!("line {}: {problem}", lineno + 1);
            }
            errors.push((lineno + 1, problem));
        }
        shown.0.fetch_add(1, Ordering::Relaxed);
    }
    reporter.finish();
    let secs = start.elapsed().as_secs_f64();
    let nodes: u64 = results.iter().map(|r| r.got).sum();
    let passed = results.iter().filter(|r| r.got == r.expected).count();
    let failed = results.len() - passed + errors.len();
    eprintln!("{nodes} nodes in {secs:.2} s, {:.1} M nodes/s", nodes as f64 / secs.max(1e-9) / 1e6);
    if json_out {
        let checks: Vec<String> = results
            .iter()
            .map(|r| {
                format!(
                    "{{\"line\": {}, \"fen\": {}, \"depth\": {}, \"expected\": {}, \"nodes\": {}, \"ok\": {}}}",
                    r.line,
                    json::string(&r.fen),
                    r.depth,
                    r.expected,
                    r.got,
                    r.got == r.expected
                )
            })
            .collect();
        let errs: Vec<String> = errors
            .iter()
            .map(|(l, e)| format!("{{\"line\": {l}, \"error\": {}}}", json::string(e)))
            .collect();
        say!(
            "{{\"file\": {}, \"passed\": {passed}, \"failed\": {failed}, \"nodes\": {nodes}, \"seconds\": {}, \"checks\": [{}], \"errors\": [{}]}}",
            json::string(pos[0]),
            json::number(secs),
            checks.join(", "),
            errs.join(", ")
        );
    } else {
        say!("{passed} passed, {failed} failed");
    }
    if failed > 0 {
        1
    } else {
        0
    }
}

/// `horizon bench [depth] [threads] [hash] [--nnue | --evalfile FILE]`: prints per-position
/// lines to stderr and ends with `<nodes> nodes <nps> nps` on stdout. Without
/// `threads`/`hash` (or with 1 and 16) it is the single-threaded, deterministic signature;
/// otherwise the threaded bench. `--nnue` evaluates with the embedded network, `--evalfile`
/// with a network file.
pub fn bench_command(args: &[String]) -> i32 {
    let (args, network) = match bench_network(args) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let args = &args[..];
    let depth = match args.first() {
        None => crate::bench::BENCH_DEPTH,
        Some(d) => match d.parse::<i32>() {
            Ok(d) if (1..=64).contains(&d) => d,
            _ => return usage_error(format!("bench depth must be a number from 1 to 64, got '{d}'")),
        },
    };
    let threads = match args.get(1) {
        None => 1,
        Some(t) => match t.parse::<usize>() {
            Ok(t) if (1..=crate::search::threads::MAX_THREADS).contains(&t) => t,
            _ => return usage_error(format!("bench threads must be a number from 1 to 1024, got '{t}'")),
        },
    };
    let hash = match args.get(2) {
        None => crate::bench::BENCH_HASH_MB,
        Some(h) => match h.parse::<usize>() {
            Ok(h) if (1..=crate::uci::options::HASH_MAX).contains(&h) => h,
            _ => return usage_error(format!("bench hash must be a number of MB from 1 to 65536, got '{h}'")),
        },
    };
    if args.len() > 3 {
        return usage_error(BENCH_USAGE);
    }
    let each = |i: usize, fen: &str, s: &crate::search::Stats| {
        eprintln!("position {:2}  nodes {:9}  qnodes {:9}  {fen}", i + 1, s.nodes, s.qnodes);
    };
    let evaluation = if network.is_some() { "nnue" } else { "classical" };
    let r = if threads == 1 && hash == crate::bench::BENCH_HASH_MB {
        match network {
            Some(net) => crate::bench::run_nnue(depth, net, each),
            None => crate::bench::run(depth, each),
        }
    } else {
        let control = std::sync::Arc::new(crate::search::Control::default());
        let options = crate::search::Options::default();
        match crate::bench::run_threads(depth, threads, hash, options, network, control, each) {
            Some(r) => r,
            None => {
                eprintln!("error: cannot allocate a {hash} MB hash table");
                return 1;
            }
        }
    };
    let s = r.stats;
    let nps = s.nodes as u128 * 1000 / r.millis.max(1);
    eprintln!(
        "depth {depth}, {threads} thread(s), {hash} MB, {evaluation} evaluation: {} ms, quiescence nodes {} ({:.1}%), SEE-pruned captures {}, delta-pruned {}, pawn hash hits {:.1}% of {}",
        r.millis,
        s.qnodes,
        100.0 * s.qnodes as f64 / s.nodes.max(1) as f64,
        s.see_pruned,
        s.delta_pruned,
        100.0 * r.pawn_hits as f64 / r.pawn_probes.max(1) as f64,
        r.pawn_probes
    );
    say!("{} nodes {} nps", s.nodes, nps);
    0
}

const BENCH_USAGE: &str = "usage: horizon bench [depth] [threads] [hash] [--nnue | --evalfile FILE]";

/// Takes `--nnue` / `--evalfile FILE` out of bench's arguments: the other arguments and the
/// network to evaluate with (None: the classical evaluation), or the exit code of an error.
#[allow(clippy::type_complexity)]
fn bench_network(args: &[String]) -> Result<(Vec<String>, Option<std::sync::Arc<crate::eval::nnue::Network>>), i32> {
    let mut rest = Vec::new();
    let mut network = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--nnue" => network = Some(crate::eval::nnue::default_network()),
            "--evalfile" => {
                let Some(path) = it.next() else {
                    return Err(usage_error(BENCH_USAGE));
                };
                match crate::eval::nnue::Network::from_file(path) {
                    Ok(net) => network = Some(std::sync::Arc::from(net)),
                    Err(e) => return Err(usage_error(e.to_string())),
                }
            }
            s if s.starts_with("--") => return Err(usage_error(BENCH_USAGE)),
            _ => rest.push(a.clone()),
        }
    }
    Ok((rest, network))
}

const TUNE_USAGE: &str = "usage: horizon tune <data> [--epochs N] [--lambda L] [--lr X] [--out FILE.rs] \
[--limit N] [--batch N] [--threads N] [--seed S] [--holdout F]";

/// `horizon tune <data> [options]`: fits the evaluation weights to a data file and writes them
/// as Rust source (see `crate::tune`). Loss lines go to stdout, progress to stderr.
pub fn tune_command(args: &[String]) -> i32 {
    const VALUE_FLAGS: [&str; 9] =
        ["--epochs", "--lambda", "--lr", "--out", "--limit", "--batch", "--threads", "--seed", "--holdout"];
    let (pos, flags) = match split_args(args, &VALUE_FLAGS, &[]) {
        Ok(x) => x,
        Err(e) => return usage_error(format!("{e} ({TUNE_USAGE})")),
    };
    if pos.len() != 1 {
        return usage_error(TUNE_USAGE);
    }
    let mut cfg = crate::tune::Config::new(pos[0]);
    cfg.command = format!("horizon tune {}", args.join(" "));
    let parsed: Result<(), ArgError> = (|| {
        for &(f, v) in &flags {
            match f {
                "--epochs" => cfg.epochs = bounded(f, v, 0, 1_000_000)?,
                "--limit" => cfg.limit = bounded(f, v, 1, usize::MAX)?,
                "--batch" => cfg.batch = bounded(f, v, 1, 1 << 30)?,
                "--threads" => cfg.threads = bounded(f, v, 1, 256)?,
                "--seed" => cfg.seed = parse_num(f, v)?,
                "--lambda" => cfg.lambda = fraction(f, v, 0.0, 1.0)?,
                "--holdout" => cfg.holdout = fraction(f, v, 0.0, 0.5)?,
                "--lr" => cfg.lr = fraction(f, v, 1e-6, 1000.0)?,
                "--out" => cfg.out = v.into(),
                _ => {}
            }
        }
        Ok(())
    })();
    if let Err(e) = parsed {
        return usage_error(&e);
    }
    let start = Instant::now();
    // On a terminal the progress line is redrawn in place; into a file or pipe it is written
    // as a plain line every ten seconds.
    use std::io::IsTerminal;
    let tty = std::io::stderr().is_terminal();
    let clear = if tty { "\r\x1b[K" } else { "" };
    // A closed stdout (`| head`) must not stop the run: the weights file is what matters.
    let mut line = |s: &str| {
        eprint!("{clear}");
        say!("{s}");
    };
    let mut last = Instant::now();
    let mut progress = |s: &str| {
        if tty {
            eprint!("{clear}{s}");
        } else if last.elapsed().as_secs() >= 10 {
            last = Instant::now();
            eprintln!("{s}");
        }
    };
    let mut out = crate::tune::Output { line: &mut line, progress: &mut progress };
    match crate::tune::run(&cfg, &mut out) {
        Ok(s) => {
            let (w, f) = crate::tune::weight_count();
            say!(
                "wrote {} ({w} weights, {f} scale factors) in {:.1} s: loss {:.7} -> {:.7}",
                cfg.out.display(),
                start.elapsed().as_secs_f64(),
                s.train_loss.first().copied().unwrap_or(0.0),
                s.train_loss.last().copied().unwrap_or(0.0)
            );
            0
        }
        Err(e) => {
            eprintln!("{clear}error: {e}");
            match e {
                crate::tune::TuneError::Write(..) => 1,
                _ => EXIT_USAGE,
            }
        }
    }
}

/// An integer flag value within `lo..=hi`.
fn bounded<T: std::str::FromStr + PartialOrd + Display>(flag: &str, v: &str, lo: T, hi: T) -> Result<T, ArgError> {
    match v.parse::<T>() {
        Ok(x) if x >= lo && x <= hi => Ok(x),
        _ => Err(ArgError::OutOfRange(flag.into(), format!("a whole number from {lo} to {hi}"), v.into())),
    }
}

/// A real flag value within `lo..=hi`.
fn fraction(flag: &str, v: &str, lo: f64, hi: f64) -> Result<f64, ArgError> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= lo && x <= hi => Ok(x),
        _ => Err(ArgError::OutOfRange(flag.into(), format!("a number from {lo} to {hi}"), v.into())),
    }
}

/// `horizon see "<fen>" <uci-move>`: prints the static exchange value in centipawns.
pub fn see_command(args: &[String]) -> i32 {
    if args.len() != 2 {
        return usage_error("usage: horizon see \"<fen>\" <uci-move>");
    }
    let board = match Board::from_fen(&args[0]) {
        Ok(b) => b,
        Err(e) => return usage_error(e),
    };
    let Some(m) = board.parse_uci_move(&args[1]).ok().or_else(|| crate::san::parse_san(&board, &args[1])) else {
        return usage_error(format!("'{}' is not a legal move in this position", args[1]));
    };
    say!("{}", crate::see::see(&board, m));
    0
}

/// `horizon epd <file> [--movetime ms] [--depth D] [--hash MB]`: searches each position
/// and prints each miss and `N solved of M`.
pub fn epd_command(args: &[String]) -> i32 {
    use crate::search::{tt::TranspositionTable, Control, Limits, Searcher, Silent};
    use crate::search::time::Clock;
    let (pos, flags) = match split_args(args, &["--movetime", "--depth", "--hash"], &["--progress"]) {
        Ok(x) => x,
        Err(e) => return usage_error(e),
    };
    if pos.len() != 1 {
        return usage_error("usage: horizon epd <file> [--movetime ms] [--depth D] [--hash MB] [--progress]");
    }
    let (mut movetime, mut depth, mut hash) = (Some(1000u64), None, 64usize);
    for &(f, v) in &flags {
        let r = match f {
            "--movetime" => parse_num::<u64>(f, v).map(|x| movetime = Some(x)),
            "--depth" => parse_num::<i32>(f, v).map(|x| {
                depth = Some(x);
                movetime = None;
            }),
            "--hash" => parse_num::<usize>(f, v).map(|x| hash = x.clamp(1, 65536)),
            _ => Ok(()),
        };
        if let Err(e) = r {
            return usage_error(e);
        }
    }
    let text = match read_input(pos[0]) {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    let tt = Arc::new(TranspositionTable::new(hash));
    let control = Arc::new(Control::default());
    let mut searcher = Searcher::new(tt.clone(), control);
    let (mut solved, mut total) = (0, 0);
    let records = text.lines().filter(|l| !(l.trim().is_empty() || l.starts_with('#'))).count();
    let shown = Arc::new((AtomicUsize::new(0), AtomicUsize::new(0)));
    let reporter = progress::start(Progress::choose(has_flag(&flags, "--progress"), true), {
        let (shown, start) = (shown.clone(), Instant::now());
        move || {
            let tried = shown.1.load(Ordering::Relaxed);
            let eta = progress::eta(start.elapsed().as_secs_f64(), tried as u64, records as u64);
            format!("epd: {} solved / {tried} tried of {records}, ETA {eta}", shown.0.load(Ordering::Relaxed))
        }
    });
    for (lineno, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        total += 1;
        shown.1.store(total - 1, Ordering::Relaxed);
        let rec = match parse_epd(line) {
            Ok(r) => r,
            Err(e) => {
                say!("line {}: unreadable: {e}", lineno + 1);
                continue;
            }
        };
        tt.clear();
        searcher.clear();
        let limits = Limits {
            depth,
            clock: Clock { movetime_ms: movetime, ..Clock::default() },
            multipv: 1,
            ..Limits::default()
        };
        let r = searcher.search(&rec.board, limits, &mut Silent);
        let ok = (rec.bm.is_empty() || rec.bm.contains(&r.best)) && !rec.am.contains(&r.best);
        if ok {
            solved += 1;
            shown.0.store(solved, Ordering::Relaxed);
        } else {
            let mut b = rec.board.clone();
            let played = crate::san::to_san(&mut b, r.best);
            let want: Vec<String> = rec.bm.iter().map(|&m| crate::san::to_san(&mut b, m)).collect();
            let avoid: Vec<String> = rec.am.iter().map(|&m| crate::san::to_san(&mut b, m)).collect();
            say!(
                "miss {}: played {played}{}{} (depth {})",
                if rec.id.is_empty() { format!("line {}", lineno + 1) } else { rec.id.clone() },
                if want.is_empty() { String::new() } else { format!(", bm {}", want.join(" ")) },
                if avoid.is_empty() { String::new() } else { format!(", am {}", avoid.join(" ")) },
                r.depth
            );
        }
    }
    shown.1.store(total, Ordering::Relaxed);
    reporter.finish();
    say!("{solved} solved of {total}");
    0
}
