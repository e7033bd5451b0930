//! One compressed array of table values (one side to move, one leading-pawn file).
//!
//! The values are compressed in two stages. Recursive pairing replaces frequent adjacent
//! pairs of symbols by new symbols, so that one symbol stands for a run of values (a binary
//! tree whose leaves are values). The symbols are then written with a canonical Huffman
//! code, most significant bit first, into fixed-size blocks. A block holds a whole number
//! of symbols; `block_lengths` says how many values each block holds (minus one), and a
//! sparse index gives, every `span` values, the block and the offset within it of the
//! value in the middle of the span, so a lookup walks only a few block lengths.
//!
//! Header of the array, as stored in the file (all counts little-endian):
//! `flags`; then either a single byte (every value the same, flag 0x80) or
//! `log2 block size`, `log2 span`, `padding blocks`, `u32 block count`, `max code length`,
//! `min code length`, the lowest symbol of each code length from min to max (`u16` each),
//! `u16 symbol count` and 3 bytes per symbol: two 12-bit children (left, right); a right
//! child of 0xFFF marks a leaf, whose left field is the value.

use super::bytes::{u16_le, u32_be, u32_le, u8_at};
use super::error::TableError;

/// DTZ flag: the table is for this side to move (bit set: black).
pub const FLAG_STM: u8 = 1;
/// DTZ flag: values go through a per-file map.
pub const FLAG_MAPPED: u8 = 2;
/// DTZ flag: wins are stored in plies, not moves.
pub const FLAG_WIN_PLIES: u8 = 4;
/// DTZ flag: losses are stored in plies, not moves.
pub const FLAG_LOSS_PLIES: u8 = 8;
/// DTZ flag: the map holds 16-bit values.
pub const FLAG_WIDE: u8 = 16;
/// Every value of the array is the same one byte.
pub const FLAG_SINGLE_VALUE: u8 = 128;

/// Longest Huffman code a reader with a 64-bit buffer refilled 32 bits at a time handles.
const MAX_CODE_BITS: u32 = 32;
/// Largest block accepted (2^this bytes).
const MAX_BLOCK_LOG: u8 = 30;
/// Largest span accepted (2^this values).
const MAX_SPAN_LOG: u8 = 40;
/// The right child that marks a leaf symbol.
const LEAF: usize = 0xFFF;

/// The parsed header of one value array; the bytes stay in the file.
pub struct Pairs {
    pub flags: u8,
    single: Option<u16>,
    block_size: u64,
    span: u64,
    sparse_len: u64,
    block_len_count: u64,
    blocks: u64,
    min_bits: u32,
    /// Offset of the lowest symbol per code length.
    lowest_sym: usize,
    /// `base[l]`: the smallest left-aligned 64-bit code of length `min_bits + l`.
    base: Vec<u64>,
    /// Values a symbol stands for, minus one.
    symlen: Vec<u32>,
    btree: usize,
    /// Offsets of the sparse index, the block lengths and the first block (set by the
    /// table parser, which lays out all arrays of a file).
    pub sparse_index: usize,
    pub block_lengths: usize,
    pub data: usize,
    /// Number of values (the table's index range).
    pub size: u64,
}

/// The two 12-bit children of symbol `s`.
#[inline(always)]
fn children(b: &[u8], btree: usize, s: usize) -> Option<(usize, usize)> {
    let at = btree.checked_add(s.checked_mul(3)?)?;
    let (b0, b1, b2) = (u8_at(b, at)? as usize, u8_at(b, at + 1)? as usize, u8_at(b, at + 2)? as usize);
    Some(((b1 & 0xF) << 8 | b0, b2 << 4 | b1 >> 4))
}

/// A big-endian u32 of the bit stream; past the end of the file reads as zero bits (the
/// decoder may look ahead beyond the last symbol of the last block).
#[inline(always)]
fn stream_word(b: &[u8], off: usize) -> u64 {
    u32_be(b, off).unwrap_or(0) as u64
}

