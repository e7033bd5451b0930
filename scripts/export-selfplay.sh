#!/usr/bin/env bash
# Packs binary self-play files as compressed text that outlives the machine they were made on:
# each input becomes NAME-0.txt.xz, NAME-1.txt.xz, ... (NAME-00.txt.xz, ... past ten files) of
# at most a million positions each (`<FEN> | <score> | <result>` lines, the form `horizon
# convert` and `xz -dc` read back), and
# OUTDIR/COUNTS.txt lists every file with its positions. A file that a running datagen is still
# writing is read up to its last whole record. See docs/training.md, "Keeping data".
#
#   scripts/export-selfplay.sh HORIZON OUTDIR FILE.bin...
#
# Environment: LINES (positions a file, default 1000000), XZ_LEVEL (default 6).
set -euo pipefail

die() { echo "export-selfplay.sh: $*" >&2; exit 2; }
[ $# -ge 3 ] || die "usage: scripts/export-selfplay.sh HORIZON OUTDIR FILE.bin..."
horizon=$1 outdir=$2; shift 2
[ -x "$horizon" ] && [ -f "$horizon" ] || die "'$horizon' is not an executable file"
lines=${LINES:-1000000}
[[ "$lines" =~ ^[1-9][0-9]*$ ]] || die "LINES must be a positive whole number, got '$lines'"
command -v xz >/dev/null || die "xz is not installed (apt-get install xz-utils)"
mkdir -p "$outdir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

record=32
for file in "$@"; do
  [ -r "$file" ] && [ -f "$file" ] || die "cannot read '$file'"
  name=$(basename "$file" .bin)
  size=$(stat -c %s "$file")
  whole=$(( size / record * record ))
  [ "$whole" -gt 0 ] || { echo "skipped '$file': no whole record" >&2; continue; }
  # A copy of the whole records, so a file still growing is read as it was at this moment.
  head -c "$whole" "$file" > "$tmp/$name.bin"
  "$horizon" convert "$tmp/$name.bin" --out "$tmp/$name.txt" --to text --no-dedup
  rm -f "$tmp/$name.bin"
  # Numbered from 0 with as many digits as the last number needs (name-0 … name-9, or
  # name-00 … name-12), so that the names sort in the order of the positions.
  total=$(wc -l < "$tmp/$name.txt")
  last=$(( (total + lines - 1) / lines - 1 ))
  split -l "$lines" -d -a "${#last}" --additional-suffix=.txt "$tmp/$name.txt" "$tmp/$name-"
  rm -f "$tmp/$name.txt"
  for part in "$tmp/$name"-*.txt; do
    count=$(wc -l < "$part")
    xz -"${XZ_LEVEL:-6}" -T1 -c "$part" > "$outdir/$(basename "$part").xz"
    rm -f "$part"
    printf '%s.xz\t%s\n' "$(basename "$part")" "$count" | tee -a "$outdir/COUNTS.txt"
  done
done
