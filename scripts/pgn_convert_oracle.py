#!/usr/bin/env python3
"""Independent oracle for `horizon pgn-convert`, written with python-chess.

Reads fastchess PGNs and prints, to stdout, the data lines pgn-convert should write
(`<FEN> | <score> | <result>`), using the same rules (docs/openbench.md):
the position before each move, the move comment's score (the mover's point of view,
turned to White's), and the game's result; left out are positions before --min-ply,
book moves, comments without a score, mate scores, positions in check, and moves that
capture or promote. FENs name an en passant square only when a pawn could capture
there (python-chess's "xfen" mode), as Horizon writes them.

It generated tests/data/fastchess.expected.txt once:

    python3 scripts/pgn_convert_oracle.py tests/data/fastchess.pgn > tests/data/fastchess.expected.txt

It handles only well-formed games (the committed test PGN); bad games are the Rust tests' job.
"""

import re
import sys

import chess
import chess.pgn

SCORE = re.compile(r"^(?P<score>[+-]?(?:M\d+|\d+\.\d+)|ERR|)/(?P<depth>\d+)(?:\s|,|$)")
RESULTS = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}


def convert(path, min_ply=0):
    out = []
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            if game.errors:
                raise SystemExit(f"{path}: unreadable game: {game.errors}")
            result = RESULTS[game.headers["Result"]]
            board = game.board()
            for ply, node in enumerate(game.mainline()):
                move, comment = node.move, node.comment.strip()
                keep = ply >= min_ply and comment != "book"
                cp = None
                if keep:
                    m = SCORE.match(comment)
                    if m is None:
                        raise SystemExit(f"{path}: comment {{{comment}}} is not a fastchess comment")
                    s = m.group("score")
                    if s in ("", "ERR") or "M" in s:
                        keep = False
                    else:
                        cp = round(float(s) * 100)
                if keep and not board.is_check() and not board.is_capture(move) and move.promotion is None:
                    white_cp = cp if board.turn == chess.WHITE else -cp
                    out.append(f"{board.fen(en_passant='xfen')} | {white_cp} | {result}")
                board.push(move)
    return out


if __name__ == "__main__":
    for p in sys.argv[1:]:
        for line in convert(p):
            print(line)
