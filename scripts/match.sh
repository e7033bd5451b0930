#!/usr/bin/env bash
# Engine matches with ../shared/tools/match.py (needs python-chess: pip install chess).
#
#   scripts/match.sh ab NEW_BINARY OLD_BINARY [games] [tc]     A/B of two builds
#   scripts/match.sh see BINARY [games] [tc]                   SEE pruning in quiescence on vs off
#   scripts/match.sh stockfish BINARY ELO [games] [tc]         vs Stockfish UCI_LimitStrength at UCI_Elo ELO
#
# Openings come from ../shared/books/8moves_v3.epd, each played with both colours.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$here/../shared}
book=$shared/books/8moves_v3.epd
run() { python3 "$shared/tools/match.py" --book "$book" --order random --seed "${SEED:-1}" \
          --concurrency "${CONCURRENCY:-1}" --pgnout "${PGN:-}" \
          --resign-score 1000 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-movenumber 40 \
          --each Hash=16 "$@"; }
python3 -c 'import chess' 2>/dev/null || pip install -q chess
case "${1:-}" in
  ab)
    run --engine "$2" --name new --engine "$3" --name old --games "${4:-200}" --tc "${5:-10+0.1}" ;;
  see)
    run --engine "$2" --name see --engine "$2" --name mvvlva -o QSearchSEE=false \
        --games "${3:-200}" --tc "${4:-10+0.1}" ;;
  stockfish)
    command -v stockfish >/dev/null || [ -x /usr/games/stockfish ] || apt-get install -y stockfish
    sf=$(command -v stockfish || echo /usr/games/stockfish)
    run --engine "$2" --name horizon --engine "$sf" --name "sf$3" \
        -o UCI_LimitStrength=true -o UCI_Elo="$3" -o Threads=1 \
        --games "${4:-100}" --tc "${5:-10+0.1}" ;;
  *) sed -n '2,9p' "$0"; exit 2 ;;
esac
