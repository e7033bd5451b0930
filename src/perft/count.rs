//! Plain perft on one thread: the bulk-counting recursion (in a `popcnt` copy where the CPU
//! has one), and a stoppable divide for the UCI `go perft` command.

use crate::board::Board;
use crate::movegen::{MoveList, ALL};
use crate::Move;
use std::sync::atomic::{AtomicBool, Ordering};

/// Plain recursive perft.
///
/// On x86-64 CPUs with the `popcnt` instruction (detected at run time, so the binary stays
/// portable) the whole recursion runs in a copy of the code compiled with that instruction
/// enabled: bulk counting is mostly popcounts, which the baseline x86-64 target has to
/// emulate with a dozen shifts and masks.
pub fn perft(board: &mut Board, depth: u32, bulk: bool) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if !cfg!(target_feature = "popcnt") && std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports `popcnt`, checked just above.
        return unsafe { perft_popcnt(board, depth, bulk) };
    }
    perft_plain(board, depth, bulk)
}

/// `perft` for the compile-time target features.
pub(super) fn perft_plain(board: &mut Board, depth: u32, bulk: bool) -> u64 {
    perft_body(board, depth, bulk, perft_plain)
}

/// `perft` with `popcnt` enabled. Callers must make sure the CPU supports it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
pub(super) unsafe fn perft_popcnt(board: &mut Board, depth: u32, bulk: bool) -> u64 {
    perft_body(board, depth, bulk, |b, d, bulk| {
        // SAFETY: we only get here through `perft`, which checked that the CPU has `popcnt`.
        unsafe { perft_popcnt(b, d, bulk) }
    })
}

/// The perft recursion, inlined into each feature-specific copy; `recurse` is that copy.
#[inline(always)]
fn perft_body(board: &mut Board, depth: u32, bulk: bool, recurse: impl Fn(&mut Board, u32, bool) -> u64) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 && bulk {
        return board.count_moves_inline();
    }
    let mut list = MoveList::new();
    board.generate::<ALL, _>(&mut list);
    if depth == 1 {
        for &m in &list {
            board.make_inline(m);
            board.unmake_inline();
        }
        return list.len() as u64;
    }
    let mut total = 0;
    if depth == 2 && bulk {
        // Count the children's moves right here, without playing the moves in full.
        for &m in &list {
            total += board.count_after_inline(m);
        }
        return total;
    }
    for &m in &list {
        board.make_inline(m);
        total += recurse(board, depth - 1, bulk);
        board.unmake_inline();
    }
    total
}

/// Below this depth a stoppable perft runs the plain recursion without looking at the
/// stop flag: such subtrees take well under a millisecond.
const STOP_CHECK_DEPTH: u32 = 3;

/// Divide that can be interrupted: `each` gets every root move's count as soon as it is
/// known (move-generation order), and the count stops early once `stop` is set. Returns
/// false if it was stopped before the end.
pub fn divide_until(board: &Board, depth: u32, stop: &AtomicBool, mut each: impl FnMut(Move, u64)) -> bool {
    if depth == 0 {
        return true;
    }
    let mut b = board.clone();
    let list = b.legal_moves();
    for &m in &list {
        b.make(m);
        let n = perft_until(&mut b, depth - 1, stop);
        b.unmake();
        match n {
            Some(n) => each(m, n),
            None => return false,
        }
    }
    true
}

/// Bulk-counting perft that gives up (None) once `stop` is set.
fn perft_until(board: &mut Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= STOP_CHECK_DEPTH {
        return Some(perft(board, depth, true));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let list = board.legal_moves();
    let mut total = 0;
    for &m in &list {
        board.make(m);
        let n = perft_until(board, depth - 1, stop);
        board.unmake();
        total += n?;
    }
    Some(total)
}
