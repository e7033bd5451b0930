#!/usr/bin/env bash
# Engine matches with fastchess (or cutechess-cli); see docs/matches.md for getting one.
#
#   scripts/match.sh ab NEW_BINARY OLD_BINARY [games] [tc]      A/B match of two builds
#   scripts/match.sh sprt NEW_BINARY OLD_BINARY [tc] [elo0] [elo1]   SPRT, new vs old (fastchess)
#   scripts/match.sh see BINARY [games] [tc]                    SEE pruning in quiescence on vs off
#   scripts/match.sh stockfish BINARY ELO [games] [tc]          vs Stockfish UCI_LimitStrength at UCI_Elo ELO
#   scripts/match.sh limited BINARY ELO [SF_ELO] [games] [tc]   UCI_Elo=ELO vs Stockfish at UCI_Elo SF_ELO (default ELO)
#   scripts/match.sh ladder BINARY HIGH LOW [games] [tc]        UCI_Elo=HIGH vs UCI_Elo=LOW, both Horizon
#   scripts/match.sh threads BINARY [threads] [games] [tc]      Threads=threads (default 2) vs Threads=1
#   scripts/match.sh nnue BINARY [games] [tc]                   the network evaluation (UseNNUE) on vs off
#   scripts/match.sh syzygy BINARY TB_DIR [games] [tc]          Syzygy tables (SyzygyPath=TB_DIR) vs none
#   scripts/match.sh nets BINARY NEW.nnue OLD.nnue [tc] [elo0] [elo1]   SPRT of two network files (EvalFile)
#   scripts/match.sh nets-ab BINARY NEW.nnue OLD.nnue [games] [tc]       the same, a fixed number of games
#
# Defaults: 200 games (100 for stockfish, 40 for limited and ladder) at tc 10+0.1 (tc `nodes=N`: N nodes a
# move, whatever the clock); openings drawn at random from
# tests/data/8moves_v3.epd, each played with both colours. Environment: FASTCHESS or
# CUTECHESS (runner path), CONCURRENCY (1), SEED (1), PGN (file for the games), BOOK,
# MATCH_STATE (where fastchess saves its state; default $TMPDIR/horizon-match-state.json),
# THREADS (Horizon's Threads in `stockfish`, default 1), CHESS960=1 (Chess960: openings from
# perft-data/perft_fischer.epd unless BOOK is set, UCI_Chess960 on for both engines).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
variant=()
if [ "${CHESS960:-0}" = 1 ]; then
  book=${BOOK:-$here/perft-data/perft_fischer.epd}
  variant=(-variant fischerandom)
else
  book=${BOOK:-$here/tests/data/8moves_v3.epd}
fi

die() { echo "match.sh: $*" >&2; exit 2; }
usage() { sed -n '4,14p' "$0" | sed 's/^# *//' >&2; exit 2; }

# The runner: $FASTCHESS, $CUTECHESS, else fastchess or cutechess-cli on the PATH.
if [ -n "${FASTCHESS:-}" ]; then runner=$FASTCHESS; kind=fastchess
elif [ -n "${CUTECHESS:-}" ]; then runner=$CUTECHESS; kind=cutechess
elif command -v fastchess >/dev/null; then runner=$(command -v fastchess); kind=fastchess
elif command -v cutechess-cli >/dev/null; then runner=$(command -v cutechess-cli); kind=cutechess
else die "no match runner: build fastchess (see README) and put it on PATH or set FASTCHESS=/path/to/fastchess"
fi
[ -x "$runner" ] || die "runner '$runner' is not an executable file"
[ -r "$book" ] || die "cannot read the opening book '$book'"

engine_exe() { [ -x "$1" ] && [ -f "$1" ] || die "engine '$1' is not an executable file"; }
is_count() { [[ "$1" =~ ^[1-9][0-9]*$ ]] || die "$2 must be a positive whole number, got '$1'"; }

# net_paths NEW.nnue OLD.nnue: checks both and sets $new and $old to absolute paths (the
# engines' working directory is the runner's).
net_paths() {
  for net in "$1" "$2"; do [ -r "$net" ] && [ -f "$net" ] || die "cannot read the network file '$net'"; done
  new=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); old=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
}

# run GAMES TC ENGINE-ARGS...: both colours of each opening, so rounds = games / 2.
run() {
  local games=$1 tc=$2; shift 2
  is_count "$games" "games"
  # `nodes=N`: every move searches N nodes, under a clock too long ever to decide.
  local limit=("tc=$tc")
  if [[ "$tc" == nodes=* ]]; then
    is_count "${tc#nodes=}" "nodes"
    limit=("tc=600+1" "$tc")
  fi
  local extra=()
  if [ -n "${PGN:-}" ]; then
    if [ "$kind" = fastchess ]; then extra=(-pgnout "file=$PGN"); else extra=(-pgnout "$PGN"); fi
  fi
  # fastchess saves the match state for -recover; keep it out of the working directory.
  [ "$kind" = fastchess ] && extra+=(-config "outname=${MATCH_STATE:-${TMPDIR:-/tmp}/horizon-match-state.json}")
  exec "$runner" "$@" "${variant[@]}" \
    -each proto=uci "${limit[@]}" option.Hash=16 \
    -openings "file=$book" format=epd order=random -srand "${SEED:-1}" \
    -games 2 -repeat -rounds $(((games + 1) / 2)) -concurrency "${CONCURRENCY:-1}" \
    -resign movecount=4 score=1000 -draw movenumber=40 movecount=8 score=10 \
    "${extra[@]}"
}

