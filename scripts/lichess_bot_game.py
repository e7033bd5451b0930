#!/usr/bin/env python3
"""Plays one offline game of Horizon through lichess-bot and lichess-bot's fake lichess server.

Run it from a lichess-bot checkout with lichess-bot's requirements installed (python-chess,
PyYAML, requests, backoff, rich); scripts/lichess_bot_check.sh clones lichess-bot, makes the
venv and runs this. It writes `config.yml` in the checkout from lichess-bot's own
`config.yml.default`, with the engine section pointing at Horizon and the example
`uci_options` kept (Move Overhead 100, Threads 4, Hash 512, UCI_ShowWDL true; SyzygyPath set
to real tables), reads it back with lichess-bot's config loader (which validates it), and
starts lichess-bot's main loop (`lib.lichess_bot.start`, one game) against
`test_bot/lichess.py`, the fake lichess API lichess-bot tests itself with. So Horizon is
started, configured and asked for moves by lichess-bot's own `lib/engine_wrapper.py`,
pondering on, exactly as on lichess.org.

The fake server's own game script (test_bot/test_bot.py) has White play four fixed pawn moves
and expects the bot to mate with them, so a real engine cannot finish it. This script keeps
the fake API and its queues and plays White itself: a second Horizon at a fixed node count
(or random moves), the first move drawn from --seed. The bot plays Black, by default at
1+1 (--tc 60+1): the fake server's own 10+0.1 is UltraBullet, which lichess does not let bots
play, and lichess-bot's default move_overhead of 2 s is a fifth of it. The game ends as
lichess ends one: mate, stalemate, insufficient material, threefold repetition or the
fifty-move rule, or a flag.

Checks: every move the bot sends is legal; its clock never runs out (time is measured from
the moment the position is sent until the move arrives, so lichess-bot's own overhead
counts, as on lichess.org; each side's first move is free, as on lichess); lichess-bot
logs the engine's evaluation for at least half of the bot's moves (python-chess keeps only
the info sent after a ponderhit, so a ponder hit answered at once shows none) and, with
UCI_ShowWDL set, a win rate with every evaluation; lichess-bot writes the game's PGN. Exits 0
when all hold, 1 otherwise; the last lines say the result and the checks. The folder given by
--work gets game.pgn, clock.csv (the bot's time for each move and the clock left) and
lichess-bot.log.

Usage (from the lichess-bot directory; see docs/lichess-bot.md):
    python3 lichess_bot_game.py --engine PATH --syzygy DIR [--tc 60+1] [--work DIR]
        [--opponent horizon|random] [--opponent-nodes N] [--seed N] [--timeout S]
        [--drop-option NAME ...]
"""

import argparse
import datetime
import json
import logging
import os
import queue
import random
import re
import shutil
import sys
import threading
import time
from multiprocessing import Manager

import chess
import chess.engine
import chess.pgn
import yaml

sys.path.insert(0, os.getcwd())
try:
    from lib import config as lb_config
    from lib import engine_wrapper
    from lib import lichess_bot
    import test_bot.lichess as fake_lichess
except ImportError as error:
    sys.exit(f"run this from a lichess-bot checkout with its requirements installed ({error})")

BOT = "b"  # the fake server's profile name; it plays Black
OPPONENT = "bo"
GAME_ID = "zzzzzzzz"
DEFAULT_TC = "60+1"  # lichess "1+1"; the fake server's own 10+0.1 is UltraBullet, closed to bots


def lichess_status(board):
    """The (status, winner) lichess would report for a finished game, or None."""
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        return None
    winner = {chess.WHITE: "white", chess.BLACK: "black", None: None}[outcome.winner]
    if outcome.termination == chess.Termination.CHECKMATE:
        return "mate", winner
    if outcome.termination == chess.Termination.STALEMATE:
        return "stalemate", None
    return "draw", None


def lichess_speed(base_ms, inc_ms):
    """lichess's name for a clock, by its estimated length: base + 40 increments."""
    estimate = (base_ms + 40 * inc_ms) / 1000
    for limit, name in ((30, "ultraBullet"), (180, "bullet"), (480, "blitz"), (1500, "rapid")):
        if estimate < limit:
            return name
    return "classical"


def ms(delta):
    """A timedelta in whole milliseconds."""
    return int(delta.total_seconds() * 1000)


