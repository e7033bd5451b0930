//! Writing results to stdout. Results go to stdout (the format other programs read), timings
//! and progress to stderr.

/// Writes `text` to stdout. A reader that has gone away (`horizon perft 7 | head -3`) only
/// means the rest is not wanted: the write error is ignored instead of panicking as
/// `print!` would.
pub fn emit(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// `println!` through [`emit`].
macro_rules! say {
    ($($arg:tt)*) => { $crate::commands::output::emit(&format!("{}\n", format_args!($($arg)*))) };
}
pub(crate) use say;
