#!/usr/bin/env bash
# Plays one offline game of Horizon through lichess-bot, end to end (docs/lichess-bot.md).
#
#   scripts/lichess_bot_check.sh [options of scripts/lichess_bot_game.py]
#
# Clones lichess-bot from GitHub into a scratch folder, makes a Python venv there and installs
# lichess-bot's requirements.txt with pip, then runs scripts/lichess_bot_game.py inside the
# clone: it writes lichess-bot's config.yml (config.yml.default with the engine section set to
# Horizon and the example uci_options: Move Overhead, Threads, Hash, SyzygyPath, UCI_ShowWDL)
# and plays one game through lichess-bot's own engine wrapper against the fake lichess server
# of lichess-bot's test_bot/ folder. It prints the result and whether an illegal move or a
# time loss occurred, and exits non-zero on any failure. Needs git, python3 (3.11 or newer,
# lichess-bot's minimum) with venv, the network for the clone and pip, and a few minutes.
# Not part of `cargo test`.
#
# Environment:
#   LICHESS_BOT_WORK  scratch folder (default ${TMPDIR:-/tmp}/horizon-lichess-bot); an existing
#                     clone and venv there are reused
#   LICHESS_BOT_REPO  what to clone (default https://github.com/lichess-bot-devs/lichess-bot.git)
#   LICHESS_BOT_REF   commit or tag to check out (default: the clone's default branch)
#   ENGINE            Horizon binary (default target/release/horizon; build it first)
#   SYZYGY            tables for SyzygyPath (default tests/data/syzygy)
#   PYTHON            interpreter for the venv (default python3)
#   TIMEOUT           seconds for the whole game (default 1200)
# Options after the script name go to lichess_bot_game.py: --tc 60+1 (the clock, default),
# --opponent horizon|random, --opponent-nodes N, --seed N, --drop-option NAME.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=${LICHESS_BOT_WORK:-${TMPDIR:-/tmp}/horizon-lichess-bot}
repo=${LICHESS_BOT_REPO:-https://github.com/lichess-bot-devs/lichess-bot.git}
engine=${ENGINE:-$here/target/release/horizon}
syzygy=${SYZYGY:-$here/tests/data/syzygy}
python=${PYTHON:-python3}

if [ ! -x "$engine" ]; then
  echo "no engine at $engine: run cargo build --release (or set ENGINE)" >&2
  exit 2
fi
mkdir -p "$work"
bot=$work/lichess-bot
if [ ! -d "$bot/.git" ]; then
  echo "cloning $repo into $bot"
  git clone --quiet "$repo" "$bot"
fi
if [ -n "${LICHESS_BOT_REF:-}" ]; then
  git -C "$bot" checkout --quiet "$LICHESS_BOT_REF"
fi
if [ ! -x "$work/venv/bin/python" ]; then
  echo "creating the venv $work/venv"
  "$python" -m venv "$work/venv"
fi
echo "installing lichess-bot's requirements.txt with pip"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  -r "$bot/requirements.txt"

version=$(sed -n 's/^lichess_bot_version: *//p' "$bot/lib/versioning.yml")
commit=$(git -C "$bot" rev-parse --short HEAD)
chess_version=$("$work/venv/bin/python" -c 'import chess; print(chess.__version__)')
echo "lichess-bot $version ($commit), python-chess $chess_version, engine $engine"

status=0
(cd "$bot" && timeout "${TIMEOUT:-1200}" \
  "$work/venv/bin/python" "$here/scripts/lichess_bot_game.py" \
  --engine "$engine" --syzygy "$syzygy" --work "$work/game" "$@") || status=$?
if [ "$status" = 124 ]; then
  echo "FAIL: the game did not end within ${TIMEOUT:-1200} s" >&2
fi
if [ -f "$work/game/game.pgn" ]; then
  echo "the game: $work/game/game.pgn; lichess-bot's log: $work/game/lichess-bot.log"
fi
exit "$status"
