//! FEN parsing (standard, Shredder-FEN and X-FEN castling) with validation, and FEN output.

use super::{castle_bit, Board};
use crate::bitboard::Bitboard;
use crate::error::FenError;
use crate::tables;
use crate::types::{CastleSide, Color, File, Piece, Rank, Square};

impl Board {
    /// Parses a FEN (4 to 6 fields; missing move counters default to `0 1`).
    /// Castling may be `KQkq`, Shredder-FEN file letters (`HAha`) or X-FEN.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut b = Board::empty();

        // 1. Placement.
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (rank_str, rank) in ranks.iter().zip(Rank::ALL.into_iter().rev()) {
            let mut file: u32 = 0;
            for ch in rank_str.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 || d > 8 {
                        return Err(FenError::BadPieceChar(ch));
                    }
                    file += d;
                } else {
                    let p = Piece::from_char(ch).ok_or(FenError::BadPieceChar(ch))?;
                    if file >= 8 {
                        return Err(FenError::RankLength { rank, squares: file + 1 });
                    }
                    let c = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
                    b.put(c, p, Square::new(File::from_index(file as usize), rank));
                    file += 1;
                }
            }
            if file != 8 {
                return Err(FenError::RankLength { rank, squares: file });
            }
        }
        for (c, name) in [(Color::White, "white"), (Color::Black, "black")] {
            let kings = b.colored(c, Piece::King).count();
            if kings != 1 {
                return Err(FenError::KingCount { color: name, count: kings });
            }
            if b.colored(c, Piece::Pawn).count() > 8 || b.color(c).count() > 16 {
                return Err(FenError::TooManyPieces(name));
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if let Some(sq) = (b.pieces(Piece::Pawn) & back_ranks).next() {
            return Err(FenError::PawnOnBackRank(sq));
        }

        // 2. Side to move.
        b.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::BadSide(s.to_string())),
        };

        // 3. Castling.
        if fields[2] != "-" {
            for ch in fields[2].chars() {
                b.parse_castle_char(ch, fields[2])?;
            }
        }

        // 4. En passant: accepted only where a pawn can just have made a double step; kept
        //    in the position (and key) only when a pawn can capture there.
        if fields[3] != "-" {
            let bad = || FenError::BadEnPassant(fields[3].to_string());
            let ep: Square = fields[3].parse().map_err(|_| bad())?;
            let us = b.side;
            let them = us.flip();
            // Check the rank first: the squares next to it are only on the board then.
            if ep.rank() != Rank::Sixth.relative(us) {
                return Err(bad());
            }
            let pushed = ep.ep_victim();
            let origin = Square::from_index(if us == Color::White { ep.index() + 8 } else { ep.index() - 8 });
            if !b.colored(them, Piece::Pawn).has(pushed) || b.occupied().has(ep) || b.occupied().has(origin) {
                return Err(bad());
            }
            if (tables::pawn_attacks(them, ep) & b.colored(us, Piece::Pawn)).any() {
                b.ep = Some(ep);
            }
        }

        // 5. Counters.
        if fields.len() >= 5 {
            b.halfmove = fields[4].parse().map_err(|_| FenError::BadCounter(fields[4].into()))?;
        }
        if fields.len() >= 6 {
            b.fullmove = fields[5].parse().map_err(|_| FenError::BadCounter(fields[5].into()))?;
            b.fullmove = b.fullmove.max(1);
        }

        // 6. Legality of the check situation.
        let them = b.side.flip();
        if b.attacked_by(b.side, b.king_sq(them), b.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        b.update_check_info();
        if b.checkers.count() > 2 {
            return Err(FenError::TooManyCheckers);
        }
        b.key = b.compute_key();
        b.pawn_key = b.compute_pawn_key();
        Ok(b)
    }

    /// Adds one castling right from a `KQkq` / X-FEN / Shredder-FEN character.
    fn parse_castle_char(&mut self, ch: char, field: &str) -> Result<(), FenError> {
        let c = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
        let back = Rank::First.relative(c);
        let king = self.king_sq(c);
        if king.rank() != back {
            return Err(FenError::CastlingWithoutPieces(ch));
        }
        let rooks: Vec<Square> = self.colored(c, Piece::Rook).filter(|s| s.rank() == back).collect();
        let rook = match ch.to_ascii_lowercase() {
            // Outermost rook on the king's side (X-FEN reading of K/Q).
            'k' => rooks.iter().rev().find(|s| s.file() > king.file()).copied(),
            'q' => rooks.iter().find(|s| s.file() < king.file()).copied(),
            f @ 'a'..='h' => {
                let sq = Square::new(File::from_char(f).expect("a file letter"), back);
                self.chess960 = true;
                rooks.contains(&sq).then_some(sq)
            }
            _ => return Err(FenError::BadCastling(field.to_string())),
        }
        .ok_or(FenError::CastlingWithoutPieces(ch))?;
        if rook.file() == king.file() {
            return Err(FenError::CastlingWithoutPieces(ch));
        }
        let side = if rook.file() > king.file() { CastleSide::King } else { CastleSide::Queen };
        let bit = castle_bit(c, side);
        if self.castle_rights & bit != 0 {
            return Err(FenError::BadCastling(field.to_string()));
        }
        if king.file() != File::E || (rook.file() != File::A && rook.file() != File::H) {
            self.chess960 = true;
        }
        self.add_castle_right(c, side, king, rook);
        Ok(())
    }

    /// The position as FEN. Castling is written `KQkq` for standard positions and as
    /// Shredder-FEN rook files in Chess960 positions.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for r in Rank::ALL.into_iter().rev() {
            let mut empty = 0;
            for f in File::ALL {
                let sq = Square::new(f, r);
                match self.piece_on(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        let ch = p.char();
                        s.push(if self.colors[0].has(sq) { ch.to_ascii_uppercase() } else { ch });
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if r != Rank::First {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::White { " w " } else { " b " });
        let mut any = false;
        for c in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castle_rook(c, side) {
                    any = true;
                    let ch = if self.chess960 {
                        rook.file().char()
                    } else if side == CastleSide::King {
                        'k'
                    } else {
                        'q'
                    };
                    s.push(if c == Color::White { ch.to_ascii_uppercase() } else { ch });
                }
            }
        }
        if !any {
            s.push('-');
        }
        match self.ep {
            Some(ep) => s.push_str(&format!(" {ep}")),
            None => s.push_str(" -"),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    /// Returns the position with colours swapped and the board mirrored vertically
    /// (used to test that evaluation is symmetric).
    pub fn mirrored(&self) -> Board {
        let mut b = Board::empty();
        for c in Color::ALL {
            for p in Piece::ALL {
                for sq in self.colored(c, p) {
                    b.put(c.flip(), p, sq.flip_rank());
                }
            }
        }
        b.side = self.side.flip();
        for c in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castle_rook(c, side) {
                    let nc = c.flip();
                    let k = b.king_sq(nc);
                    b.add_castle_right(nc, side, k, rook.flip_rank());
                }
            }
        }
        b.ep = self.ep.map(|s| s.flip_rank());
        b.halfmove = self.halfmove;
        b.fullmove = self.fullmove;
        b.chess960 = self.chess960;
        b.update_check_info();
        b.key = b.compute_key();
        b.pawn_key = b.compute_pawn_key();
        b
    }
}
