//! One table file: its header (piece order, groups, value arrays, the DTZ value map) and
//! the index of a position in it.
//!
//! Layout of a file (offsets from its start):
//! 1. magic (4 bytes: `71 E8 23 5D` for WDL, `D7 66 0C A5` for DTZ);
//! 2. a flag byte: bit 0 the WDL table stores both sides to move, bit 1 it has pawns;
//! 3. per leading-pawn file (a-d, or one without pawns): the group order byte(s) and one
//!    byte per piece giving the piece order (low nibble white to move, high nibble black
//!    to move; a piece is colour * 8 + type, type 1-6 for P N B R Q K, white being the side
//!    named first);
//! 4. padding to an even offset, then each array's header ([`Pairs::parse`]);
//! 5. DTZ only: the value maps of the files whose values are mapped, then an even offset;
//! 6. every array's sparse index, then every array's block lengths, then every array's
//!    blocks, each array's blocks starting at a multiple of 64 bytes.

use super::bytes::{u16_le, u8_at, TableBytes};
use super::encoding::{diagonal_offset, ENCODING, KING_PAIR_COUNT, MAX_GROUP, UNIQUE_TRIPLE_COUNT};
use super::error::TableError;
use super::material::{Material, MAX_PIECES};
use super::pairs::{Pairs, FLAG_LOSS_PLIES, FLAG_MAPPED, FLAG_STM, FLAG_WIDE, FLAG_WIN_PLIES};
use crate::board::Board;
use crate::types::{Color, Piece};

/// WDL or DTZ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Wdl,
    Dtz,
}

impl Kind {
    pub fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => [0x71, 0xE8, 0x23, 0x5D],
            Kind::Dtz => [0xD7, 0x66, 0x0C, 0xA5],
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "rtbw",
            Kind::Dtz => "rtbz",
        }
    }
}

/// Header flag: a WDL table with both sides to move.
const HEADER_SPLIT: u8 = 1;
/// Header flag: the table has pawns.
const HEADER_PAWNS: u8 = 2;
/// Group order nibble meaning "no such group".
const NO_GROUP: u8 = 0xF;
/// Sub-tables of a table with pawns: one per file of the leading pawn, a to d.
const PAWN_FILES: usize = 4;

/// What a table lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    Value(i32),
    /// A DTZ table stores the other side to move only.
    OtherSide,
    /// The bytes do not make sense: no value.
    Fail,
}

/// One (side to move, leading file) sub-table.
struct Part {
    pieces: [u8; MAX_PIECES],
    group_len: [usize; MAX_PIECES + 1],
    group_idx: [u64; MAX_PIECES + 1],
    groups: usize,
    pairs: Pairs,
    /// DTZ: byte offset and entry count of the map of each outcome (win, loss, cursed
    /// win, blessed loss).
    map: [(usize, usize); 4],
}

/// A parsed table file.
pub struct Table {
    pub kind: Kind,
    has_pawns: bool,
    symmetric: bool,
    unique: bool,
    pieces: usize,
    /// Pawns of the leading colour, and of the other.
    pawn_count: [usize; 2],
    sides: usize,
    /// Index `file * sides + side`.
    parts: Vec<Part>,
    bytes: TableBytes,
}

/// The one-byte code of a piece as a table stores it.
#[inline(always)]
fn code(c: Color, p: Piece) -> u8 {
    (c.index() as u8) << 3 | (p.index() as u8 + 1)
}

