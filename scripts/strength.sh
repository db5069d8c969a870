#!/bin/sh
# The strength runs of issue 3, played with `tensorchess match`. Each run
# writes its PGN, the report (text and JSON) and the exact command into
# $OUT/<run>-<date>/ (default OUT=target/strength), and prints the report.
#
#   scripts/strength.sh stockfish [ELO]  # orthodox chess vs Stockfish 15.1 with
#                                        # UCI_LimitStrength, UCI_Elo ELO (2000),
#                                        # 10+0.1, GAMES games (200); goal >= 50%.
#                                        # Stockfish keeps MOVE_OVERHEAD ms (100)
#                                        # in hand: with its default 10 ms it lost
#                                        # 18 of 200 games on time here (pipe and
#                                        # scheduling delays on 2 busy cores)
#   scripts/strength.sh ladder           # Tensor Chess: level N+1 vs level N for
#                                        # N = 1..5, GAMES games each (100) at TC
#                                        # (10+0.1); goal >= 75% each
#   scripts/strength.sh material         # Tensor Chess: full strength at 1 s/move vs
#                                        # a 2-ply material-only search, GAMES games
#                                        # (100); goal >= 95%
#   scripts/strength.sh features [GAME]  # each search feature switched off vs the
#                                        # full engine, SPRT elo0=-5 elo1=5 (or
#                                        # GAMES games), at TC (10+0.1), GAME tensor
#
# Environment: GAMES, TC, CONCURRENCY (1; games in parallel: use at most one
# per core, since each game has one engine thinking at a time), OUT,
# TENSORCHESS (the binary; default: built with cargo), STOCKFISH.
set -eu
cd "$(dirname "$0")/.."
TC_BIN=${TENSORCHESS:-}
if [ -z "$TC_BIN" ]; then
    cargo build --release -q -p tensorchess
    TC_BIN="${CARGO_TARGET_DIR:-target}/release/tensorchess"
fi
OUT=${OUT:-target/strength}
CONCURRENCY=${CONCURRENCY:-1}
SF=${STOCKFISH:-/usr/games/stockfish}
STAMP=$(date -u +%Y%m%d-%H%M%S)

# run NAME ARGS...: one match, recorded.
run() {
    name=$1; shift
    dir="$OUT/$name-$STAMP"
    mkdir -p "$dir"
    {
        printf '%s' "$TC_BIN match"
        for a in "$@"; do printf " '%s'" "$a"; done
        printf ' --concurrency %s --pgn %s --json %s\n' "$CONCURRENCY" "$dir/games.pgn" "$dir/report.json"
        echo "# $(git rev-parse --short HEAD 2>/dev/null || echo unknown) $(git status --porcelain 2>/dev/null | grep -q . && echo dirty), $(nproc) cores, $(date -u)"
    } > "$dir/command.txt"
    echo "== $name: $(head -n 1 "$dir/command.txt")" >&2
    "$TC_BIN" match "$@" --concurrency "$CONCURRENCY" --pgn "$dir/games.pgn" \
        --json "$dir/report.json" | tee "$dir/report.txt"
}

what=${1:-}
case "$what" in
stockfish)
    elo=${2:-2000}
    [ -x "$SF" ] || { echo "no Stockfish at $SF (apt-get install stockfish)" >&2; exit 2; }
    run "stockfish-$elo" --variant chess --tc "${TC:-10+0.1}" --games "${GAMES:-200}" \
        -e "name=tensorchess" \
        -e "cmd=$SF,name=stockfish-$elo,option.Threads=1,option.Hash=16,option.Move Overhead=${MOVE_OVERHEAD:-100},option.UCI_LimitStrength=true,option.UCI_Elo=$elo"
    ;;
ladder)
    for n in 1 2 3 4 5; do
        up=$((n + 1))
        run "ladder-L$up-vs-L$n" --variant tensor --tc "${TC:-10+0.1}" --games "${GAMES:-100}" \
            -e "level=$up,name=L$up" -e "level=$n,name=L$n"
    done
    ;;
material)
    run "material2" --variant tensor --movetime 1000 --games "${GAMES:-100}" \
        -e "name=full-1s" -e "material2"
    ;;
features)
    game=${2:-tensor}
    for f in $(echo uci | "$TC_BIN" uci 2>/dev/null | sed -n 's/^option name Feature \([a-z_]*\) .*/\1/p'); do
        if [ -n "${GAMES:-}" ]; then limit="--games $GAMES"; else limit="--sprt elo0=-5,elo1=5,alpha=0.05,beta=0.05 --games 4000"; fi
        # shellcheck disable=SC2086
        run "feature-$game-$f" --variant "$game" --tc "${TC:-10+0.1}" $limit \
            -e "name=all" -e "no=$f,name=no-$f"
    done
    echo "(score > 50% for 'all': the feature gains; Elo below is all minus no-feature)" >&2
    ;;
*)
    sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
