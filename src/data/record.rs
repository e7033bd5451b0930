//! The 32-byte binary training record (`datagen --format bin`, `convert`, `train`).
//!
//! # Layout (little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 0–7 | occupancy: u64 bitboard of all pieces (bit 0 = a1, bit 63 = h8) |
//! | 8–23 | pieces: up to 32 nibbles, one per set bit of the occupancy in increasing square order; the low nibble of byte 8 is the first piece. Nibble = colour × 8 + piece (pawn 0 … king 5; white 0, black 1). Unused nibbles 0. |
//! | 24 | side to move: 0 white, 1 black |
//! | 25 | en passant square (0–63) or 64 if none |
//! | 26–27 | score: i16, centipawns from White's point of view, clamped to ±32000 |
//! | 28 | result from White's point of view: 0 Black won, 1 draw, 2 White won |
//! | 29 | halfmove clock (saturating at 255) |
//! | 30–31 | fullmove number: u16 |
//!
//! Castling rights are not stored. A file is a plain concatenation of records.
//!
//! Decoding ([`Record::from_bytes`]) checks everything a network input relies on — at most 32
//! pieces, valid nibbles, zero padding, exactly one king per side, no pawn on a back rank,
//! side, en passant square, score and result in range — and says what is wrong otherwise. It
//! does not check full legality (a record is data, not a game); [`Record::to_board`] does.

use crate::board::Board;
use crate::hash::{fnv1a64, mix64};
use crate::types::{Color, Piece, Square};
use std::fmt;

/// Bytes in one record.
pub const RECORD_SIZE: usize = 32;
/// Scores are clamped to this many centipawns either way.
pub const MAX_SCORE: i32 = 32000;
/// The en passant byte when there is no en passant square.
pub const NO_EP: u8 = 64;
/// Result byte values (White's point of view).
pub const RESULT_BLACK_WINS: u8 = 0;
pub const RESULT_DRAW: u8 = 1;
pub const RESULT_WHITE_WINS: u8 = 2;
/// Most pieces a record can hold (16 bytes of nibbles).
pub const MAX_PIECES: usize = 32;

/// One record as stored: 32 raw bytes.
pub type RawRecord = [u8; RECORD_SIZE];

