//! EPD test records: a position with `bm` (best move), `am` (move to avoid) and `id`
//! operations, the format of WAC, Bratko-Kopec, STS and most tactical suites. Moves are
//! in SAN.

use crate::board::Board;
use crate::error::EpdError;
use crate::moves::Move;
use crate::san::parse_san;

/// One EPD test record: position, best moves, moves to avoid, id.
pub struct EpdRecord {
    pub board: Board,
    pub bm: Vec<Move>,
    pub am: Vec<Move>,
    pub id: String,
}

/// Parses an EPD line with `bm`/`am`/`id` operations (SAN moves).
pub fn parse_epd(line: &str) -> Result<EpdRecord, EpdError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(EpdError::TooFewFields);
    }
    let fen = fields[..4].join(" ");
    let board = Board::from_fen(&fen).map_err(EpdError::Fen)?;
    let ops = fields[4..].join(" ");
    let mut rec = EpdRecord { board, bm: Vec::new(), am: Vec::new(), id: String::new() };
    for op in ops.split(';') {
        let op = op.trim();
        let mut it = op.splitn(2, ' ');
        let (name, arg) = (it.next().unwrap_or(""), it.next().unwrap_or("").trim());
        match name {
            "bm" | "am" => {
                for san in arg.split_whitespace() {
                    let m = parse_san(&rec.board, san).ok_or_else(|| EpdError::BadMove(san.to_string()))?;
                    if name == "bm" {
                        rec.bm.push(m)
                    } else {
                        rec.am.push(m)
                    }
                }
            }
            "id" => rec.id = arg.trim_matches('"').to_string(),
            _ => {}
        }
    }
    if rec.bm.is_empty() && rec.am.is_empty() {
        return Err(EpdError::NoOperation);
    }
    Ok(rec)
}
