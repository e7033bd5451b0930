//! Progress reports on stderr for long command-line runs (`perft`, `perft-suite`, `epd`).
//!
//! Reports never go to stdout, whose format other programs read. They appear when stderr is
//! a terminal or when the user asks for them (`--progress`); otherwise the output is exactly
//! what it would be without this module. On a terminal one line is rewritten in place and
//! erased when the work ends; elsewhere (a log file, a CI console) each report is a line of
//! its own and a last one is printed at the end.

use std::io::{IsTerminal, Write};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Time between reports on a terminal.
const TERMINAL_INTERVAL: Duration = Duration::from_millis(500);
/// Time between reports written as separate lines (logs should not fill up).
const LOG_INTERVAL: Duration = Duration::from_secs(5);

/// Whether to report progress.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Progress {
    /// Never.
    Off,
    /// Only when stderr is a terminal.
    Auto,
    /// Always (`--progress`).
    On,
}

impl Progress {
    /// `On` if the user asked for it, else `Auto` when `long` (the run is worth reporting on),
    /// else `Off`.
    pub fn choose(asked: bool, long: bool) -> Progress {
        match (asked, long) {
            (true, _) => Progress::On,
            (false, true) => Progress::Auto,
            (false, false) => Progress::Off,
        }
    }
}

/// A thread writing `status()` to stderr at intervals (see the module documentation) until
/// the reporter is finished or dropped.
pub struct Reporter {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

/// Starts reporting, if `mode` says so.
pub fn start(mode: Progress, status: impl Fn() -> String + Send + 'static) -> Reporter {
    let terminal = std::io::stderr().is_terminal();
    let show = match mode {
        Progress::Off => false,
        Progress::Auto => terminal,
        Progress::On => true,
    };
    if !show {
        return Reporter { stop: None, thread: None };
    }
    let interval = if terminal { TERMINAL_INTERVAL } else { LOG_INTERVAL };
    let (stop, stopped) = mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        // Wakes up every interval until the sender is dropped.
        while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(interval) {
            report(&status(), terminal);
        }
        if terminal {
            // Erase the line: what follows on stderr is what it always was.
            eprint!("\r\x1b[K");
        } else {
            report(&status(), false);
        }
        let _ = std::io::stderr().flush();
    });
    Reporter { stop: Some(stop), thread: Some(thread) }
}

impl Reporter {
    /// Stops reporting (the last report is written first, or the line erased on a terminal).
    pub fn finish(self) {}
}

impl Drop for Reporter {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn report(line: &str, terminal: bool) {
    if terminal {
        eprint!("\r\x1b[K{line}");
        let _ = std::io::stderr().flush();
    } else {
        eprintln!("{line}");
    }
}

/// `secs` as `m:ss` or `h:mm:ss`.
pub fn clock(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Time left for `done` of `total` units after `elapsed` seconds at the same pace, or `-`.
pub fn eta(elapsed: f64, done: u64, total: u64) -> String {
    if done == 0 || done > total {
        return "-".to_string();
    }
    clock(elapsed * (total - done) as f64 / done as f64)
}

/// A count with a metric suffix: 950, 12.3 k, 4.87 M, 85.0 G.
pub fn si(n: f64) -> String {
    let units = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (scale, unit) in units {
        if n >= scale {
            return format!("{:.2} {unit}", n / scale);
        }
    }
    format!("{n:.0}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(clock(0.2), "0:00");
        assert_eq!(clock(75.0), "1:15");
        assert_eq!(clock(3725.0), "1:02:05");
        assert_eq!(eta(10.0, 1, 4), "0:30");
        assert_eq!(eta(10.0, 0, 4), "-");
        assert_eq!(si(950.0), "950");
        assert_eq!(si(84_998_978_956.0), "85.00 G");
        assert_eq!(si(4_865_609.0), "4.87 M");
    }

    #[test]
    fn choose() {
        assert_eq!(Progress::choose(true, false), Progress::On);
        assert_eq!(Progress::choose(false, true), Progress::Auto);
        assert_eq!(Progress::choose(false, false), Progress::Off);
    }
}