class GameStream(fake_lichess.GameStream):
    """lichess-bot's fake game stream, reporting how the game really ended.

    The upstream stream calls every finished game a Black win on time; this one takes the
    status and winner from the clock queue, which carries (wtime, btime, inc, status, winner).
    """

    def __init__(self, board_queue, clock_queue, clock):
        super().__init__(board_queue, clock_queue)
        self.base_ms, self.inc_ms = clock

    def iter_lines(self, chunk_size=512, decode_unicode=False, delimiter=None):
        """The gameFull event, then a gameState after every move."""
        base, inc = self.base_ms, self.inc_ms
        speed = lichess_speed(base, inc)
        state = {"type": "gameState", "moves": "", "wtime": base, "btime": base,
                 "winc": inc, "binc": inc, "status": "started"}
        yield json.dumps({
            "id": GAME_ID, "variant": {"key": "standard", "name": "Standard", "short": "Std"},
            "clock": {"initial": base, "increment": inc}, "speed": speed,
            "perf": {"name": speed.capitalize()}, "rated": True, "createdAt": 1600000000000,
            "white": {"id": OPPONENT, "name": OPPONENT, "title": "BOT", "rating": 2000},
            "black": {"id": BOT, "name": BOT, "title": "BOT", "rating": 2000},
            "initialFen": "startpos", "type": "gameFull", "state": state}).encode("utf-8")
        while True:
            board = self.board_queue.get()
            self.board_queue.task_done()
            wtime, btime, inc, status, winner = self.clock_queue.get()
            self.clock_queue.task_done()
            state = {"type": "gameState", "moves": " ".join(m.uci() for m in board.move_stack),
                     "wtime": ms(wtime), "btime": ms(btime), "winc": ms(inc), "binc": ms(inc),
                     "status": status}
            if winner:
                state["winner"] = winner
            yield json.dumps(state).encode("utf-8")
            if status != "started":
                break


class Lichess(fake_lichess.Lichess):
    """lichess-bot's fake lichess API with the stream above and a chosen clock."""

    def __init__(self, move_queue, board_queue, clock_queue, clock):
        super().__init__(move_queue, board_queue, clock_queue)
        self.clock = clock

    def get_game_stream(self, game_id):
        """The game stream; a reconnect asks the simulator to send the position again."""
        if self.started_game_stream:
            self.move_queue.put(None)
        self.started_game_stream = True
        return GameStream(self.board_queue, self.clock_queue, self.clock)


class Opponent:
    """White: Horizon at a fixed node count, or random moves; the first move is random."""

    def __init__(self, kind, engine_path, nodes, seed):
        self.rng = random.Random(seed)
        self.nodes = nodes
        self.engine = None
        self.name = "random moves"
        if kind == "horizon":
            self.engine = chess.engine.SimpleEngine.popen_uci(engine_path)
            self.engine.configure({"Hash": 16, "Threads": 1})
            self.name = f"{self.engine.id.get('name', 'engine')} at {nodes} nodes a move"

    def choose(self, board):
        """White's move in `board`."""
        if self.engine is None or not board.move_stack:
            return self.rng.choice(list(board.legal_moves))
        return self.engine.play(board, chess.engine.Limit(nodes=self.nodes)).move

    def close(self):
        """Stops the engine, if any."""
        if self.engine is not None:
            self.engine.quit()


