#!/usr/bin/env python3
"""Writes the independent oracle for Horizon's Syzygy prober.

python-chess (`chess.syzygy`, an independent implementation of the same format) probes the
same 3-4 piece tables for random legal positions: every table's material with either colour
stronger, both sides to move, and positions with a legal en passant capture where the
material has pawns on both sides. Each output line is `fen,wdl,dtz`.

Usage: scripts/syzygy_oracle.py TABLE_DIR [COUNT] [SEED] > tests/data/syzygy/oracle.csv
"""

import random
import sys

import chess
import chess.syzygy

PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}
# Every table with at most four pieces, stronger side first.
TABLES = """KBBvK KBNvK KBPvK KBvK KBvKB KBvKN KBvKP KNNvK KNPvK KNvK KNvKN KNvKP KPPvK KPvK KPvKP
KQBvK KQNvK KQPvK KQQvK KQRvK KQvK KQvKB KQvKN KQvKP KQvKQ KQvKR KRBvK KRNvK KRPvK KRRvK
KRvK KRvKB KRvKN KRvKP KRvKR""".split()
# Share of positions generated with an en passant right (when the material allows one).
EP_SHARE = 0.5


def random_position(rng, white, black):
    """A random legal placement of the pieces, or None."""
    board = chess.Board(None)
    squares = list(range(64))
    rng.shuffle(squares)
    for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
        for ch in pieces:
            sq = squares.pop()
            if ch == "P" and chess.square_rank(sq) in (0, 7):
                return None
            board.set_piece_at(sq, chess.Piece(PIECES[ch], color))
    board.turn = rng.choice((chess.WHITE, chess.BLACK))
    return board if board.is_valid() else None


def with_en_passant(rng, board):
    """The board with a legal en passant right for the side to move, or None: a pawn of the
    other side on its fourth rank that could just have advanced two squares."""
    them = not board.turn
    fourth = 3 if them == chess.WHITE else 4
    step = -8 if them == chess.WHITE else 8
    candidates = [sq for sq in board.pieces(chess.PAWN, them) if chess.square_rank(sq) == fourth]
    rng.shuffle(candidates)
    for sq in candidates:
        passed, origin = sq + step, sq + 2 * step
        if board.piece_at(passed) or board.piece_at(origin):
            continue
        b = board.copy()
        b.ep_square = passed
        if b.is_valid() and b.has_legal_en_passant():
            return b
    return None


def main():
    table_dir = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 29
    rng = random.Random(seed)
    tb = chess.syzygy.open_tablebase(table_dir)
    per_table = count // (2 * len(TABLES)) + 1
    out = []
    for name in TABLES:
        strong, weak = name.split("v")
        both_pawns = "P" in strong and "P" in weak
        for white, black in ((strong, weak), (weak, strong)):
            # Where both sides have pawns, a share of the positions has an en passant right.
            want_ep = int(per_table * EP_SHARE) if both_pawns else 0
            made = made_ep = tries = 0
            while (made < per_table or made_ep < want_ep) and tries < 1000000:
                tries += 1
                board = random_position(rng, white, black)
                if board is None:
                    continue
                if made_ep < want_ep:
                    board = with_en_passant(rng, board)
                    if board is None:
                        continue
                    made_ep += 1
                elif made >= per_table:
                    continue
                else:
                    made += 1
                wdl = tb.probe_wdl(board)
                dtz = tb.probe_dtz(board)
                out.append(f"{board.fen()},{wdl},{dtz}")
    print(f"# python-chess {chess.__version__} chess.syzygy on the 3-4 piece tables; seed {seed}; fen,wdl,dtz")
    print("\n".join(out))


if __name__ == "__main__":
    main()
