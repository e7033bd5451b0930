#!/bin/sh
# Trainer speed: positions per second for hidden size N (default 128) with 1 and 2 threads,
# wall clock and per CPU-second (the second is steadier on a busy machine).
#
#   scripts/train-speed.sh DATA.bin [HIDDEN] [EPOCHS]
#
# DATA.bin: any binary training file (e.g. from `horizon convert`); 500,000 positions or
# more give steady figures. Uses target/release/horizon (build it first).
set -eu
data=${1:?usage: scripts/train-speed.sh DATA.bin [HIDDEN] [EPOCHS]}
hidden=${2:-128}
epochs=${3:-2}
exe=${HORIZON:-target/release/horizon}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
positions=$(( $(stat -c %s "$data") / 32 ))
for threads in 1 2; do
    /usr/bin/time -f "%e %U %S" -o "$out/time" \
        "$exe" train "$data" --out "$out/net.nnue" --hidden "$hidden" --epochs "$epochs" \
        --threads "$threads" --val 0 > "$out/log" 2>/dev/null
    rate=$(grep '^epoch' "$out/log" | sed 's/.*  \([0-9]*\) pos\/s.*/\1/' | sort -n | tail -1)
    read -r wall user sys < "$out/time"
    cpu_rate=$(awk -v p="$positions" -v e="$epochs" -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", p * e / (u + s) }')
    echo "hidden $hidden, $threads thread(s): best epoch $rate positions/s (wall), $cpu_rate positions per CPU-second (whole run incl. loading)"
done
