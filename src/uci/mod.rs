//! The UCI protocol layer. The main thread reads standard input and answers at once
//! (`isready`, `stop`, `ponderhit`, `quit` are served while a search runs); each `go`
//! runs the search on its own thread, which prints its reports and the `bestmove`.
//! Bad input is answered with `info string error: …` and the last good state is kept.

pub mod command;
pub mod options;

use crate::board::Board;
use crate::eval::nnue::network::INTERNAL_NAME;
use crate::eval::nnue::{self, Network};
use crate::moves::Move;
use crate::perft;
use crate::search::tt::TranspositionTable;
use crate::search::{Bound, Control, CurrentMove, Limits, Report, Reporter, Score, ThreadPool, WdlRoot};
use crate::syzygy::Tablebases;
use command::{Command, GoParams};
use options::{Change, EngineOptions};
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

pub use crate::ENGINE_NAME;
pub const ENGINE_AUTHOR: &str = "the Horizon developers";
/// Stack of the search thread: the recursion is up to `MAX_PLY` deep with a move list
/// and picker per node, far more than a default thread stack holds.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Writes one line to stdout and flushes (the GUI reads line by line).
pub fn send(line: &str) {
    let out = std::io::stdout();
    let mut lock = out.lock();
    let _ = writeln!(lock, "{line}");
    let _ = lock.flush();
}

/// Formats search reports as `info` lines.
struct UciReporter {
    chess960: bool,
    /// `UCI_ShowWDL`: the root for the win/draw/loss model (`None`: no `wdl`).
    wdl_root: Option<WdlRoot>,
    /// The lines of the last iteration sent (one per `multipv` line), repeated after a
    /// `ponderhit` that arrives once the ponder search has ended, so that the client sees
    /// the score of the move it is about to receive.
    last: Vec<String>,
}

impl Reporter for UciReporter {
    fn report(&mut self, r: &Report) {
        let line = format_info(r, self.chess960, self.wdl_root);
        if r.multipv <= 1 {
            self.last.clear();
        }
        self.last.push(line.clone());
        send(&line);
    }
}

/// `info depth … pv …` for one report, with `wdl W D L` after the score when
/// `wdl_root` (see [`WdlRoot`]) is given.
pub fn format_info(r: &Report, chess960: bool, wdl_root: Option<WdlRoot>) -> String {
    let ms = r.time.as_millis();
    let nps = (r.nodes as u128 * 1000) / ms.max(1);
    let score = match r.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let bound = match r.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let wdl = wdl_root.map_or(String::new(), |root| {
        let w = r.wdl(root);
        format!(" wdl {} {} {}", w.win, w.draw, w.loss)
    });
    let pv: Vec<String> = r.pv.iter().map(|m| m.uci(chess960).to_string()).collect();
    // A mated or stalemated root has no line: the `pv` token is left out, not sent empty.
    let pv_field = if pv.is_empty() { String::new() } else { format!(" pv {}", pv.join(" ")) };
    format!(
        "info depth {} seldepth {} multipv {} score {}{}{} nodes {} nps {} hashfull {} tbhits {} time {}{}",
        r.depth, r.seldepth, r.multipv, score, bound, wdl, r.nodes, nps, r.hashfull, r.tbhits, ms, pv_field
    )
}

pub struct Engine {
    board: Board,
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    /// The search threads live here between searches and on the search thread during one.
    pool: Option<ThreadPool>,
    /// The running job (search, `go perft` or `bench`); a search hands the pool back.
    handle: Option<JoinHandle<Option<ThreadPool>>>,
    /// `Hash`, `Threads` and `Clear Hash` given while a job ran, applied when it ends.
    pending: Pending,
    /// The network `EvalFile` loaded (the embedded one until another loads), shared
    /// read-only with the search threads while `UseNNUE` is on.
    network: Arc<Network>,
    /// The evaluation changed since the last search (`UseNNUE`, `EvalFile`): the hash
    /// table's stored evaluations and the correction history are the old evaluation's, so
    /// the next search clears them.
    evaluation_changed: bool,
    /// The Syzygy tables of `SyzygyPath` (`None`: none).
    tablebases: Option<Arc<Tablebases>>,
    /// Why the last `position` was rejected, until a good one (or `ucinewgame`) arrives:
    /// a `go` meanwhile is refused rather than searching a position the GUI never sent.
    rejected_position: Option<String>,
}

