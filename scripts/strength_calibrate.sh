#!/usr/bin/env bash
# Calibrates UCI_LimitStrength (docs/strength.md): Horizon at UCI_Elo X against Stockfish 15.1
# at UCI_Elo X (its floor 1350 for X below it), then Horizon against itself a step of 200
# below, each level GAMES games at TC. Needs fastchess or cutechess-cli and stockfish (see
# scripts/match.sh); prints one result line per match and keeps the logs in OUT.
#
#   scripts/strength_calibrate.sh BINARY [OUT_DIR]
#
# Environment: LEVELS (default "1320 1800 2300 2800"), LADDER (default "1520 1720 1920 2120
# 2320 2520 2720 2800"), GAMES (30), TC (10+0.1), CONCURRENCY (2), SEED (1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { sed -n '2,10p' "$0" | sed 's/^# *//' >&2; exit 2; }
bin=$1
out=${2:-${TMPDIR:-/tmp}/horizon-strength}
mkdir -p "$out"
games=${GAMES:-30} tc=${TC:-10+0.1}
summary() { grep -E '^(Games|Elo):' "$1" | tail -2 | tr '\n' ' '; echo; }
for x in ${LEVELS:-1320 1800 2300 2800}; do
  sf=$(( x < 1350 ? 1350 : x ))
  log="$out/limited-$x.log"
  CONCURRENCY=${CONCURRENCY:-2} PGN="$out/limited-$x.pgn" MATCH_STATE="$out/state.json" \
    bash "$here/match.sh" limited "$bin" "$x" "$sf" "$games" "$tc" > "$log" 2>&1 || true
  echo "horizon $x vs stockfish $sf: $(summary "$log")"
done
for high in ${LADDER:-1520 1720 1920 2120 2320 2520 2720 2800}; do
  low=$(( high - 200 ))
  log="$out/ladder-$high-$low.log"
  CONCURRENCY=${CONCURRENCY:-2} PGN="$out/ladder-$high-$low.pgn" MATCH_STATE="$out/state.json" \
    bash "$here/match.sh" ladder "$bin" "$high" "$low" "$games" "$tc" > "$log" 2>&1 || true
  echo "horizon $high vs horizon $low: $(summary "$log")"
done