class Referee:
    """Plays White and keeps the clocks, as lichess.org would; records what went wrong."""

    def __init__(self, queues, opponent, clock):
        self.move_queue, self.board_queue, self.clock_queue = queues
        self.opponent = opponent
        self.board = chess.Board()
        self.inc = datetime.timedelta(milliseconds=clock[1])
        self.wtime = datetime.timedelta(milliseconds=clock[0])
        self.btime = self.wtime
        self.lowest_btime = self.btime
        self.status, self.winner = "started", None
        self.failures = []
        self.clock_log = []  # (bot's move number, seconds it took, clock left after it)
        self.finished = threading.Event()

    def send(self):
        """Sends the position and clocks to the game stream."""
        self.board_queue.put(self.board.copy())
        self.clock_queue.put((self.wtime, self.btime, self.inc, self.status, self.winner))

    def bot_move(self, timeout):
        """Waits for the bot's move; sends the position again when the stream reconnects."""
        while True:
            move = self.move_queue.get(timeout=timeout)
            self.move_queue.task_done()
            if move is not None:
                return move
            self.send()

    def run(self, move_timeout):
        """Plays the game to its end or to the first fault."""
        try:
            self.play(move_timeout)
        except queue.Empty:
            self.failures.append(f"no move from lichess-bot within {move_timeout:g} s")
        except Exception as error:  # the opponent failed
            self.failures.append(f"the game stopped: {type(error).__name__}: {error}")
        try:
            if self.failures and self.status == "started":
                self.status, self.winner = "aborted", None
                self.send()
        finally:
            if self.failures:
                # lichess-bot retries a failing game for ten minutes; make its main loop
                # quit (it ends its game processes on the way out), as Ctrl-C would.
                lichess_bot.stop.terminated = True
            self.finished.set()

    def play(self, move_timeout):
        """The game loop."""
        while (ended := lichess_status(self.board)) is None:
            if self.board.turn == chess.WHITE:
                started = time.monotonic()
                self.board.push(self.opponent.choose(self.board))
                if len(self.board.move_stack) > 2:
                    self.wtime += self.inc - datetime.timedelta(seconds=time.monotonic() - started)
                self.send()
                continue
            started = time.monotonic()
            move = self.bot_move(move_timeout)
            spent = datetime.timedelta(seconds=time.monotonic() - started)
            if move not in self.board.legal_moves:
                self.failures.append(f"illegal move {move} in {self.board.fen()}")
                self.status, self.winner = "aborted", None
                self.send()
                return
            self.board.push(move)
            if len(self.board.move_stack) > 2:  # each side's first move is free, as on lichess
                self.btime -= spent
                self.lowest_btime = min(self.lowest_btime, self.btime)
                self.clock_log.append((len(self.board.move_stack) // 2, spent.total_seconds(),
                                       self.btime.total_seconds()))
                if self.btime < datetime.timedelta(0):
                    self.failures.append(f"time loss on move {len(self.board.move_stack) // 2}")
                    self.btime = datetime.timedelta(0)
                    self.status, self.winner = "outoftime", "white"
                    self.send()
                    return
                self.btime += self.inc
        self.status, self.winner = ended
        self.send()


def write_config(engine_path, syzygy, pgn_dir, drop):
    """config.yml: lichess-bot's config.yml.default with the engine section set for Horizon."""
    with open("config.yml.default") as file:
        config = yaml.safe_load(file)
    engine = config["engine"]
    engine["dir"] = os.path.dirname(os.path.abspath(engine_path))
    engine["name"] = os.path.basename(engine_path)
    engine["protocol"] = "uci"
    options = engine["uci_options"]
    options["SyzygyPath"] = os.path.abspath(syzygy)
    for name in drop:
        options.pop(name, None)
    config["pgn_directory"] = pgn_dir
    with open("config.yml", "w") as file:
        yaml.safe_dump(config, file, sort_keys=False)
    return options


