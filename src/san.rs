//! Standard algebraic notation (SAN) for reading EPD `bm`/`am` operations and for display.

use crate::board::Board;
use crate::moves::Move;
use crate::types::{CastleSide, Piece, Square};

/// Finds the legal move written `san` (check/mate marks and annotations ignored).
/// Castling is `O-O`/`O-O-O` (or with zeros).
pub fn parse_san(board: &Board, san: &str) -> Option<Move> {
    let s: String = san.trim().trim_end_matches(['+', '#', '!', '?']).to_string();
    let legal = board.legal_moves();
    if s == "O-O" || s == "0-0" || s == "O-O-O" || s == "0-0-0" {
        let king_side = s.len() == 3;
        return legal.iter().copied().find(|m| m.is_castle() && (m.castle_side() == CastleSide::King) == king_side);
    }
    let bytes = s.as_bytes();
    if bytes.len() < 2 {
        return None;
    }
    let (piece, rest) = match bytes[0] {
        b'N' | b'B' | b'R' | b'Q' | b'K' => (Piece::from_char(bytes[0] as char)?, &s[1..]),
        _ => (Piece::Pawn, &s[..]),
    };
    // Promotion suffix: "=Q" or "Q".
    let (rest, promo) = match rest.find('=') {
        Some(i) => (&rest[..i], Some(Piece::from_char(rest[i + 1..].chars().next()?)?)),
        None => match rest.chars().last() {
            Some(c) if piece == Piece::Pawn && "NBRQ".contains(c) => (&rest[..rest.len() - 1], Piece::from_char(c)),
            _ => (rest, None),
        },
    };
    let rest: String = rest.chars().filter(|&c| c != 'x' && c != '-').collect();
    if rest.len() < 2 {
        return None;
    }
    let to: Square = rest[rest.len() - 2..].parse().ok()?;
    let disamb = &rest[..rest.len() - 2];
    let mut found = None;
    for &m in legal.iter() {
        if m.is_castle() || board.piece_on(m.from()) != Some(piece) || m.to() != to {
            continue;
        }
        if m.is_promotion() != promo.is_some() || (m.is_promotion() && Some(m.promotion()) != promo) {
            continue;
        }
        let from = m.from().to_string();
        if !disamb.chars().all(|c| from.contains(c)) {
            continue;
        }
        if found.is_some() {
            return None; // ambiguous
        }
        found = Some(m);
    }
    found
}

/// The SAN of a legal move (with `+`/`#`).
pub fn to_san(board: &mut Board, m: Move) -> String {
    let mut s = String::new();
    if m.is_castle() {
        s.push_str(if m.castle_side() == CastleSide::King { "O-O" } else { "O-O-O" });
    } else {
        let piece = board.piece_on(m.from()).unwrap_or(Piece::Pawn);
        let capture = m.is_en_passant() || board.piece_on(m.to()).is_some();
        if piece == Piece::Pawn {
            if capture {
                s.push(m.from().file().char());
            }
        } else {
            s.push(piece.char().to_ascii_uppercase());
            let others: Vec<Move> = board
                .legal_moves()
                .iter()
                .copied()
                .filter(|o| *o != m && !o.is_castle() && o.to() == m.to() && board.piece_on(o.from()) == Some(piece))
                .collect();
            if !others.is_empty() {
                let same_file = others.iter().any(|o| o.from().file() == m.from().file());
                let same_rank = others.iter().any(|o| o.from().rank() == m.from().rank());
                if !same_file {
                    s.push(m.from().file().char());
                } else if !same_rank {
                    s.push(m.from().rank().char());
                } else {
                    s.push_str(&m.from().to_string());
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&m.to().to_string());
        if m.is_promotion() {
            s.push('=');
            s.push(m.promotion().char().to_ascii_uppercase());
        }
    }
    board.make(m);
    if board.in_check() {
        s.push(if board.legal_moves().is_empty() { '#' } else { '+' });
    }
    board.unmake();
    s
}