impl Table {
    /// Parses the header of `bytes` as a table of `kind` for `material` (white = the
    /// side named first). Every offset is checked against the file's length.
    pub fn parse(bytes: TableBytes, kind: Kind, material: Material) -> Result<Table, TableError> {
        let b = bytes.as_slice();
        if b.is_empty() {
            return Err(TableError::Empty);
        }
        if b.len() < 5 || b[..4] != kind.magic() {
            let other = if kind == Kind::Wdl { Kind::Dtz } else { Kind::Wdl };
            return Err(if b.len() >= 4 && b[..4] == other.magic() {
                TableError::OtherKind { found: other.extension(), extension: kind.extension() }
            } else {
                TableError::WrongMagic { extension: kind.extension() }
            });
        }
        let flags = b[4];
        let (wp, bp) = (material.pawns(0) as usize, material.pawns(1) as usize);
        let has_pawns = wp + bp > 0;
        if (flags & HEADER_PAWNS != 0) != has_pawns {
            return Err(TableError::HeaderPawns);
        }
        let symmetric = material.symmetric();
        if kind == Kind::Wdl && (flags & HEADER_SPLIT != 0) == symmetric {
            return Err(TableError::HeaderSides);
        }
        let sides = if kind == Kind::Wdl && !symmetric { 2 } else { 1 };
        let files = if has_pawns { PAWN_FILES } else { 1 };
        // The leading colour is the one with fewer pawns (white on a tie), or the only
        // one with pawns.
        let white_leads = bp == 0 || (wp > 0 && bp >= wp);
        let pawn_count = if white_leads { [wp, bp] } else { [bp, wp] };
        let both_pawns = has_pawns && pawn_count[1] > 0;
        let unique = (0..2).any(|c| (0..5).any(|p| material.counts[c][p] == 1));
        let pieces = material.total();
        let expected = {
            let mut v: Vec<u8> = Vec::new();
            for c in Color::ALL {
                for p in Piece::ALL {
                    for _ in 0..material.counts[c.index()][p.index()] {
                        v.push(code(c, p));
                    }
                }
            }
            v.sort_unstable();
            v
        };
        let lead_code = code(if white_leads { Color::White } else { Color::Black }, Piece::Pawn);

        // 3. Piece and group order of each sub-table.
        let eof = || TableError::TruncatedHeader;
        let mut pos = 5usize;
        let mut layouts = Vec::with_capacity(files * sides);
        for file in 0..files {
            let o0 = u8_at(b, pos).ok_or_else(eof)?;
            let o1 = if both_pawns { u8_at(b, pos + 1).ok_or_else(eof)? } else { 0xFF };
            let orders = [
                [o0 & 0xF, if both_pawns { o1 & 0xF } else { NO_GROUP }],
                [o0 >> 4, if both_pawns { o1 >> 4 } else { NO_GROUP }],
            ];
            pos += 1 + both_pawns as usize;
            let row = b.get(pos..pos + pieces).ok_or_else(eof)?;
            pos += pieces;
            for (side, order) in orders.iter().enumerate().take(sides) {
                let mut order_of = [0u8; MAX_PIECES];
                for (k, &byte) in row.iter().enumerate() {
                    order_of[k] = if side == 0 { byte & 0xF } else { byte >> 4 };
                }
                let mut sorted = order_of[..pieces].to_vec();
                sorted.sort_unstable();
                if sorted != expected || (has_pawns && order_of[0] != lead_code) {
                    return Err(TableError::PieceList { file, side });
                }
                let (group_len, group_idx, groups) =
                    groups(&order_of[..pieces], *order, file, has_pawns, unique, both_pawns, pawn_count)?;
                layouts.push((order_of, group_len, group_idx, groups));
            }
        }
        pos += pos & 1;

        // 4. Value-array headers.
        let mut parts = Vec::with_capacity(layouts.len());
        for (pieces_order, group_len, group_idx, groups) in layouts {
            let pairs = Pairs::parse(b, &mut pos, group_idx[groups])?;
            parts.push(Part { pieces: pieces_order, group_len, group_idx, groups, pairs, map: [(0, 0); 4] });
        }

        // 5. DTZ value maps.
        if kind == Kind::Dtz {
            for part in parts.iter_mut() {
                let f = part.pairs.flags;
                if f & FLAG_MAPPED == 0 {
                    continue;
                }
                if f & FLAG_WIDE != 0 {
                    pos += pos & 1;
                    for m in part.map.iter_mut() {
                        let n = u16_le(b, pos).ok_or_else(eof)? as usize;
                        *m = (pos + 2, n);
                        pos += 2 + 2 * n;
                    }
                } else {
                    for m in part.map.iter_mut() {
                        let n = u8_at(b, pos).ok_or_else(eof)? as usize;
                        *m = (pos + 1, n);
                        pos += 1 + n;
                    }
                }
            }
            pos += pos & 1;
        }

        // 6. Sparse indexes, block lengths, blocks.
        let too_big = || TableError::ArraySizes;
        for part in parts.iter_mut() {
            part.pairs.sparse_index = pos;
            pos = pos.checked_add(part.pairs.sparse_index_bytes().ok_or_else(too_big)?).ok_or_else(too_big)?;
        }
        for part in parts.iter_mut() {
            part.pairs.block_lengths = pos;
            pos = pos.checked_add(part.pairs.block_lengths_bytes().ok_or_else(too_big)?).ok_or_else(too_big)?;
        }
        for part in parts.iter_mut() {
            pos = pos.checked_add(63).ok_or_else(too_big)? & !63;
            part.pairs.data = pos;
            pos = pos.checked_add(part.pairs.data_bytes().ok_or_else(too_big)?).ok_or_else(too_big)?;
        }
        if pos > b.len() {
            return Err(TableError::Truncated { described: pos, len: b.len() });
        }
        Ok(Table { kind, has_pawns, symmetric, unique, pieces, pawn_count, sides, parts, bytes })
    }