def engine_stats(log_path):
    """(moves with an evaluation, moves with a win rate) from lichess-bot's log."""
    with open(log_path, encoding="utf-8") as file:
        text = file.read()
    return len(re.findall(r"\bEvaluation: ", text)), len(re.findall(r"\bWinrate: ", text))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", required=True, help="the Horizon binary")
    parser.add_argument("--syzygy", required=True, help="Syzygy tables for SyzygyPath")
    parser.add_argument("--opponent", choices=("horizon", "random"), default="horizon")
    parser.add_argument("--opponent-nodes", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tc", default=DEFAULT_TC, help="the clock, base+increment in seconds")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds to wait for one move of the bot before giving up")
    parser.add_argument("--work", default="horizon-check", help="folder for the PGN and log")
    parser.add_argument("--drop-option", action="append", default=[],
                        help="leave this option out of uci_options (to try older builds)")
    args = parser.parse_args()
    try:
        base, inc = (float(x) for x in args.tc.split("+"))
        clock = (round(base * 1000), round(inc * 1000))
    except ValueError:
        parser.error(f"--tc {args.tc}: give base+increment in seconds, like 10+0.1")

    os.makedirs(args.work, exist_ok=True)
    pgn_dir = os.path.abspath(os.path.join(args.work, "games"))
    log_path = os.path.abspath(os.path.join(args.work, "lichess-bot.log"))
    shutil.rmtree(pgn_dir, ignore_errors=True)
    if os.path.exists(log_path):
        os.remove(log_path)
    options = write_config(args.engine, args.syzygy, pgn_dir, args.drop_option)
    print(f"config.yml written; uci_options: {options}", flush=True)

    lichess_bot.logging_configurer(logging.INFO, log_path, True)
    config = lb_config.load_config("config.yml")
    lichess_bot.disable_restart()
    # lichess-bot's game process would retry a failing engine start for ten minutes: start
    # Horizon once here the same way (engine_wrapper.create_engine sends the uci_options with
    # python-chess's configure) to report a refused option at once.
    try:
        with engine_wrapper.create_engine(config) as engine:
            print(f"lichess-bot started and configured {engine.name()}", flush=True)
    except Exception as error:
        print(f"FAIL: lichess-bot cannot start the engine with these uci_options: {error}")
        sys.exit(1)

    manager = Manager()
    queues = (manager.Queue(), manager.Queue(), manager.Queue())
    li = Lichess(*queues, clock)
    opponent = Opponent(args.opponent, args.engine, args.opponent_nodes, args.seed)
    referee = Referee(queues, opponent, clock)
    thread = threading.Thread(target=referee.run, args=(args.timeout,), daemon=True)
    thread.start()
    started = time.monotonic()
    try:
        lichess_bot.start(li, li.get_profile(), config, logging.INFO, log_path, True,
                          one_game=True)
    except Exception as error:
        referee.failures.append(f"lichess-bot stopped: {type(error).__name__} {error}")
    # lichess-bot returns after the game, or at once when its game process failed.
    if not referee.finished.wait(args.timeout + 5):
        referee.failures.append("lichess-bot ended while the game was still on")
    opponent.close()
    elapsed = time.monotonic() - started

    board = referee.board
    result = board.result(claim_draw=True) if referee.status != "outoftime" else "1-0"
    game = chess.pgn.Game.from_board(board)
    game.headers.update({"Event": "lichess-bot offline check", "White": opponent.name,
                         "Black": "Horizon via lichess-bot", "Result": result,
                         "TimeControl": args.tc})
    with open(os.path.join(args.work, "game.pgn"), "w") as file:
        print(game, file=file)
    with open(os.path.join(args.work, "clock.csv"), "w") as file:
        print("move,seconds,clock_left", file=file)
        for number, spent, left in referee.clock_log:
            print(f"{number},{spent:.3f},{left:.3f}", file=file)
    records = os.listdir(pgn_dir) if os.path.isdir(pgn_dir) else []
    evaluations, winrates = engine_stats(log_path) if os.path.exists(log_path) else (0, 0)
    bot_moves = len(board.move_stack) // 2

    if referee.status not in ("mate", "stalemate", "draw", "outoftime"):
        referee.failures.append(f"the game did not finish (status {referee.status})")
    if not records:
        referee.failures.append("lichess-bot wrote no PGN record")
    if evaluations < bot_moves // 2:
        referee.failures.append(f"lichess-bot logged an evaluation for only {evaluations} of "
                                f"{bot_moves} moves")
    if "UCI_ShowWDL" in options and winrates < evaluations:
        referee.failures.append(f"lichess-bot logged a win rate for {winrates} of {evaluations} "
                                "evaluated moves with UCI_ShowWDL on")

    print(f"lichess-bot {lichess_bot.__version__}, python-chess {chess.__version__}, "
          f"Horizon {args.engine} as Black against {opponent.name}")
    print(f"result: {result} ({referee.status}"
          f"{', ' + referee.winner + ' wins' if referee.winner else ''}) after "
          f"{len(board.move_stack)} plies, {elapsed:.0f} s; game in {args.work}/game.pgn")
    print(f"Horizon's clock ({args.tc}): lowest {referee.lowest_btime.total_seconds():.2f} s, "
          f"{referee.btime.total_seconds():.2f} s at the end")
    print(f"lichess-bot logged {evaluations} evaluations and {winrates} win rates; "
          f"PGN record: {', '.join(records) or 'none'}")
    illegal = [f for f in referee.failures if f.startswith("illegal")]
    flagged = [f for f in referee.failures if f.startswith("time loss")]
    print(f"illegal moves: {'; '.join(illegal) or 'none'}; "
          f"time losses: {'; '.join(flagged) or 'none'}")
    if referee.failures:
        for failure in referee.failures:
            print(f"FAIL: {failure}")
        sys.exit(1)
    print("PASS")
    sys.exit(0)


if __name__ == "__main__":
    main()
