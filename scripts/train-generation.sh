#!/usr/bin/env bash
# One network generation from self-play files: snapshot every file to its whole 32-byte
# records (a datagen may still be writing), hold back the newest games as a fresh test file,
# merge the rest into one deduplicated set, train, and compare the new network's loss with
# the one it should replace. See docs/training.md, "A generation in one command".
#
#   scripts/train-generation.sh HORIZON OUTDIR NAME FILE.bin... [-- TRAIN OPTION...]
#
# FILEs newest first: a position found in several keeps the first file's score.
# Writes OUTDIR/NAME.nnue and beside it NAME-set.bin (the training set), NAME-inputs.txt (the
# positions taken from each file), NAME-convert.log, NAME-train.log and, with FRESH or
# COMPARE, NAME-fresh.bin and NAME-losses.txt. The options after `--` go to `horizon train`
# in place of the embedded network's recipe (--hidden 384 --output-buckets 8 --lambda 0
# --epochs 40 --threads 2 --features mirrored).
#
# Environment:
#   FRESH=N          hold back the last N positions of each FRESH_FROM file as NAME-fresh.bin
#   FRESH_FROM="F…"  which of the FILEs (default: the first one)
#   GAP=N            positions left out between the set and the fresh part of such a file, so
#                    that no game is split across the two (default 300; a game writes about 80)
#   HOLDOUT="F…"     fixed held-out files, each passed to `train --holdout`
#   COMPARE=NET      the network to beat: `net-loss` of it (before training) and of the new
#                    one (after) on each HOLDOUT file and the fresh file, in NAME-losses.txt
set -euo pipefail
trap 'echo "train-generation.sh: stopped: \"$BASH_COMMAND\" failed (line $LINENO)" >&2' ERR

