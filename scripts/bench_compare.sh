#!/bin/sh
# Speed side by side: our `tensorchess bench` (orthodox chess, and each game)
# against Stockfish's and Fairy-Stockfish's own `bench`, in one run on one
# machine, each single-threaded with a 16 MB hash. Prints nodes per second
# (median of RUNS runs) and the ratios.
#
#   scripts/bench_compare.sh                # builds target/release/tensorchess first
#   RUNS=5 TENSORCHESS=path/to/tensorchess scripts/bench_compare.sh
#
# Stockfish 15.1 and Fairy-Stockfish 11.1 from Debian: apt-get install stockfish fairy-stockfish
# Their `bench` searches their own 47 positions to depth 13; ours searches
# our shipped positions to each game's default depth (see docs/match.md).
set -eu
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
TC=${TENSORCHESS:-}
if [ -z "$TC" ]; then
    cargo build --release -q -p tensorchess
    TC="${CARGO_TARGET_DIR:-target}/release/tensorchess"
fi
SF=${STOCKFISH:-/usr/games/stockfish}
FSF=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}

# The "Nodes/second" figure of a bench's output.
nps() { sed -n 's/^Nodes\/second *: *//p' | tail -n 1; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

run() { # label command...
    label=$1; shift
    i=0
    : > /tmp/bench_compare.$$
    while [ "$i" -lt "$RUNS" ]; do
        "$@" 2>&1 | nps >> /tmp/bench_compare.$$
        i=$((i + 1))
    done
    m=$(median < /tmp/bench_compare.$$)
    rm -f /tmp/bench_compare.$$
    printf '%-34s %12s nps\n' "$label" "$m" >&2
    echo "$m"
}

echo "machine: $(nproc) cores, $(uname -m); median of $RUNS runs" >&2
ours=$(run "tensorchess bench (chess)" "$TC" bench --variant chess --quiet)
tensor=$(run "tensorchess bench (tensor)" "$TC" bench --variant tensor --quiet)
chessence=$(run "tensorchess bench (chessence)" "$TC" bench --variant chessence --quiet)
sf=""
fsf=""
if [ -x "$SF" ]; then sf=$(run "stockfish bench" "$SF" bench); fi
if [ -x "$FSF" ]; then fsf=$(run "fairy-stockfish bench" "$FSF" bench); fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "| engine | game | nodes/second |"
echo "|---|---|---|"
echo "| tensorchess | chess | $ours |"
echo "| tensorchess | tensor | $tensor |"
echo "| tensorchess | chessence | $chessence |"
[ -n "$sf" ] && echo "| Stockfish 15.1 | chess | $sf |"
[ -n "$fsf" ] && echo "| Fairy-Stockfish 11.1 | chess | $fsf |"
echo
[ -n "$sf" ] && echo "tensorchess / Stockfish (chess nps): $(ratio "$ours" "$sf")"
[ -n "$fsf" ] && echo "tensorchess / Fairy-Stockfish (chess nps): $(ratio "$ours" "$fsf")"
exit 0