/// Option changes waiting for the running job to end.
#[derive(Default)]
struct Pending {
    hash: bool,
    threads: bool,
    clear_hash: bool,
    syzygy: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        let options = EngineOptions::default();
        let tt = Arc::new(TranspositionTable::new(options.hash_mb));
        let control = Arc::new(Control::default());
        let pool = ThreadPool::new(options.threads, tt.clone(), control.clone());
        Engine {
            board: Board::startpos(),
            options,
            tt,
            control,
            pool: Some(pool),
            handle: None,
            pending: Pending::default(),
            network: nnue::default_network(),
            evaluation_changed: false,
            tablebases: None,
            rejected_position: None,
        }
    }

    /// The pool, rebuilt if a failed job took it away.
    fn take_pool(&mut self) -> ThreadPool {
        self.pool.take().unwrap_or_else(|| ThreadPool::new(self.options.threads, self.tt.clone(), self.control.clone()))
    }

    /// Is a search, perft or bench still running?
    fn busy(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Stops a running search (its thread prints `bestmove`) and takes the searcher back.
    fn stop_search(&mut self) {
        if let Some(h) = self.handle.take() {
            self.control.stop.store(true, Ordering::SeqCst);
            self.control.pondering.store(false, Ordering::SeqCst);
            match h.join() {
                Ok(Some(p)) => self.pool = Some(p),
                Ok(None) => {}
                Err(_) => {
                    // The search thread cannot panic under panic=abort; rebuild defensively.
                    self.pool = Some(ThreadPool::new(self.options.threads, self.tt.clone(), self.control.clone()));
                }
            }
        }
        self.apply_pending();
    }

    /// Applies option changes that waited for the last job to end.
    fn apply_pending(&mut self) {
        let p = std::mem::take(&mut self.pending);
        if p.hash {
            self.apply(Change::Hash);
        }
        if p.threads {
            self.apply(Change::Threads);
        }
        if p.clear_hash {
            self.apply(Change::ClearHash);
        }
        if p.syzygy {
            self.apply(Change::Syzygy);
        }
    }

    /// Runs `job` on its own thread, so the input thread keeps answering.
    fn spawn_job(&mut self, name: &str, job: impl FnOnce() -> Option<ThreadPool> + Send + 'static) {
        self.control.stop.store(false, Ordering::SeqCst);
        // The search recursion and move lists live on this thread's stack.
        match std::thread::Builder::new().name(name.into()).stack_size(SEARCH_STACK_BYTES).spawn(job) {
            Ok(h) => self.handle = Some(h),
            Err(e) => send(&format!("info string error: cannot start {name} thread: {e}")),
        }
    }

    /// Handles one input line. Returns false on `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        // A job that ended on its own is collected here, so waiting changes apply now.
        if self.handle.as_ref().is_some_and(|h| h.is_finished()) {
            self.stop_search();
        }
        match line.parse::<Command>() {
            Ok(cmd) => self.handle(cmd),
            Err(e) => {
                send(&format!("info string error: {e}"));
                true
            }
        }
    }

    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Uci => {
                send(&format!("id name {ENGINE_NAME}"));
                send(&format!("id author {ENGINE_AUTHOR}"));
                for o in options::declarations() {
                    send(&o);
                }
                send("uciok");
            }
            Command::IsReady => send("readyok"),
            Command::UciNewGame => {
                self.stop_search();
                self.tt.clear();
                if let Some(p) = self.pool.as_mut() {
                    p.clear();
                }
                self.board = Board::startpos();
                self.rejected_position = None;
            }
            Command::Position { fen, moves } => self.set_position(fen, &moves),
            Command::Go(g) => self.go(g),
            Command::Stop => self.stop_search(),
            Command::PonderHit => self.control.pondering.store(false, Ordering::SeqCst),
            Command::Quit => {
                self.stop_search();
                return false;
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Debug | Command::Empty => {}
            Command::Display => {
                for l in self.board.pretty().lines() {
                    send(l);
                }
            }
            Command::Eval => send(&self.eval_line()),
            Command::Genfens(request) => {
                // Runs to the end before the next line is read, so that a script's
                // `genfens …` followed by `quit` gets every position.
                self.stop_search();
                if let Err(e) =
                    crate::data::genfens::run_request(request, |fen| send(&format!("info string genfens {fen}")))
                {
                    send(&format!("info string error: {e}"));
                }
            }
            Command::Bench { depth, threads, hash } => {
                self.stop_search();
                let depth = depth.unwrap_or(crate::bench::BENCH_DEPTH);
                let threads = threads.unwrap_or(1);
                let hash = hash.unwrap_or(crate::bench::BENCH_HASH_MB);
                let options = self.options.search;
                let network = self.searched_network();
                let control = self.control.clone();
                self.spawn_job("bench", move || {
                    let stopped = control.clone();
                    let r = if threads == 1 && hash == crate::bench::BENCH_HASH_MB {
                        crate::bench::run_controlled(depth, options, network, control, |_, _, _| {})
                    } else {
                        crate::bench::run_threads(depth, threads, hash, options, network, control, |_, _, _| {})
                    };
                    match r {
                        Some(r) => {
                            let s = r.stats;
                            send(&format!(
                                "info string qnodes {} ({:.1}%) see-pruned {} delta-pruned {}",
                                s.qnodes,
                                100.0 * s.qnodes as f64 / s.nodes.max(1) as f64,
                                s.see_pruned,
                                s.delta_pruned
                            ));
                            let nps = s.nodes as u128 * 1000 / r.millis.max(1);
                            send(&format!("{} nodes {} nps", s.nodes, nps));
                        }
                        None if stopped.stop.load(Ordering::SeqCst) => send("info string bench stopped"),
                        None => send(&format!("info string error: cannot allocate a {hash} MB hash table for bench")),
                    }
                    None
                });
            }
        }
        true
    }

    /// The `eval` answer: the evaluation in use, and with the network also the classical
    /// figure for comparison.
    fn eval_line(&self) -> String {
        let classical = crate::eval::evaluate(&self.board);
        let material = crate::eval::wdl::material(&self.board);
        let wdl = |cp: i32| {
            let w = crate::eval::wdl::wdl(cp, material);
            format!("wdl {} {} {}", w.win, w.draw, w.loss)
        };
        if self.options.use_nnue {
            let net = nnue::evaluate_board(&self.network, &self.board);
            format!("info string eval {net} cp (side to move, nnue) {}; classical {classical} cp", wdl(net))
        } else {
            format!("info string eval {classical} cp (side to move, classical) {}", wdl(classical))
        }
    }

    /// The network the next search evaluates with (None: the classical evaluation).
    fn searched_network(&self) -> Option<Arc<Network>> {
        self.options.use_nnue.then(|| self.network.clone())
    }

    /// `EvalFile`: loads `path` (or the embedded network for `<internal>`). A bad file is
    /// reported and the current network stays; a running search keeps its own network
    /// either way, the new one is used from the next search.
    fn load_network(&mut self, path: &str) {
        let loaded =
            if path == INTERNAL_NAME { Ok(nnue::default_network()) } else { Network::from_file(path).map(Arc::from) };
        match loaded {
            Ok(net) => {
                // Plain networks keep the line they always had; a mirrored one says so.
                let set = match net.feature_set {
                    nnue::FeatureSet::Plain => String::new(),
                    other => format!(", {other} features"),
                };
                self.network = net;
                self.options.eval_file = path.to_string();
                self.evaluation_changed = true;
                send(&format!("info string loaded network {path}: hidden {}{set}", nnue::HIDDEN));
            }
            Err(e) => send(&format!("info string error: {e}; keeping network {}", self.options.eval_file)),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(Change::Other) => {}
            Ok(Change::Evaluation) => self.evaluation_changed = true,
            Ok(Change::EvalFile(path)) => self.load_network(&path),
            Ok(change) if self.busy() => {
                // The running search keeps its table and threads; the change waits for it.
                send(&format!(
                    "info string error: option '{name}' cannot change during a search; applied when it ends"
                ));
                match change {
                    Change::Hash => self.pending.hash = true,
                    Change::Threads => self.pending.threads = true,
                    Change::Syzygy => self.pending.syzygy = true,
                    _ => self.pending.clear_hash = true,
                }
            }
            Ok(change) => {
                self.stop_search();
                self.apply(change);
            }
            Err(e) => send(&format!("info string error: {e}")),
        }
        self.board.set_chess960(self.options.chess960);
    }

    /// Rebuilds the table or the pool for a changed option; no job may be running.
    fn apply(&mut self, change: Change) {
        match change {
            Change::Hash => {
                // Free the old table before allocating the new one, so memory never holds both.
                self.tt = Arc::new(TranspositionTable::new(1));
                if let Some(p) = self.pool.as_mut() {
                    p.set_tt(self.tt.clone());
                }
                match TranspositionTable::try_new(self.options.hash_mb) {
                    Ok(t) => self.tt = Arc::new(t),
                    Err(e) => {
                        send(&format!("info string error: {e}; keeping a 16 MB table"));
                        self.options.hash_mb = options::HASH_DEFAULT;
                        self.tt = Arc::new(TranspositionTable::new(options::HASH_DEFAULT));
                    }
                }
                if let Some(p) = self.pool.as_mut() {
                    p.set_tt(self.tt.clone());
                }
            }
            Change::Threads => {
                if let Some(p) = self.pool.as_mut() {
                    p.set_threads(self.options.threads);
                    p.set_tablebases(self.tablebases.clone());
                }
            }
            Change::ClearHash => self.tt.clear(),
            Change::Syzygy => {
                let (tb, errors) = Tablebases::open(&self.options.syzygy_path);
                for e in errors {
                    send(&format!("info string error: {e}"));
                }
                if self.options.syzygy_path != crate::syzygy::EMPTY_PATH {
                    send(&format!("info string {}", tb.summary()));
                }
                self.tablebases = (tb.count() > 0).then(|| Arc::new(tb));
                if let Some(p) = self.pool.as_mut() {
                    p.set_tablebases(self.tablebases.clone());
                }
            }
            Change::Evaluation | Change::EvalFile(_) | Change::Other => {}
        }
    }

    /// `position`: builds the new position completely before replacing the old one, so a
    /// bad FEN or an illegal move leaves the last good position in place.
    fn set_position(&mut self, fen: Option<String>, moves: &[String]) {
        let mut b = match fen {
            None => Board::startpos(),
            Some(f) => match Board::from_fen(&f) {
                Ok(b) => b,
                Err(e) => {
                    send(&format!("info string error: {e}"));
                    self.rejected_position = Some(e.to_string());
                    return;
                }
            },
        };
        b.set_chess960(self.options.chess960);
        for m in moves {
            match b.parse_uci_move(m) {
                Ok(mv) => {
                    b.make(mv);
                    // Positions before an irreversible move can never repeat: drop them so
                    // very long games do not grow the history without bound.
                    if b.halfmove_clock() == 0 {
                        b.clear_history();
                    }
                }
                Err(e) => {
                    send(&format!("info string error: {e} (position {})", b.to_fen()));
                    self.rejected_position = Some(format!("{e}"));
                    return;
                }
            }
        }
        self.board = b;
        self.rejected_position = None;
    }

    fn go(&mut self, mut g: GoParams) {
        self.stop_search();
        if let Some(why) = &self.rejected_position {
            // The GUI's last position was not set: searching the one before it would
            // answer a question nobody asked. `0000` (the null move) is no move of any
            // position, so no GUI can take it for a move to play.
            send(&format!("info string error: no search: the last position was rejected ({why})"));
            send(REJECTED_POSITION_BESTMOVE);
            return;
        }
        let mut notes = std::mem::take(&mut g.notes);
        if let Some(d) = g.perft {
            if !notes.is_empty() {
                send(&format!("info string error: ignored in go: {}", notes.join("; ")));
            }
            let board = self.board.clone();
            let control = self.control.clone();
            self.spawn_job("perft", move || {
                let chess960 = board.is_chess960();
                let mut total = 0;
                let done = perft::divide_until(&board, d, &control.stop, |m, n| {
                    send(&format!("{}: {}", m.uci(chess960), n));
                    total += n;
                });
                if done {
                    send("");
                    send(&format!("Nodes searched: {}", if d == 0 { 1 } else { total }));
                } else {
                    send("info string perft stopped");
                }
                None
            });
            return;
        }
        let white = self.board.side_to_move() == crate::types::Color::White;
        let mut searchmoves = Vec::new();
        for s in &g.searchmoves {
            match self.board.parse_uci_move(s) {
                Ok(m) => searchmoves.push(m),
                Err(e) => notes.push(format!("searchmoves {s} ({e})")),
            }
        }
        if !notes.is_empty() && !g.has_limit() {
            // Nothing readable is left to end the search: think for a fixed time rather
            // than forever, since whoever sent this is waiting for a `bestmove`.
            g.movetime = Some(MALFORMED_GO_MOVETIME_MS);
            notes.push(format!("no usable limit left, searching {MALFORMED_GO_MOVETIME_MS} ms"));
        }
        if !notes.is_empty() {
            send(&format!("info string error: ignored in go: {}", notes.join("; ")));
        }
        // A strength limit stops after the iteration that reaches its node budget (and at
        // its hard cap in any case), on top of whatever `go` asked.
        let strength = self.options.strength(strength_seed());
        let (nodes, soft_nodes) = match strength {
            Some(s) => (Some(g.nodes.map_or(s.hard_nodes(), |n| n.min(s.hard_nodes()))), Some(s.node_budget())),
            None => (g.nodes, None),
        };
        let limits = Limits {
            depth: g.depth,
            nodes,
            soft_nodes,
            mate: g.mate,
            clock: g.clock(white),
            infinite: g.infinite,
            searchmoves,
            multipv: self.options.multipv,
            move_overhead_ms: self.options.move_overhead,
            strength,
        };
        let wait_for_stop = g.infinite;
        let chess960 = self.options.chess960;
        let wdl_root = self.options.show_wdl.then(|| WdlRoot::of(&self.board, self.options.use_nnue));
        self.control.pondering.store(g.ponder, Ordering::SeqCst);
        let evaluation_changed = std::mem::take(&mut self.evaluation_changed);
        if evaluation_changed {
            self.tt.clear();
        }
        let mut pool = self.take_pool();
        if evaluation_changed {
            // The correction history learnt the other evaluation's errors.
            pool.clear();
        }
        pool.set_options(self.options.search);
        pool.set_network(self.searched_network());
        pool.set_tablebases(self.tablebases.clone());
        pool.set_current_move_sink(Some(Box::new(move |c: &CurrentMove| {
            send(&format!("info depth {} currmove {} currmovenumber {}", c.depth, c.mv.uci(chess960), c.number))
        })));
        let board = self.board.clone();
        let control = self.control.clone();
        let tablebases = self.tablebases.clone();
        self.spawn_job("search", move || {
            let mut reporter = UciReporter { chess960, wdl_root, last: Vec::new() };
            let result = pool.search(&board, limits, &mut reporter);
            // Tables that turned out damaged when first loaded: reported once each.
            for e in tablebases.iter().flat_map(|t| t.take_errors()) {
                send(&format!("info string error: {e}"));
            }
            // The protocol forbids `bestmove` before `stop` in infinite or ponder mode.
            let mut waited_for_ponderhit = false;
            while (wait_for_stop || control.pondering.load(Ordering::SeqCst)) && !control.stop.load(Ordering::SeqCst) {
                waited_for_ponderhit |= !wait_for_stop;
                std::thread::sleep(Duration::from_millis(1));
            }
            // A ponderhit after the search ended: the last score was sent while the move
            // was still a guess, so it is sent again for the move that is now played.
            if waited_for_ponderhit && !control.stop.load(Ordering::SeqCst) {
                for l in &reporter.last {
                    send(l);
                }
            }
            let s = result.stats;
            let ms = result.time.as_millis().max(1);
            send(&format!(
                "info string nodes {} qnodes {} ({:.1}%) see-pruned {} delta-pruned {} nps {}",
                s.nodes,
                s.qnodes,
                100.0 * s.qnodes as f64 / s.nodes.max(1) as f64,
                s.see_pruned,
                s.delta_pruned,
                s.nodes as u128 * 1000 / ms
            ));
            send(&bestmove_line(result.best, result.ponder, chess960));
            Some(pool)
        });
    }
}

/// A new seed for each limited-strength search's random choice.
fn strength_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// The answer to `go` after a rejected `position`.
pub const REJECTED_POSITION_BESTMOVE: &str = "bestmove 0000";

/// How long a `go` searches when none of its limits could be read.
const MALFORMED_GO_MOVETIME_MS: u64 = 1000;

fn bestmove_line(best: Move, ponder: Option<Move>, chess960: bool) -> String {
    if best.is_null() {
        return "bestmove (none)".to_string();
    }
    match ponder {
        Some(p) => format!("bestmove {} ponder {}", best.uci(chess960), p.uci(chess960)),
        None => format!("bestmove {}", best.uci(chess960)),
    }
}

/// Runs the UCI loop on standard input until `quit` or end of input.
pub fn run() {
    let mut engine = Engine::new();
    let stdin = std::io::stdin();
    let mut lock = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // Read raw bytes so that invalid UTF-8 is an error line, not the end of the loop.
        match lock.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if !engine.handle_line(line.trim()) {
                    return;
                }
            }
        }
    }
    engine.handle(Command::Quit);
}
