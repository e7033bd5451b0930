//! Checking the network's incremental accumulators against refreshes: what kinds of moves a
//! walk through games went through, and the check at one ply (tests/nnue.rs,
//! tests/nnue_incremental.rs).

use horizon::eval::nnue::{evaluate, evaluate_board, Accumulator, AccumulatorStack, Network};
use horizon::{Board, Move, MoveKind, Piece};

/// What kinds of moves a walk went through, so that a test knows it covered each.
#[derive(Default, Debug)]
pub struct Seen {
    pub checked: usize,
    pub castles: usize,
    /// Chess960 castlings whose king lands on the rook's square or stays where it is.
    pub castles_king_on_rook_square: usize,
    pub en_passant: usize,
    pub promotions: [usize; 6],
    pub capture_promotions: usize,
    pub captured: [usize; 6],
    /// King moves, castling not included.
    pub king_moves: usize,
    /// King moves (castling included) across the d/e line: a mirrored network's refreshes.
    pub king_crossings: usize,
    /// King moves (castling included) into another king bucket of the mover's perspective:
    /// a king-bucket network's refreshes.
    pub king_bucket_changes: usize,
    pub nulls: usize,
    /// Moves after which the output bucket differs (counted by the caller).
    pub bucket_changes: usize,
}

impl Seen {
    /// Notes the kind of the legal move `m` on `b` (before it is made).
    pub fn record(&mut self, b: &Board, m: Move) {
        match m.kind() {
            MoveKind::Castle => {
                self.castles += 1;
                if m.king_dest() == m.to() || m.king_dest() == m.from() {
                    self.castles_king_on_rook_square += 1;
                }
            }
            MoveKind::EnPassant => self.en_passant += 1,
            MoveKind::Promotion => {
                self.promotions[m.promotion().index()] += 1;
                self.capture_promotions += usize::from(b.piece_on(m.to()).is_some());
            }
            MoveKind::Normal => self.king_moves += usize::from(b.piece_on(m.from()) == Some(Piece::King)),
        }
        if let Some(p) = b.captured_piece(m) {
            self.captured[p.index()] += 1;
        }
        let is_king_move = m.kind() == MoveKind::Castle || b.piece_on(m.from()) == Some(Piece::King);
        if is_king_move && (m.from().index() % 8 < 4) != (m.king_dest().index() % 8 < 4) {
            self.king_crossings += 1;
        }
        // The bucket by rank and folded file, written out here rather than taken from the
        // engine: back rank g–h or b–a, back rank c–f, second rank, beyond.
        let bucket = |sq: usize| {
            let (rank, file) = (if b.side_to_move() == horizon::Color::White { sq / 8 } else { 7 - sq / 8 }, sq % 8);
            match rank {
                0 if file <= 1 || file >= 6 => 0,
                0 => 1,
                1 => 2,
                _ => 3,
            }
        };
        if is_king_move && bucket(m.from().index()) != bucket(m.king_dest().index()) {
            self.king_bucket_changes += 1;
        }
    }
}

/// The stack's accumulator and evaluation at `ply` against a refresh of `b`.
pub fn check(stack: &mut AccumulatorStack, net: &Network, b: &Board, ply: usize, seen: &mut Seen) {
    let lazy = *stack.get(ply, net);
    assert!(lazy == Accumulator::refreshed(net, b), "accumulator differs from a refresh at ply {ply}: {}", b.to_fen());
    let incremental = evaluate(net, &lazy, b.side_to_move(), b.occupied().count());
    assert_eq!(incremental, evaluate_board(net, b), "evaluation at ply {ply}: {}", b.to_fen());
    seen.checked += 1;
}