    /// Is the file memory-mapped?
    pub fn is_mapped(&self) -> bool {
        self.bytes.is_mapped()
    }

    /// Looks up `board`, whose material is this table's (`flipped`: with the colours
    /// swapped). For DTZ, `wdl` is the position's WDL value (-2..=2), which selects the
    /// value map and the unit.
    pub fn lookup(&self, board: &Board, flipped: bool, wdl: i32) -> Lookup {
        self.lookup_inner(board, flipped, wdl).unwrap_or(Lookup::Fail)
    }

    fn lookup_inner(&self, board: &Board, flipped: bool, wdl: i32) -> Option<Lookup> {
        let enc = &*ENCODING;
        let black_to_move = board.side_to_move() == Color::Black;
        // 1. Tables are stored with the side named first as white; a symmetric table
        //    stores white to move only. Either case is looked up with colours swapped and
        //    the board mirrored vertically.
        let flip = flipped || (self.symmetric && black_to_move);
        let (color_flip, square_flip) = if flip { (8u8, 56usize) } else { (0, 0) };
        let stm = (flip ^ black_to_move) as usize;

        let mut squares = [0usize; MAX_PIECES];
        let mut codes = [0u8; MAX_PIECES];
        let mut size = 0;
        let mut lead_bb = 0u64;
        let mut lead = 0;
        let mut file = 0;

        // 2. With pawns, the leading pawns come first, the one nearest the edge (then the
        //    lowest) leads, and its file (mirrored to a-d) selects the sub-table.
        if self.has_pawns {
            let lead_color = if (self.parts[0].pieces[0] ^ color_flip) & 8 != 0 { Color::Black } else { Color::White };
            lead_bb = board.colored(lead_color, Piece::Pawn).raw();
            for sq in board.colored(lead_color, Piece::Pawn) {
                *squares.get_mut(size)? = sq.index() ^ square_flip;
                size += 1;
            }
            lead = size;
            let best = (0..lead).max_by_key(|&i| enc.pawn_order[squares[i]])?;
            squares.swap(0, best);
            file = (squares[0] % 8).min(7 - squares[0] % 8);
        }
        let part = self.parts.get(file * self.sides + stm % self.sides)?;
        // (A symmetric table without pawns serves both sides to move.)
        let one_sided = self.has_pawns || !self.symmetric;
        if self.kind == Kind::Dtz && one_sided && (part.pairs.flags & FLAG_STM) as usize != stm {
            return Some(Lookup::OtherSide);
        }

        // 3. The other pieces, in the order the sub-table lists them.
        for sq in board.occupied() {
            if lead_bb >> sq.index() & 1 != 0 {
                continue;
            }
            let c = board.color_on(sq)?;
            let p = board.piece_on(sq)?;
            *squares.get_mut(size)? = sq.index() ^ square_flip;
            codes[size] = code(c, p) ^ color_flip;
            size += 1;
        }
        if size != self.pieces {
            return None;
        }
        for i in lead..size {
            if codes[i] != part.pieces[i] {
                let j = (i + 1..size).find(|&j| codes[j] == part.pieces[i])?;
                codes.swap(i, j);
                squares.swap(i, j);
            }
        }

        // 4. Mirror so that the first piece stands on files a-d.
        if squares[0] % 8 > 3 {
            for s in squares[..size].iter_mut() {
                *s ^= 7;
            }
        }

        // 5. The first group's index.
        let mut idx: u64;
        if self.has_pawns {
            idx = enc.lead_pawn_index[lead][squares[0]];
            squares[1..lead].sort_by_key(|&s| enc.pawn_order[s]);
            for (i, &s) in squares.iter().enumerate().take(lead).skip(1) {
                idx += enc.binomial[i][enc.pawn_order[s] as usize];
            }
        } else {
            // Without pawns: mirror to ranks 1-4, then about the long diagonal so that
            // the first piece of the group off the diagonal lies below it.
            if squares[0] / 8 > 3 {
                for s in squares[..size].iter_mut() {
                    *s ^= 56;
                }
            }
            for i in 0..part.group_len[0] {
                let d = diagonal_offset(squares[i]);
                if d == 0 {
                    continue;
                }
                if d > 0 {
                    for s in squares[..size].iter_mut() {
                        *s = ((*s >> 3) | (*s << 3)) & 63;
                    }
                }
                break;
            }
            idx = if self.unique { unique_triple_index(&squares)? } else { king_pair_index(&squares)? };
        }
        idx = idx.checked_mul(part.group_idx[0])?;

        // 6. The other groups: combinations of the squares left free, each square
        //    counted down past the squares of earlier groups below it (and past rank 1
        //    for the second pawn group).
        let mut start = part.group_len[0];
        let mut pawn_group = self.has_pawns && self.pawn_count[1] > 0;
        for g in 1..part.groups {
            let len = part.group_len[g];
            let group = squares.get_mut(start..start + len)?;
            group.sort_unstable();
            let mut n = 0u64;
            for i in 0..len {
                let s = squares[start + i];
                let below = squares[..start].iter().filter(|&&o| o < s).count();
                let v = s.checked_sub(below + if pawn_group { 8 } else { 0 })?;
                n += *enc.binomial.get(i + 1)?.get(v)?;
            }
            pawn_group = false;
            idx = idx.checked_add(n.checked_mul(part.group_idx[g])?)?;
            start += len;
        }

        // 7. The stored value.
        let b = self.bytes.as_slice();
        let raw = part.pairs.value(b, idx)? as i32;
        Some(match self.kind {
            Kind::Wdl if (0..=4).contains(&raw) => Lookup::Value(raw - 2),
            Kind::Wdl => return None,
            Kind::Dtz => Lookup::Value(dtz_value(b, part, raw, wdl)?),
        })
    }
}

