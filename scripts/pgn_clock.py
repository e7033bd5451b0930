#!/usr/bin/env python3
"""How each engine spent its clock in a match's PGN (fastchess or cutechess move comments).

Reads the `{score/depth time}` comments the runners write after every move
(`{+0.35/16 0.812s}`, or the time in `ms`), and the time control
from the `TimeControl` tag (`10+0.1`). For each engine it prints the average time and depth
per move in bands of ten of its own moves, and the clock it had left when its games ended
(base + increments - time used): an engine that ends most games with a third of its clock
spent too little of it.

Usage: scripts/pgn_clock.py GAMES.pgn [MORE.pgn ...]
Players are named by the `White`/`Black` tags (the runner's `name=`), followed by the
engine's own name from `EngineWhiteName`/`EngineBlackName` when the runner wrote one.
Games without a time control or readable comments are skipped and counted.
"""

import re
import sys
from collections import defaultdict

BAND = 10
LAST_BAND = 6  # moves 60 and later share one band
COMMENT = re.compile(r"\{([^}]*)\}")
TIMING = re.compile(r"/(\d+) ([\d.]+)(ms|s)\b")
TAG = re.compile(r'^\[(\w+) "([^"]*)"\]', re.M)


def games(text):
    """Yields (tags, movetext) for each game of a PGN file."""
    for chunk in re.split(r"\n(?=\[Event )", text):
        head, _, body = chunk.partition("\n\n")
        tags = dict(TAG.findall(head))
        if tags:
            yield tags, body


def time_control(tag):
    """'10+0.1' -> (10.0, 0.1); '40/60' and the like -> None (not a sudden-death clock)."""
    m = re.fullmatch(r"([\d.]+)(?:\+([\d.]+))?", tag or "")
    return (float(m.group(1)), float(m.group(2) or 0)) if m else None


def label(tags, colour):
    """The player's name in the match ('new'), with the engine's own name if it differs."""
    player = tags.get(colour, colour.lower())
    engine = tags.get(f"Engine{colour}Name")
    return f"{player} ({engine})" if engine and engine != player else player


def main(paths):
    per_band = defaultdict(lambda: defaultdict(list))  # engine -> band -> [(secs, depth)]
    left = defaultdict(list)  # engine -> clock left at each game's end
    skipped = 0
    for path in paths:
        try:
            text = open(path, encoding="utf-8", errors="replace").read()
        except OSError as e:
            print(f"error: cannot read {path}: {e.strerror}", file=sys.stderr)
            return 1
        for tags, body in games(text):
            tc = time_control(tags.get("TimeControl"))
            names = [label(tags, "White"), label(tags, "Black")]
            timings = [TIMING.search(c) for c in COMMENT.findall(body)]
            if tc is None or not any(timings):
                skipped += 1
                continue
            # Black moves first in a game set up with black to move.
            first = 1 if " b " in tags.get("FEN", " w ") else 0
            used = [0.0, 0.0]
            moves = [0, 0]
            for i, m in enumerate(timings):
                side = (i + first) % 2
                if not m:
                    continue
                secs = float(m.group(2)) / (1000 if m.group(3) == "ms" else 1)
                used[side] += secs
                per_band[names[side]][min(moves[side] // BAND, LAST_BAND)].append(
                    (secs, int(m.group(1))))
                moves[side] += 1
            for side in (0, 1):
                if moves[side]:
                    left[names[side]].append(tc[0] + tc[1] * moves[side] - used[side])
    for name in sorted(per_band):
        bands = per_band[name]
        print(name)
        for b in sorted(bands):
            v = bands[b]
            band = f"moves {b * BAND + 1}-{b * BAND + BAND}" if b < LAST_BAND else \
                f"moves {b * BAND + 1}+"
            print(f"  {band:<12} {sum(s for s, _ in v) / len(v):6.3f} s  "
                  f"depth {sum(d for _, d in v) / len(v):5.1f}  ({len(v)} moves)")
        ends = sorted(left[name])
        print(f"  clock left at the end: median {ends[len(ends) // 2]:.2f} s, "
              f"lowest {ends[0]:.2f} s ({len(ends)} games)")
    if skipped:
        print(f"{skipped} games skipped (no time control or no timed comments)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 else 2)
    sys.exit(main(sys.argv[1:]))
