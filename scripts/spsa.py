#!/usr/bin/env python3
"""SPSA tuning of Horizon's search margins over fastchess, resumable (docs/spsa.md).

    scripts/spsa.py BINARY --state FILE [--iterations N] [--pairs P] [--tc TC]
                    [--params A,B,...] [--book EPD] [--concurrency C] [--hash MB]
                    [--fastchess PATH] [--seed S] [--rate R]
    scripts/spsa.py --show FILE        the state's values, as OpenBench lines and as options

BINARY must be built with `cargo build --release --features spsa` (its margins are UCI
options); `BINARY tunables` says which margins there are, their ranges and final steps.

Each iteration draws a random sign d_i = +-1 per parameter, plays P game pairs (each
opening with both colours) between theta + c_k d and theta - c_k d (values rounded, kept in
range), and moves theta_i by a_k (wins - losses) d_i / c_k, with OpenBench's schedule:
c_k = c_end N^g / (k+1)^g and a_k = r_end c_end^2 (A+N)^a / (A+k+1)^a, a = 0.602, g = 0.101,
A = N / 10, and r_end times R (default 1) for a run with fewer games than OpenBench's usual
tens of thousands of pairs. The state file is written after every iteration; run the same
command again to go on from there (the settings stored in it win over the command line's).
The state names no path: BINARY, the book and fastchess come from each command line, so a
state file kept in the repository goes on in another checkout or on another machine.
Resuming refuses a BINARY whose tunables (default, range, steps) differ from the state's:
its search is not the one being tuned.
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile

ALPHA = 0.602
GAMMA = 0.101
A_SHARE = 0.1  # A = this share of the iterations
GAMES = re.compile(r"^Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", re.M)
# Games fastchess ended for a fault, not on the board: time losses, crashes, illegal moves.
FAULT = re.compile(r"^Finished game .*\{.*(loses on time|disconnects|connection stalls|illegal move|interrupted)", re.M)


def die(msg):
    print(f"spsa.py: {msg}", file=sys.stderr)
    sys.exit(2)


def read_tunables(binary):
    """(name, default, min, max, c_end, r_end) for each line of `BINARY tunables`."""
    try:
        out = subprocess.run([binary, "tunables"], capture_output=True, text=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError) as e:
        die(f"cannot run '{binary} tunables': {e}")
    params = []
    for line in out.splitlines():
        f = [x.strip() for x in line.split(",")]
        if len(f) != 7 or f[1] != "int":
            die(f"unexpected line from '{binary} tunables': {line!r}")
        params.append({"name": f[0], "default": int(f[2]), "min": int(f[3]), "max": int(f[4]),
                       "c_end": float(f[5]), "r_end": float(f[6]), "value": float(f[2])})
    if not params:
        die(f"'{binary} tunables' listed nothing")
    return params


def check_spsa_build(binary):
    """Refuses a binary whose margins are not UCI options (built without --features spsa)."""
    try:
        out = subprocess.run([binary], input="uci\nquit\n", capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as e:
        die(f"cannot run '{binary}': {e}")
    if "option name RFP_MARGIN " not in out:
        die(f"'{binary}' has no tuning options: build it with `cargo build --release --features spsa`")


def new_state(args):
    params = read_tunables(args.binary)
    if args.params:
        wanted = [p.strip() for p in args.params.split(",") if p.strip()]
        known = {p["name"] for p in params}
        for w in wanted:
            if w not in known:
                die(f"unknown parameter '{w}' (known: {', '.join(sorted(known))})")
        params = [p for p in params if p["name"] in wanted]
    return {"iterations": args.iterations, "pairs": args.pairs, "tc": args.tc, "hash": args.hash,
            "seed": args.seed, "rate": args.rate, "iteration": 0, "params": params, "history": []}


SHAPE = ("default", "min", "max", "c_end", "r_end")


def check_same_tunables(state, binary):
    """Refuses to resume with a binary whose margins are not the ones the state tunes."""
    have = {p["name"]: p for p in read_tunables(binary)}
    for p in state["params"]:
        q = have.get(p["name"])
        if q is None:
            die(f"'{binary}' has no tunable {p['name']}, which the state tunes")
        for key in SHAPE:
            if q[key] != p[key]:
                die(f"'{binary}' has {p['name']} {key} {q[key]}, the state {p[key]}: "
                    "its search is not the one this run tunes")


def save(state, path):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)  # never a half-written state


def rounded(p, x):
    return min(p["max"], max(p["min"], math.floor(x + 0.5)))


def play(state, env, plus, minus, k):
    """Plays the iteration's game pairs; returns (wins, losses, draws) of the plus side and
    the number of games that ended in a fault (a time loss, a crash or an illegal move)."""
    def engine(name, values):
        return ["-engine", f"cmd={env['binary']}", f"name={name}"] + \
               [f"option.{n}={v}" for n, v in values.items()]
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [env["fastchess"]] + engine("plus", plus) + engine("minus", minus) + [
            "-each", "proto=uci", f"tc={state['tc']}", f"option.Hash={state['hash']}",
            "-openings", f"file={env['book']}", "format=epd", "order=random",
            "-srand", str(state["seed"] * 1_000_003 + k),
            "-games", "2", "-repeat", "-rounds", str(state["pairs"]), "-concurrency", str(env["concurrency"]),
            "-resign", "movecount=4", "score=1000", "-draw", "movenumber=40", "movecount=8", "score=10",
            "-config", f"outname={os.path.join(tmp, 'state.json')}"]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=24 * 3600)
        except (OSError, subprocess.SubprocessError) as e:
            die(f"fastchess failed: {e}")
    found = GAMES.findall(r.stdout)
    if r.returncode != 0 or not found:
        tail = "\n".join((r.stdout + r.stderr).splitlines()[-5:])
        die(f"fastchess exited {r.returncode} without a result:\n{tail}")
    games, w, l, d = map(int, found[-1])
    if games != 2 * state["pairs"]:
        die(f"fastchess played {games} games, not {2 * state['pairs']}")
    return w, l, d, len(FAULT.findall(r.stdout))


def iterate(state, path, env):
    n = state["iterations"]
    big_a = A_SHARE * n
    while state["iteration"] < n:
        k = state["iteration"]
        rng = random.Random(state["seed"] * 7919 + k)  # the same signs when an iteration is replayed
        plus, minus, steps = {}, {}, []
        for p in state["params"]:
            c_k = p["c_end"] * n ** GAMMA / (k + 1) ** GAMMA
            sign = rng.choice((-1, 1))
            plus[p["name"]] = rounded(p, p["value"] + c_k * sign)
            minus[p["name"]] = rounded(p, p["value"] - c_k * sign)
            steps.append((c_k, sign))
        w, l, d, faults = play(state, env, plus, minus, k)
        for p, (c_k, sign) in zip(state["params"], steps):
            a_k = state.get("rate", 1.0) * p["r_end"] * p["c_end"] ** 2 * (big_a + n) ** ALPHA / (big_a + k + 1) ** ALPHA
            p["value"] = min(p["max"], max(p["min"], p["value"] + a_k * (w - l) * sign / c_k))
        state["history"].append({"iteration": k, "wins": w, "losses": l, "draws": d, "faults": faults})
        state["iteration"] = k + 1
        save(state, path)
        values = "  ".join(f"{p['name']} {p['value']:.1f}" for p in state["params"])
        warn = f"  (time losses, crashes or illegal moves: {faults})" if faults else ""
        print(f"iteration {k + 1}/{n}  +{w} -{l} ={d}{warn}  {values}", flush=True)


def show(path):
    state = load(path)
    faults = sum(h.get("faults", 0) for h in state["history"])
    print(f"# {state['iteration']} of {state['iterations']} iterations, {state['pairs']} pairs each at {state['tc']},"
          f" rate {state.get('rate', 1.0)};"
          f" time losses, crashes or illegal moves: {faults}")
    for p in state["params"]:
        print(f"{p['name']}, int, {rounded(p, p['value'])}, {p['min']}, {p['max']}, {p['c_end']}, {p['r_end']}"
              f"    # default {p['default']}, now {p['value']:.2f}")
    print(" ".join(f"option.{p['name']}={rounded(p, p['value'])}" for p in state["params"]))


def load(path):
    try:
        with open(path) as f:
            state = json.load(f)
        for key in ("iterations", "pairs", "tc", "hash", "seed", "iteration", "params"):
            state[key]
        for p in state["params"]:
            for key in ("name", "value") + SHAPE:
                p[key]
        for old in ("binary", "book"):  # paths of the machine that began the run
            state.pop(old, None)
        return state
    except (OSError, ValueError, KeyError, TypeError) as e:
        die(f"cannot read the state file '{path}': {e}")


def stop(signum, frame):
    """SIGTERM or Ctrl-C: the exception makes subprocess.run kill the iteration's fastchess
    (and so its engines), and the state file keeps the last finished iteration."""
    print("spsa.py: stopped; run the same command again to go on", file=sys.stderr, flush=True)
    sys.exit(130)


def main():
    signal.signal(signal.SIGTERM, stop)
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # not when started in the background
        signal.signal(signal.SIGINT, stop)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary", nargs="?")
    ap.add_argument("--state", help="the state file (created, or resumed from)")
    ap.add_argument("--show", metavar="FILE", help="print a state file's values and stop")
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--pairs", type=int, default=8, help="game pairs per iteration")
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--params", help="comma-separated names (default: every tunable)")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--book", default=os.path.join(here, "..", "tests", "data", "8moves_v3.epd"))
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rate", type=float, default=1.0, help="multiplies every r_end (default 1)")
    ap.add_argument("--fastchess", default=os.environ.get("FASTCHESS") or shutil.which("fastchess"))
    args = ap.parse_args()
    if args.show:
        try:
            show(args.show)
            sys.stdout.flush()
        except BrokenPipeError:  # the reader stopped early (`| head -1`): nothing is wrong
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    if not args.binary or not args.state:
        die("give BINARY and --state FILE (or --show FILE)")
    for name, v in (("--iterations", args.iterations), ("--pairs", args.pairs), ("--concurrency", args.concurrency),
                    ("--hash", args.hash)):
        if v < 1:
            die(f"{name} must be at least 1, got {v}")
    if not args.fastchess or not os.access(args.fastchess, os.X_OK):
        die("no fastchess: put it on PATH or pass --fastchess PATH (docs/matches.md)")
    if not (0 < args.rate <= 100):
        die(f"--rate must be above 0 and at most 100, got {args.rate}")
    if not os.access(args.book, os.R_OK):
        die(f"cannot read the opening book '{args.book}'")
    check_spsa_build(args.binary)
    if os.path.exists(args.state):
        state = load(args.state)
        check_same_tunables(state, args.binary)
        print(f"resuming {args.state} at iteration {state['iteration']} of {state['iterations']}"
              " (the settings stored in it are used)", flush=True)
    else:
        state = new_state(args)
        save(state, args.state)
    env = {"binary": os.path.abspath(args.binary), "book": os.path.abspath(args.book),
           "fastchess": args.fastchess, "concurrency": args.concurrency}
    iterate(state, args.state, env)
    show(args.state)


if __name__ == "__main__":
    main()
