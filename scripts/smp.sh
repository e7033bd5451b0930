#!/usr/bin/env bash
# How Horizon scales with threads on this machine (Lazy SMP; see docs/search.md, "Threads").
#
#   scripts/smp.sh BINARY [threads] [depth] [bench-depth]
#
# 1. nodes per second: `BINARY bench BENCH_DEPTH 1 64` against `BINARY bench BENCH_DEPTH T 64`;
# 2. time to depth: five bench positions searched over UCI to `go depth DEPTH` with
#    Threads=1 and Threads=T (64 MB hash, cleared before each search), wall time to bestmove.
# Defaults: threads = the number of cores, depth 18, bench-depth 13. Keep the machine idle.
set -euo pipefail

die() { echo "smp.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 4 ] || { sed -n '4p' "$0" | sed 's/^# *//' >&2; exit 2; }
bin=$1
threads=${2:-$(nproc 2>/dev/null || echo 2)}
depth=${3:-18}
bench_depth=${4:-13}
[ -x "$bin" ] && [ -f "$bin" ] || die "engine '$bin' is not an executable file"
for n in "$threads" "$depth" "$bench_depth"; do
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "threads and depths must be positive whole numbers, got '$n'"
done
[ "$threads" -ge 2 ] || die "compare at least 2 threads with 1, got $threads"

# Start position, Kiwipete, the Italian middlegame and two Bratko-Kopec positions of the bench.
positions=(
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1"
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1"
)

bench_nps() { # threads -> nps (last word but one of the bench line)
    local line
    line=$("$bin" bench "$bench_depth" "$1" 64 2>/dev/null | tail -n 1)
    [[ "$line" =~ ^[0-9]+\ nodes\ ([0-9]+)\ nps$ ]] || die "unexpected bench output: '$line'"
    echo "${BASH_REMATCH[1]}"
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# expect PATTERN: read engine lines until one matches (60 s of silence is an error).
expect() {
    local line
    while IFS= read -r -t 60 line <&"${eng[0]}"; do
        [[ "$line" =~ $1 ]] && return 0
    done
    die "engine did not answer '$1'"
}

time_to_depth() { # threads fen -> milliseconds to bestmove
    coproc eng { "$bin"; }
    printf 'uci\n' >&"${eng[1]}"; expect '^uciok'
    printf 'setoption name Threads value %s\nsetoption name Hash value 64\nucinewgame\nisready\n' "$1" >&"${eng[1]}"
    expect '^readyok'
    local start end
    start=$(now_ms)
    printf 'position fen %s\ngo depth %s\n' "$2" "$depth" >&"${eng[1]}"
    expect '^bestmove'
    end=$(now_ms)
    printf 'quit\n' >&"${eng[1]}"
    wait "$eng_PID" 2>/dev/null || true
    echo $(( end - start ))
}

one=$(bench_nps 1)
many=$(bench_nps "$threads")
awk -v a="$one" -v b="$many" -v t="$threads" -v d="$bench_depth" \
    'BEGIN { printf "bench %d, 64 MB: 1 thread %d nps, %d threads %d nps, speedup %.2fx\n", d, a, t, b, b / a }'

total1=0; totaln=0
for fen in "${positions[@]}"; do
    t1=$(time_to_depth 1 "$fen")
    tn=$(time_to_depth "$threads" "$fen")
    total1=$(( total1 + t1 )); totaln=$(( totaln + tn ))
    awk -v a="$t1" -v b="$tn" -v t="$threads" -v f="$fen" \
        'BEGIN { printf "to depth: 1 thread %7d ms, %d threads %7d ms (%.2fx)  %s\n", a, t, b, a / (b > 0 ? b : 1), f }'
done
awk -v a="$total1" -v b="$totaln" -v t="$threads" -v d="$depth" \
    'BEGIN { printf "time to depth %d over 5 positions: 1 thread %d ms, %d threads %d ms, speedup %.2fx\n", d, a, t, b, a / (b > 0 ? b : 1) }'
