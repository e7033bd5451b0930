//! The principal variation: a triangular table of the best line found below each ply.

use super::params::MAX_PLY;
use crate::moves::Move;

/// A principal variation line per ply (triangular table).
pub(super) struct PvTable {
    lines: Vec<[Move; MAX_PLY + 1]>,
    lens: [usize; MAX_PLY + 1],
}

impl PvTable {
    pub(super) fn new() -> PvTable {
        PvTable { lines: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1], lens: [0; MAX_PLY + 1] }
    }
    pub(super) fn clear(&mut self, ply: usize) {
        self.lens[ply] = 0;
    }
    pub(super) fn update(&mut self, ply: usize, m: Move) {
        let child_len = if ply < MAX_PLY { self.lens[ply + 1] } else { 0 };
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        head[ply][0] = m;
        let n = child_len.min(MAX_PLY - 1);
        if n > 0 {
            head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        }
        self.lens[ply] = n + 1;
    }
    pub(super) fn line(&self, ply: usize) -> &[Move] {
        &self.lines[ply][..self.lens[ply]]
    }
}