/// Why 32 bytes are not a usable record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    TooManyPieces(u32),
    BadNibble {
        index: usize,
        value: u8,
    },
    NonZeroPadding,
    KingCount {
        color: &'static str,
        count: u32,
    },
    PawnOnBackRank,
    BadSide(u8),
    BadEnPassant(u8),
    BadScore(i16),
    BadResult(u8),
    /// Decodes, but is not a position the board accepts (e.g. the side not to move in check).
    Illegal(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            RecordError::TooManyPieces(n) => write!(f, "{n} pieces (at most {MAX_PIECES})"),
            RecordError::BadNibble { index, value } => write!(f, "piece {index} has code {value} (not a piece)"),
            RecordError::NonZeroPadding => write!(f, "unused piece nibbles are not zero"),
            RecordError::KingCount { color, count } => write!(f, "{count} {color} kings (exactly one needed)"),
            RecordError::PawnOnBackRank => write!(f, "a pawn on the first or eighth rank"),
            RecordError::BadSide(s) => write!(f, "side to move {s} (0 or 1)"),
            RecordError::BadEnPassant(s) => write!(f, "en passant square {s} (0-63 or 64)"),
            RecordError::BadScore(s) => write!(f, "score {s} beyond +-{MAX_SCORE}"),
            RecordError::BadResult(r) => write!(f, "result {r} (0, 1 or 2)"),
            RecordError::Illegal(e) => write!(f, "not a legal position: {e}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A decoded record. `pieces[i]` is the nibble of the `i`-th set bit of `occupancy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub occupancy: u64,
    /// The 16 bytes of packed nibbles, as stored.
    pub packed: [u8; 16],
    pub stm: Color,
    /// En passant square index (0–63) or [`NO_EP`].
    pub ep: u8,
    /// Centipawns, White's point of view.
    pub score: i16,
    /// [`RESULT_BLACK_WINS`], [`RESULT_DRAW`] or [`RESULT_WHITE_WINS`].
    pub result: u8,
    pub halfmove: u8,
    pub fullmove: u16,
}

/// The nibble of a piece: colour × 8 + piece.
#[inline(always)]
pub const fn nibble(c: Color, p: Piece) -> u8 {
    (c as u8) * 8 + p as u8
}

impl Record {
    /// The record of `board` with the search score (centipawns, White's view, clamped) and
    /// the game's result byte.
    pub fn from_board(board: &Board, white_score: i32, result: u8) -> Record {
        let occ = board.occupied();
        let mut packed = [0u8; 16];
        for (i, sq) in occ.enumerate() {
            let p = board.piece_on(sq).expect("occupied square holds a piece");
            let c = board.color_on(sq).expect("occupied square has a colour");
            packed[i / 2] |= nibble(c, p) << (4 * (i % 2));
        }
        Record {
            occupancy: occ.raw(),
            packed,
            stm: board.side_to_move(),
            ep: board.ep_square().map_or(NO_EP, |s| s.index() as u8),
            score: white_score.clamp(-MAX_SCORE, MAX_SCORE) as i16,
            result,
            halfmove: board.halfmove_clock().min(255) as u8,
            fullmove: board.fullmove_number(),
        }
    }

    /// The 32 bytes of the record.
    pub fn to_bytes(&self) -> RawRecord {
        let mut b = [0u8; RECORD_SIZE];
        b[0..8].copy_from_slice(&self.occupancy.to_le_bytes());
        b[8..24].copy_from_slice(&self.packed);
        b[24] = self.stm as u8;
        b[25] = self.ep;
        b[26..28].copy_from_slice(&self.score.to_le_bytes());
        b[28] = self.result;
        b[29] = self.halfmove;
        b[30..32].copy_from_slice(&self.fullmove.to_le_bytes());
        b
    }

    /// Decodes and validates 32 bytes (see the module documentation for what is checked).
    pub fn from_bytes(b: &RawRecord) -> Result<Record, RecordError> {
        let occupancy = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
        let count = occupancy.count_ones();
        if count as usize > MAX_PIECES {
            return Err(RecordError::TooManyPieces(count));
        }
        let mut packed = [0u8; 16];
        packed.copy_from_slice(&b[8..24]);
        let mut kings = [0u32; 2];
        let mut occ = occupancy;
        for i in 0..count as usize {
            let sq = occ.trailing_zeros();
            occ &= occ - 1;
            let v = (packed[i / 2] >> (4 * (i % 2))) & 0xF;
            let piece = v & 7;
            if piece > 5 {
                return Err(RecordError::BadNibble { index: i, value: v });
            }
            if piece == Piece::King as u8 {
                kings[(v >> 3) as usize] += 1;
            }
            if piece == Piece::Pawn as u8 && !(8..56).contains(&sq) {
                return Err(RecordError::PawnOnBackRank);
            }
        }
        for i in count as usize..MAX_PIECES {
            if (packed[i / 2] >> (4 * (i % 2))) & 0xF != 0 {
                return Err(RecordError::NonZeroPadding);
            }
        }
        for (c, name) in [(0, "white"), (1, "black")] {
            if kings[c] != 1 {
                return Err(RecordError::KingCount { color: name, count: kings[c] });
            }
        }
        let stm = match b[24] {
            0 => Color::White,
            1 => Color::Black,
            s => return Err(RecordError::BadSide(s)),
        };
        if b[25] > NO_EP {
            return Err(RecordError::BadEnPassant(b[25]));
        }
        let score = i16::from_le_bytes([b[26], b[27]]);
        if (score as i32).abs() > MAX_SCORE {
            return Err(RecordError::BadScore(score));
        }
        if b[28] > RESULT_WHITE_WINS {
            return Err(RecordError::BadResult(b[28]));
        }
        Ok(Record {
            occupancy,
            packed,
            stm,
            ep: b[25],
            score,
            result: b[28],
            halfmove: b[29],
            fullmove: u16::from_le_bytes([b[30], b[31]]),
        })
    }

    /// The pieces as (square, colour, piece), in increasing square order. Only for a record
    /// that came from [`Record::from_bytes`] or [`Record::from_board`] (nibbles valid).
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Color, Piece)> + '_ {
        let mut occ = self.occupancy;
        (0..self.occupancy.count_ones() as usize).map(move |i| {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let v = (self.packed[i / 2] >> (4 * (i % 2))) & 0xF;
            let c = if v & 8 == 0 { Color::White } else { Color::Black };
            (Square::from_index(sq), c, Piece::from_index((v & 7) as usize))
        })
    }

    /// The position's FEN (castling `-`, as castling rights are not stored).
    pub fn fen(&self) -> String {
        let mut grid = [None; 64];
        for (sq, c, p) in self.pieces() {
            grid[sq.index()] = Some((c, p));
        }
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0u8;
            for file in 0..8 {
                match grid[rank * 8 + file] {
                    None => empty += 1,
                    Some((c, p)) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        let ch = p.char();
                        s.push(if c == Color::White { ch.to_ascii_uppercase() } else { ch });
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.stm == Color::White { " w - " } else { " b - " });
        if self.ep < NO_EP {
            s.push_str(&Square::from_index(self.ep as usize).to_string());
        } else {
            s.push('-');
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove.max(1)));
        s
    }

    /// The position as a board (no castling rights), or why the board refuses it.
    pub fn to_board(&self) -> Result<Board, RecordError> {
        Board::from_fen(&self.fen()).map_err(|e| RecordError::Illegal(e.to_string()))
    }

    /// The score from the side to move's point of view.
    pub fn stm_score(&self) -> i32 {
        if self.stm == Color::White {
            self.score as i32
        } else {
            -(self.score as i32)
        }
    }

    /// The result as 0, 0.5 or 1 from White's point of view.
    pub fn white_result(&self) -> f32 {
        self.result as f32 * 0.5
    }

    /// The key that identifies a duplicate: placement and side to move ([`raw_dedup_key`]).
    pub fn dedup_key(&self) -> u64 {
        raw_dedup_key(&self.to_bytes())
    }
}

/// The key that identifies a duplicate, from a record's bytes: placement and side to move,
/// the first 25 bytes (a 64-bit mix of them; collisions among tens of millions of positions
/// are vanishingly rare).
pub fn raw_dedup_key(raw: &RawRecord) -> u64 {
    // FNV alone mixes the high bits weakly; finish with SplitMix64's output function.
    mix64(fnv1a64(&raw[..DEDUP_KEY_BYTES]))
}

/// The bytes of a record that say where the pieces stand and who is to move.
const DEDUP_KEY_BYTES: usize = 25;
