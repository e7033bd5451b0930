//! EPD perft suites: one position a line with its expected counts, `FEN ;D1 20 ;D2 400 ...`.

use crate::error::SuiteLineError;

/// One line of an EPD perft suite: `FEN ;D1 20 ;D2 400 ...`.
#[derive(Clone, Debug)]
pub struct SuiteEntry {
    pub fen: String,
    pub depths: Vec<(u32, u64)>,
}

/// Parses one suite line; `Ok(None)` for blank lines and `#` comments.
pub fn parse_suite_line(line: &str) -> Result<Option<SuiteEntry>, SuiteLineError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    let mut depths = Vec::new();
    for p in parts {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        let mut it = p.split_whitespace();
        let (d, n) = (it.next().unwrap_or(""), it.next().unwrap_or(""));
        let depth = d
            .strip_prefix('D')
            .and_then(|x| x.parse::<u32>().ok())
            .ok_or_else(|| SuiteLineError::BadDepth(p.to_string()))?;
        let count = n.parse::<u64>().map_err(|_| SuiteLineError::BadCount(p.to_string()))?;
        depths.push((depth, count));
    }
    if depths.is_empty() {
        return Err(SuiteLineError::NoCounts);
    }
    Ok(Some(SuiteEntry { fen, depths }))
}