/// How many values each symbol stands for, minus one: 0 for a leaf, else the sum over
/// its two children plus one. The children are visited depth first with an explicit
/// stack; a symbol met again while its own subtree is open means a cycle (a damaged
/// tree), which is an error rather than endless recursion.
fn symbol_lengths(b: &[u8], btree: usize, count: usize) -> Result<Vec<u32>, TableError> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let eof = || TableError::SymbolTreeEnd;
    let mut len = vec![0u32; count];
    let mut state = vec![NEW; count];
    let mut stack: Vec<usize> = Vec::new();
    for root in 0..count {
        if state[root] != NEW {
            continue;
        }
        stack.push(root);
        while let Some(&s) = stack.last() {
            let (l, r) = children(b, btree, s).ok_or_else(eof)?;
            if r == LEAF {
                state[s] = DONE;
                stack.pop();
                continue;
            }
            if l >= count || r >= count {
                return Err(TableError::SymbolRef { symbol: s, refers: l.max(r), count });
            }
            state[s] = OPEN;
            let mut pushed = false;
            for c in [l, r] {
                match state[c] {
                    NEW => {
                        stack.push(c);
                        pushed = true;
                        break;
                    }
                    OPEN => return Err(TableError::SymbolCycle(c)),
                    _ => {}
                }
            }
            if !pushed {
                len[s] = len[l].saturating_add(len[r]).saturating_add(1);
                state[s] = DONE;
                stack.pop();
            }
        }
    }
    Ok(len)
}

impl Pairs {
    /// Parses the header at `*pos` for an array of `size` values and advances `*pos`.
    pub fn parse(b: &[u8], pos: &mut usize, size: u64) -> Result<Pairs, TableError> {
        let eof = || TableError::ValueHeaderEnd;
        let flags = u8_at(b, *pos).ok_or_else(eof)?;
        let mut p = Pairs {
            flags,
            single: None,
            block_size: 0,
            span: 1,
            sparse_len: 0,
            block_len_count: 0,
            blocks: 0,
            min_bits: 0,
            lowest_sym: 0,
            base: Vec::new(),
            symlen: Vec::new(),
            btree: 0,
            sparse_index: 0,
            block_lengths: 0,
            data: 0,
            size,
        };
        if flags & FLAG_SINGLE_VALUE != 0 {
            p.single = Some(u8_at(b, *pos + 1).ok_or_else(eof)? as u16);
            *pos += 2;
            return Ok(p);
        }
        let at = *pos + 1;
        let block_log = u8_at(b, at).ok_or_else(eof)?;
        let span_log = u8_at(b, at + 1).ok_or_else(eof)?;
        let padding = u8_at(b, at + 2).ok_or_else(eof)? as u64;
        let blocks = u32_le(b, at + 3).ok_or_else(eof)? as u64;
        let max_bits = u8_at(b, at + 7).ok_or_else(eof)? as u32;
        let min_bits = u8_at(b, at + 8).ok_or_else(eof)? as u32;
        if block_log > MAX_BLOCK_LOG || span_log > MAX_SPAN_LOG {
            return Err(TableError::BlockSize { block_log, span_log });
        }
        if min_bits == 0 || min_bits > max_bits || max_bits > MAX_CODE_BITS {
            return Err(TableError::CodeLengths { min: min_bits, max: max_bits });
        }
        p.block_size = 1 << block_log;
        p.span = 1 << span_log;
        p.sparse_len = size.div_ceil(p.span);
        p.blocks = blocks;
        p.block_len_count = blocks + padding;
        p.min_bits = min_bits;
        p.lowest_sym = at + 9;
        let lengths = (max_bits - min_bits + 1) as usize;
        let lowest = |i: usize| u16_le(b, p.lowest_sym + 2 * i).map(|v| v as u64);

        // Canonical Huffman: longer codes have smaller numeric values. base[l] is the
        // smallest code of length l, left-aligned in 64 bits, so that a code of length l
        // read from the top of the buffer lies between base[l] and base[l - 1].
        let mut base = vec![0u64; lengths];
        for i in (0..lengths - 1).rev() {
            let (lo, next) = (lowest(i).ok_or_else(eof)?, lowest(i + 1).ok_or_else(eof)?);
            base[i] = base[i + 1].wrapping_add(lo).wrapping_sub(next) / 2;
        }
        for (i, v) in base.iter_mut().enumerate() {
            *v <<= 64 - i as u32 - min_bits;
        }
        p.base = base;

        let count_at = p.lowest_sym + 2 * lengths;
        let count = u16_le(b, count_at).ok_or_else(eof)? as usize;
        p.btree = count_at + 2;
        p.symlen = symbol_lengths(b, p.btree, count)?;
        *pos = p.btree + 3 * count + (count & 1);
        if *pos > b.len() {
            return Err(eof());
        }
        Ok(p)
    }

