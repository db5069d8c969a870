#!/usr/bin/env bash
# Mines a shipped puzzle file (recipe in docs/puzzles.md): batches of
# self-play games, each mined and appended to OUT, until OUT holds TARGET
# puzzles (and, with SPECIAL=N, N of them use a ricochet, a propel or a
# beast capture).
#
#   scripts/mine_puzzles.sh VARIANT OUT.csv TARGET [FIRST_SEED]
#
# Environment: GAMES (games per batch, 100), PLAY_NODES (nodes per move of
# the games, 2000), RANDOM_PLIES (random opening plies, 6), THREADS (2),
# T (the binary, target/release/tensorchess), WORK (target/puzzles),
# MINE_ARGS (more options of `tensorchess puzzles`, e.g. --no-mates),
# PLAY_ARGS (more options of `tensorchess selfplay`, e.g. --weak-nodes 300).
set -euo pipefail
V=$1
OUT=$2
TARGET=$3
SEED=${4:-1}
GAMES=${GAMES:-100}
PLAY_NODES=${PLAY_NODES:-2000}
RANDOM_PLIES=${RANDOM_PLIES:-6}
THREADS=${THREADS:-2}
SPECIAL=${SPECIAL:-0}
T=${T:-target/release/tensorchess}
WORK=${WORK:-target/puzzles}
MINE_ARGS=${MINE_ARGS:-}
PLAY_ARGS=${PLAY_ARGS:-}
mkdir -p "$WORK"
count() { [ -f "$OUT" ] && awk -F, 'NR > 1 && $1 != ""' "$OUT" | wc -l || echo 0; }
special() { [ -f "$OUT" ] && awk -F, 'NR > 1 && $8 ~ /ricochet|propel|beastCapture/' "$OUT" | wc -l || echo 0; }
while [ "$(count)" -lt "$TARGET" ] || [ "$(special)" -lt "$SPECIAL" ]; do
  pgn="$WORK/$V-$SEED.pgn"
  rm -f "$pgn"
  echo "$(date -u +%FT%TZ) $V seed $SEED: $(count) puzzles, $(special) with beast moves"
  "$T" selfplay --variant "$V" --games "$GAMES" --nodes "$PLAY_NODES" $PLAY_ARGS \
    --random-plies "$RANDOM_PLIES" --threads "$THREADS" --seed "$SEED" --pgn "$pgn"
  "$T" puzzles --variant "$V" --games "$pgn" --out "$OUT" --threads "$THREADS" $MINE_ARGS
  SEED=$((SEED + 1))
done
echo "$(date -u +%FT%TZ) $V done: $(count) puzzles, $(special) with beast moves"