/// A DTZ table's stored value as plies to the next zeroing move, plus one.
fn dtz_value(b: &[u8], part: &Part, raw: i32, wdl: i32) -> Option<i32> {
    let flags = part.pairs.flags;
    let mut v = raw;
    if flags & FLAG_MAPPED != 0 {
        let which = match wdl {
            2 => 0,
            -2 => 1,
            1 => 2,
            -1 => 3,
            _ => 0,
        };
        let (start, len) = part.map[which];
        let i = usize::try_from(raw).ok().filter(|&i| i < len)?;
        v = if flags & FLAG_WIDE != 0 { u16_le(b, start + 2 * i)? as i32 } else { u8_at(b, start + i)? as i32 };
    }
    let in_moves = match wdl {
        2 => flags & FLAG_WIN_PLIES == 0,
        -2 => flags & FLAG_LOSS_PLIES == 0,
        _ => true,
    };
    if in_moves {
        v *= 2;
    }
    Some(v + 1)
}

/// Index of three unique pieces (first in the a1-d1-d4 triangle, the first one off the
/// diagonal below it): four cases by which pieces lie on the diagonal.
fn unique_triple_index(sq: &[usize; MAX_PIECES]) -> Option<u64> {
    let enc = &*ENCODING;
    let (s0, s1, s2) = (sq[0], sq[1], sq[2]);
    let adj1 = (s1 > s0) as u64;
    let adj2 = (s2 > s0) as u64 + (s2 > s1) as u64;
    let rank = |s: usize| (s / 8) as u64;
    let idx = if diagonal_offset(s0) != 0 {
        (enc.triangle[s0] as u64 * 63 + (s1 as u64 - adj1)) * 62 + s2 as u64 - adj2
    } else if diagonal_offset(s1) != 0 {
        (6 * 63 + rank(s0) * 28 + enc.below_diagonal[s1] as u64) * 62 + s2 as u64 - adj2
    } else if diagonal_offset(s2) != 0 {
        6 * 63 * 62
            + 4 * 28 * 62
            + rank(s0) * 7 * 28
            + (rank(s1).checked_sub(adj1)?) * 28
            + enc.below_diagonal[s2] as u64
    } else {
        6 * 63 * 62
            + 4 * 28 * 62
            + 4 * 7 * 28
            + rank(s0) * 7 * 6
            + rank(s1).checked_sub(adj1)? * 6
            + rank(s2).checked_sub(adj2)?
    };
    (idx < UNIQUE_TRIPLE_COUNT).then_some(idx)
}