    /// Bytes of the sparse index (6 per entry: u32 block, u16 offset).
    pub fn sparse_index_bytes(&self) -> Option<usize> {
        usize::try_from(self.sparse_len.checked_mul(6)?).ok()
    }

    /// Bytes of the block-length array (u16 each).
    pub fn block_lengths_bytes(&self) -> Option<usize> {
        usize::try_from(self.block_len_count.checked_mul(2)?).ok()
    }

    /// Bytes of the compressed blocks.
    pub fn data_bytes(&self) -> Option<usize> {
        usize::try_from(self.blocks.checked_mul(self.block_size)?).ok()
    }

    /// The value at `idx`, or `None` when the bytes do not make sense (damaged file).
    pub fn value(&self, b: &[u8], idx: u64) -> Option<u16> {
        if let Some(v) = self.single {
            return Some(v);
        }
        if idx >= self.size {
            return None;
        }
        // 1. The sparse index entry of the span holding idx, and idx's offset from it.
        let k = idx / self.span;
        if k >= self.sparse_len {
            return None;
        }
        let entry = self.sparse_index + usize::try_from(k).ok()? * 6;
        let mut block = u32_le(b, entry)? as u64;
        let mut offset = u16_le(b, entry + 4)? as i64 + (idx % self.span) as i64 - (self.span / 2) as i64;

        // 2. Walk the block lengths to the block that holds the value.
        let length = |blk: u64| -> Option<i64> {
            if blk >= self.block_len_count {
                return None;
            }
            Some(u16_le(b, self.block_lengths + 2 * blk as usize)? as i64 + 1)
        };
        while offset < 0 {
            block = block.checked_sub(1)?;
            offset += length(block)?;
        }
        loop {
            let n = length(block)?;
            if offset < n {
                break;
            }
            offset -= n;
            block += 1;
        }
        if block >= self.blocks {
            return None;
        }

        // 3. Decode Huffman symbols from the block until the one covering the offset.
        let start = self.data + usize::try_from(block * self.block_size).ok()?;
        let bit_limit = self.block_size * 8 + 64;
        let mut at = start + 8;
        let mut buf = stream_word(b, start) << 32 | stream_word(b, start + 4);
        let mut avail = 64u32;
        let mut used = 0u64;
        let mut sym = loop {
            let mut l = 0usize;
            while buf < self.base[l] {
                l += 1;
                if l >= self.base.len() {
                    return None;
                }
            }
            let bits = l as u32 + self.min_bits;
            let code = (buf - self.base[l]) >> (64 - bits);
            let sym = usize::try_from(code.checked_add(u16_le(b, self.lowest_sym + 2 * l)? as u64)?).ok()?;
            let run = *self.symlen.get(sym)? as i64 + 1;
            if offset < run {
                break sym;
            }
            offset -= run;
            buf <<= bits;
            avail -= bits;
            used += bits as u64;
            if used > bit_limit {
                return None;
            }
            if avail <= 32 {
                avail += 32;
                buf |= stream_word(b, at) << (64 - avail);
                at += 4;
            }
        };

        // 4. Descend the pair tree to the value at the offset within the symbol's run.
        while self.symlen[sym] != 0 {
            let (l, r) = children(b, self.btree, sym)?;
            let left_run = self.symlen[l] as i64 + 1;
            if offset < left_run {
                sym = l;
            } else {
                offset -= left_run;
                sym = r;
            }
        }
        Some(children(b, self.btree, sym)?.0 as u16)
    }
}