case "${1:-}" in
  ab)
    [ $# -ge 3 ] || usage
    engine_exe "$2"; engine_exe "$3"
    run "${4:-200}" "${5:-10+0.1}" -engine "cmd=$2" name=new -engine "cmd=$3" name=old ;;
  sprt)
    [ $# -ge 3 ] || usage
    [ "$kind" = fastchess ] || die "sprt needs fastchess (its -sprt model=logistic)"
    engine_exe "$2"; engine_exe "$3"
    run 20000 "${4:-10+0.1}" -engine "cmd=$2" name=new -engine "cmd=$3" name=old \
      -sprt elo0="${5:-0}" elo1="${6:-10}" alpha=0.05 beta=0.05 model=logistic ;;
  see)
    [ $# -ge 2 ] || usage
    engine_exe "$2"
    run "${3:-200}" "${4:-10+0.1}" -engine "cmd=$2" name=see -engine "cmd=$2" name=mvvlva option.QSearchSEE=false ;;
  stockfish)
    [ $# -ge 3 ] || usage
    engine_exe "$2"
    is_count "$3" "ELO"
    sf=$(command -v stockfish || { [ -x /usr/games/stockfish ] && echo /usr/games/stockfish; } || true)
    [ -n "$sf" ] || die "stockfish not found (Debian/Ubuntu: apt-get install stockfish)"
    is_count "${THREADS:-1}" "THREADS"
    run "${4:-100}" "${5:-10+0.1}" -engine "cmd=$2" name=horizon "option.Threads=${THREADS:-1}" \
      -engine "cmd=$sf" "name=sf$3" option.UCI_LimitStrength=true "option.UCI_Elo=$3" option.Threads=1 ;;
  limited)
    [ $# -ge 3 ] || usage
    engine_exe "$2"
    is_count "$3" "ELO"
    is_count "${4:-$3}" "SF_ELO"
    sf=$(command -v stockfish || { [ -x /usr/games/stockfish ] && echo /usr/games/stockfish; } || true)
    [ -n "$sf" ] || die "stockfish not found (Debian/Ubuntu: apt-get install stockfish)"
    run "${5:-40}" "${6:-10+0.1}" -engine "cmd=$2" "name=horizon$3" option.UCI_LimitStrength=true "option.UCI_Elo=$3" \
      -engine "cmd=$sf" "name=sf${4:-$3}" option.UCI_LimitStrength=true "option.UCI_Elo=${4:-$3}" option.Threads=1 ;;
  ladder)
    [ $# -ge 4 ] || usage
    engine_exe "$2"
    is_count "$3" "HIGH"; is_count "$4" "LOW"
    run "${5:-40}" "${6:-10+0.1}" -engine "cmd=$2" "name=horizon$3" option.UCI_LimitStrength=true "option.UCI_Elo=$3" \
      -engine "cmd=$2" "name=horizon$4" option.UCI_LimitStrength=true "option.UCI_Elo=$4" ;;
  threads)
    [ $# -ge 2 ] || usage
    engine_exe "$2"
    is_count "${3:-2}" "threads"
    run "${4:-200}" "${5:-10+0.1}" -engine "cmd=$2" "name=threads${3:-2}" "option.Threads=${3:-2}" \
      -engine "cmd=$2" name=threads1 option.Threads=1 ;;
  nnue)
    [ $# -ge 2 ] || usage
    engine_exe "$2"
    run "${3:-200}" "${4:-10+0.1}" -engine "cmd=$2" name=nnue option.UseNNUE=true \
      -engine "cmd=$2" name=classical option.UseNNUE=false ;;
  syzygy)
    [ $# -ge 3 ] || usage
    engine_exe "$2"
    [ -d "$3" ] || die "tablebase directory '$3' does not exist"
    run "${4:-200}" "${5:-10+0.1}" -engine "cmd=$2" name=syzygy "option.SyzygyPath=$3" \
      -engine "cmd=$2" name=notables ;;
  nets)
    [ $# -ge 4 ] || usage
    [ "$kind" = fastchess ] || die "nets needs fastchess (its -sprt model=logistic)"
    engine_exe "$2"; net_paths "$3" "$4"
    run 20000 "${5:-10+0.1}" -engine "cmd=$2" name=new "option.EvalFile=$new" \
      -engine "cmd=$2" name=old "option.EvalFile=$old" \
      -sprt elo0="${6:-0}" elo1="${7:-10}" alpha=0.05 beta=0.05 model=logistic ;;
  nets-ab)
    [ $# -ge 4 ] || usage
    engine_exe "$2"; net_paths "$3" "$4"
    run "${5:-200}" "${6:-10+0.1}" -engine "cmd=$2" name=new "option.EvalFile=$new" \
      -engine "cmd=$2" name=old "option.EvalFile=$old" ;;
  *) usage ;;
esac