die() { echo "train-generation.sh: $*" >&2; exit 2; }
usage="usage: scripts/train-generation.sh HORIZON OUTDIR NAME FILE.bin... [-- TRAIN OPTION...]"
[ $# -ge 4 ] || die "$usage"
horizon=$1 outdir=$2 name=$3; shift 3
[ -x "$horizon" ] && [ -f "$horizon" ] || die "'$horizon' is not an executable file"
[[ "$name" =~ ^[A-Za-z0-9._-]+$ ]] || die "NAME may hold only letters, digits, '.', '_' and '-', got '$name'"

files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  [ -f "$1" ] && [ -r "$1" ] || die "cannot read '$1'"
  files+=("$1"); shift
done
[ ${#files[@]} -gt 0 ] || die "$usage"
[ $# -gt 0 ] && shift
train_opts=("$@")
[ ${#train_opts[@]} -gt 0 ] || train_opts=(--hidden 384 --output-buckets 8 --lambda 0 --epochs 40 \
  --threads 2 --features mirrored)

# number NAME TEXT VAR: VAR = TEXT as a whole number, or stop naming NAME.
number() {
  [[ "$2" =~ ^[0-9]{1,12}$ ]] || die "$1 must be a whole number (at most 12 digits), got '$2'"
  printf -v "$3" '%d' "$((10#$2))"
}
number FRESH "${FRESH:-0}" fresh
number GAP "${GAP:-300}" gap
# Whether $1 is one of the words of $2.. (file names without spaces).
member() { local x want=$1; shift; for x in "$@"; do [ "$x" = "$want" ] && return 0; done; return 1; }
fresh_from=${FRESH_FROM:-${files[0]}}
for f in $fresh_from; do
  member "$f" "${files[@]}" || die "FRESH_FROM names '$f', which is not one of the FILEs"
done
readable() { [ -z "$2" ] || { [ -f "$2" ] && [ -r "$2" ]; } || die "cannot read $1 '$2'"; }
# shellcheck disable=SC2206 # HOLDOUT is a list of words
holdouts=(${HOLDOUT:-}) compare=${COMPARE:-}
for h in "${holdouts[@]}"; do
  readable HOLDOUT "$h"
  ! member "$h" "${files[@]}" || die "HOLDOUT '$h' is one of the FILEs trained on"
done
readable COMPARE "$compare"
[ -z "$compare" ] || [ ${#holdouts[@]} -gt 0 ] || [ "$fresh" -gt 0 ] || die "COMPARE needs HOLDOUT or FRESH to measure on"

record=32
# Positions to take from each file: whole records as they are now (a growing file only
# appends, so what is counted here is what is read below), less the fresh part and its gap.
counts=() keeps=()
for f in "${files[@]}"; do
  n=$(( $(stat -c %s "$f") / record ))
  keep=$n
  # shellcheck disable=SC2086 # FRESH_FROM is a list of words
  if [ "$fresh" -gt 0 ] && member "$f" $fresh_from; then
    keep=$(( n - fresh - gap ))
    [ "$keep" -gt 0 ] || die "'$f' has $n positions: too few to hold back FRESH=$fresh after GAP=$gap"
  fi
  counts+=("$n") keeps+=("$keep")
done

mkdir -p "$outdir" || die "cannot make '$outdir'"
snap="$outdir/.$name-snapshot"
rm -rf "$snap"
mkdir "$snap"
trap 'rm -rf "$snap"' EXIT
set_bin="$outdir/$name-set.bin" fresh_bin="$outdir/$name-fresh.bin" inputs="$outdir/$name-inputs.txt"
[ "$fresh" -eq 0 ] || : > "$fresh_bin"
: > "$inputs"

# 1. Snapshots of the set's part of each file, and the fresh parts.
parts=()
for i in "${!files[@]}"; do
  f=${files[$i]} n=${counts[$i]} keep=${keeps[$i]}
  if [ "$keep" -lt "$n" ]; then
    # No pipe: on a file still growing, `tail | head` ends with tail killed by SIGPIPE.
    dd if="$f" bs="$record" skip=$(( n - fresh )) count="$fresh" status=none >> "$fresh_bin"
  fi
  head -c $(( keep * record )) "$f" > "$snap/$i.bin"
  parts+=("$snap/$i.bin")
  printf '%s\t%s\t%s\n' "$f" "$keep" "$(( n - keep ))" >> "$inputs"
done
[ "$fresh" -eq 0 ] || printf 'fresh\t%s\n' "$(( $(stat -c %s "$fresh_bin") / record ))" >> "$inputs"
cat "$inputs"

# The losses of a network on the held-out data (each HOLDOUT file, then the fresh file), one
# line each in NAME-losses.txt.
tests=("${holdouts[@]}")
[ "$fresh" -eq 0 ] || tests+=("$fresh_bin")
losses="$outdir/$name-losses.txt"
measure() {
  local net=$1 data out loss
  for data in "${tests[@]}"; do
    out=$("$horizon" net-loss "$net" "$data") || die "net-loss failed for $net on $data"
    loss=$(printf '%s\n' "$out" | sed -n 's/^loss \([0-9.]*\) .*/\1/p')
    [ -n "$loss" ] || die "net-loss gave no loss for $net on $data"
    printf '%s\t%s\t%s\n' "$data" "$net" "$loss" | tee -a "$losses"
  done
}
# The network to beat first: a file that is no network stops the run before training.
if [ -n "$compare" ]; then
  : > "$losses"
  measure "$compare"
fi

# 2. One set, duplicates dropped (the first file's score wins).
"$horizon" convert "${parts[@]}" --out "$set_bin" --dedup --force > "$outdir/$name-convert.log" 2>&1 || {
  cat "$outdir/$name-convert.log" >&2
  die "convert failed"
}
cat "$outdir/$name-convert.log"
rm -rf "$snap"

# 3. The network.
holdout_opt=()
for h in "${holdouts[@]}"; do holdout_opt+=(--holdout "$h"); done
echo "training $outdir/$name.nnue: ${train_opts[*]}"
if ! "$horizon" train "$set_bin" --out "$outdir/$name.nnue" "${holdout_opt[@]}" "${train_opts[@]}" \
    > "$outdir/$name-train.log" 2>&1; then
  tail -n 3 "$outdir/$name-train.log" >&2
  die "training failed (the log is $outdir/$name-train.log)"
fi
tail -n 2 "$outdir/$name-train.log"

# 4. The new network on the same held-out data.
[ -z "$compare" ] || measure "$outdir/$name.nnue"
