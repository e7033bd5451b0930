#!/usr/bin/env python3
"""Checks Horizon the way python-chess (and so lichess-bot) talks to it.

1. `configure` with lichess-bot's example `uci_options` (config.yml.default: Move Overhead
   100, Threads 4, Hash 512, SyzygyPath, UCI_ShowWDL true; SyzygyPath given as
   tests/data/syzygy) must be accepted: python-chess refuses an option the engine does not
   list, and lichess-bot then cannot start the engine.
2. `engine.analyse` with `multipv=3` must return a `score` in every line, and a `wdl` too
   when UCI_ShowWDL is on (its three numbers summing to 1000), in
   - an ordinary position (three lines expected),
   - a checkmated root, Black to move (7k/6Q1/6K1/8/8/8/8/8 b): mated (`Mate(0)`), WDL a loss,
   - a stalemated root (7k/5Q2/6K1/8/8/8/8/8 b): 0, WDL a draw,
   - a KQvKR tablebase win, White to move, with the tables of tests/data/syzygy: a
     winning score, WDL mostly a win, in the two lines of the least-DTZ wins.
Each analysis is to depth 8 with a 30-second cap; one that needs the cap (a search that
never completes its depths) is a failure.
Each case is reported on one line; the script exits 1 if any check failed.

Needs python-chess (`pip install chess`). Usage, from the repository:
    python3 scripts/python_chess_check.py [ENGINE] [SYZYGY_DIR]
(defaults: target/release/horizon and tests/data/syzygy). See docs/lichess-bot.md.
"""

import os
import sys

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("python-chess is missing: pip install chess")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ENGINE = os.path.join(ROOT, "target", "release", "horizon")
DEFAULT_SYZYGY = os.path.join(ROOT, "tests", "data", "syzygy")
DEPTH = 8
CAP_SECONDS = 30


def lichess_bot_options(syzygy):
    """The example uci_options of lichess-bot's config.yml.default, SyzygyPath made real."""
    return {"Move Overhead": 100, "Threads": 4, "Hash": 512, "SyzygyPath": syzygy,
            "UCI_ShowWDL": True}


# name, FEN, lines expected (None: at least one), what the score and WDL must say
CASES = [
    ("ordinary", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", 3, None),
    ("checkmated", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", None, "mated"),
    ("stalemated", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", None, "draw"),
    # With tables at the root the lines are only the moves Horizon would play (the
    # least-DTZ wins: two here), docs/syzygy.md.
    ("tablebase KQvKR", "8/8/k7/5Q2/1r6/5K2/8/8 w - - 0 1", 2, "win"),
]


def check_line(info, expect, want_wdl):
    """The faults of one analysis line (an empty list when it is right)."""
    faults = []
    score = info.get("score")
    if score is None:
        return ["no score"]
    relative = score.relative
    if expect == "mated" and relative != chess.engine.Mate(0):
        faults.append(f"score {relative}, not mated (Mate(0))")
    if expect == "draw" and relative != chess.engine.Cp(0):
        faults.append(f"score {relative}, not 0")
    if expect == "win" and not relative > chess.engine.Cp(0):
        faults.append(f"score {relative}, not a win")
    if not want_wdl:
        return faults
    wdl = info.get("wdl")
    if wdl is None:
        return faults + ["no wdl"]
    w, d, l = wdl.relative
    if w + d + l != 1000:
        faults.append(f"wdl {w} {d} {l} does not sum to 1000")
    if expect == "mated" and l != 1000:
        faults.append(f"wdl {w} {d} {l}, not a loss")
    if expect == "draw" and d != 1000:
        faults.append(f"wdl {w} {d} {l}, not a draw")
    if expect == "win" and w <= max(d, l):
        faults.append(f"wdl {w} {d} {l}, not mostly a win")
    return faults


def describe(info):
    """A short text of one line: score, wdl, first move."""
    score = info.get("score")
    wdl = info.get("wdl")
    pv = info.get("pv") or []
    return (f"score {score.relative if score else '-'}"
            f" wdl {' '.join(map(str, wdl.relative)) if wdl else '-'}"
            f" pv {pv[0].uci() if pv else '-'}")


def main():
    engine_path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_ENGINE
    syzygy = sys.argv[2] if len(sys.argv) > 2 else DEFAULT_SYZYGY
    failed = 0
    print(f"python-chess {chess.__version__}, engine {engine_path}")
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        print(f"engine id: {engine.id.get('name', '?')}")
        options = lichess_bot_options(syzygy)
        try:
            engine.configure(options)
            print(f"ok   configure {options}")
            want_wdl = True
        except chess.engine.EngineError as error:
            print(f"FAIL configure: {error}")
            failed += 1
            options.pop("UCI_ShowWDL")
            engine.configure(options)
            print("     (the analyses below run without UCI_ShowWDL and do not ask for wdl)")
            want_wdl = False
        for name, fen, lines_wanted, expect in CASES:
            board = chess.Board(fen)
            infos = engine.analyse(board, chess.engine.Limit(depth=DEPTH, time=CAP_SECONDS), multipv=3)
            faults = []
            if not infos:
                faults.append("no analysis line")
            if lines_wanted is not None and len(infos) != lines_wanted:
                faults.append(f"{len(infos)} lines, not {lines_wanted}")
            if lines_wanted is not None and infos and infos[0].get("depth", 0) < DEPTH:
                faults.append(f"stopped at depth {infos[0].get('depth', 0)} of {DEPTH} by the time cap")
            for i, info in enumerate(infos, 1):
                faults += [f"line {i}: {f}" for f in check_line(info, expect, want_wdl)]
            shown = "; ".join(describe(info) for info in infos) or "nothing"
            status = "FAIL" if faults else "ok  "
            detail = f" -- {', '.join(faults)}" if faults else ""
            print(f"{status} {name} ({fen}): {shown}{detail}")
            failed += bool(faults)
    print("PASS" if failed == 0 else f"{failed} check(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
