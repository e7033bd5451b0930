#!/usr/bin/env bash
# What an OpenBench DATAGEN workload does with Horizon, on one machine:
#   1. ask Horizon for opening positions with genfens (as OpenBench's worker does),
#   2. turn them into an EPD book the way OpenBench does (`… hmvc H; fmvn F;`),
#   3. play fastchess self-play games from them at a fixed node count per move,
#   4. convert the PGN into training positions with `horizon pgn-convert`.
# It is a functional check of the pipeline, not a strength test.
#
# usage: scripts/openbench-datagen-demo.sh HORIZON FASTCHESS OUTDIR [GAMES] [NODES] [SEED]
#   HORIZON    the horizon binary (e.g. target/release/horizon)
#   FASTCHESS  the fastchess binary
#   OUTDIR     folder for openings.epd, games.pgn, positions.txt and the logs (created;
#              files replaced)
#   GAMES      number of openings and games (default 20; one game per opening)
#   NODES      nodes per move (default 5000)
#   SEED       genfens seed (default 1)
# fastchess runs under `nice -n 10` with concurrency 1.
set -euo pipefail

if [ $# -lt 3 ]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
HORIZON=$(realpath "$1")
FASTCHESS=$2
OUT=$3
GAMES=${4:-20}
NODES=${5:-5000}
SEED=${6:-1}
mkdir -p "$OUT"

echo "1. genfens: $GAMES openings, seed $SEED"
"$HORIZON" "genfens $GAMES seed $SEED book None" quit >"$OUT/genfens.txt"
sed -n 's/^info string genfens //p' "$OUT/genfens.txt" |
    awk '{ printf "%s %s %s %s hmvc %d; fmvn %d;\n", $1, $2, $3, $4, $5, $6 }' >"$OUT/openings.epd"
got=$(wc -l <"$OUT/openings.epd")
if [ "$got" -ne "$GAMES" ]; then
    echo "error: genfens gave $got openings, expected $GAMES" >&2
    exit 1
fi

echo "2. fastchess: $GAMES games at $NODES nodes per move -> $OUT/games.pgn"
rm -f "$OUT/games.pgn"
nice -n 10 "$FASTCHESS" \
    -engine cmd="$HORIZON" name=horizon-white \
    -engine cmd="$HORIZON" name=horizon-black \
    -each tc=inf nodes="$NODES" proto=uci option.Hash=16 option.Threads=1 \
    -openings file="$OUT/openings.epd" format=epd order=sequential \
    -rounds "$GAMES" -games 1 -concurrency 1 \
    -resign movecount=3 score=1000 -draw movenumber=40 movecount=8 score=10 \
    -pgnout file="$OUT/games.pgn" notation=san \
    -config outname="$OUT/fastchess-config.json" \
    >"$OUT/fastchess.log" 2>&1
tail -n 12 "$OUT/fastchess.log"

echo "3. pgn-convert -> $OUT/positions.txt"
"$HORIZON" pgn-convert "$OUT/games.pgn" --out "$OUT/positions.txt" --force