/// Index of the two kings (the first in the a1-d1-d4 triangle).
fn king_pair_index(sq: &[usize; MAX_PIECES]) -> Option<u64> {
    let enc = &*ENCODING;
    let t = enc.triangle[sq[0]] as usize;
    let idx = enc.king_pairs.get(t)?[sq[1]] as u64;
    (idx < KING_PAIR_COUNT).then_some(idx)
}

/// Group lengths and index multipliers of a sub-table: the first group is the leading
/// pawns (with pawns), the two kings or three unique pieces (without); each later group
/// is a run of identical pieces. `order` says where the first group (and the second pawn
/// group) stands in the order of multiplication; the other groups follow in sequence.
#[allow(clippy::type_complexity)]
fn groups(
    pieces: &[u8],
    order: [u8; 2],
    file: usize,
    has_pawns: bool,
    unique: bool,
    both_pawns: bool,
    pawn_count: [usize; 2],
) -> Result<([usize; MAX_PIECES + 1], [u64; MAX_PIECES + 1], usize), TableError> {
    let enc = &*ENCODING;
    let bad = || TableError::GroupLayout;
    let mut len = [0usize; MAX_PIECES + 1];
    let mut n = 0;
    len[0] = 1;
    let mut first_len: i32 = if has_pawns {
        0
    } else if unique {
        3
    } else {
        2
    };
    for i in 1..pieces.len() {
        first_len -= 1;
        if first_len > 0 || pieces[i] == pieces[i - 1] {
            len[n] += 1;
        } else {
            n += 1;
            len[n] = 1;
        }
    }
    n += 1;
    if has_pawns && (len[0] != pawn_count[0] || (both_pawns && len[1] != pawn_count[1])) {
        return Err(bad());
    }
    if len.iter().any(|&l| l > MAX_GROUP) {
        return Err(bad());
    }
    let mut idx_of = [None::<u64>; MAX_PIECES + 1];
    let mut next = if both_pawns { 2 } else { 1 };
    let mut free = 64usize.checked_sub(len[0] + if both_pawns { len[1] } else { 0 }).ok_or_else(bad)?;
    let mut idx = 1u64;
    let mut k = 0u8;
    while next < n || k == order[0] || k == order[1] {
        let factor = if k == order[0] {
            idx_of[0] = Some(idx);
            if has_pawns {
                *enc.lead_pawn_total.get(len[0]).ok_or_else(bad)?.get(file).ok_or_else(bad)?
            } else if unique {
                UNIQUE_TRIPLE_COUNT
            } else {
                KING_PAIR_COUNT
            }
        } else if k == order[1] {
            idx_of[1] = Some(idx);
            enc.binomial[len[1]][48usize.checked_sub(len[0]).ok_or_else(bad)?]
        } else {
            idx_of[next] = Some(idx);
            let f = enc.binomial[len[next]][free];
            free = free.checked_sub(len[next]).ok_or_else(bad)?;
            next += 1;
            f
        };
        idx = idx.checked_mul(factor).ok_or_else(bad)?;
        k = k.checked_add(1).ok_or_else(bad)?;
        if k > 2 * NO_GROUP {
            return Err(bad());
        }
    }
    let mut group_idx = [0u64; MAX_PIECES + 1];
    for g in 0..n {
        group_idx[g] = idx_of[g].ok_or_else(bad)?;
    }
    group_idx[n] = idx;
    Ok((len, group_idx, n))
}
