#!/usr/bin/env bash
# Counts a puzzle file's rows by theme (the table of docs/puzzles.md):
#
#   scripts/puzzle_themes.sh crates/analysis/puzzles/tensor.csv
set -euo pipefail
awk -F, '
  NR == 1 { next }
  {
    n++
    if ($8 ~ /ricochet|propel|beastCapture/) special++
    if ($8 !~ /(^| )mate( |$)/) nonmate++
    split($9, u, ":"); if (first == "" || u[2] + 0 < first) first = u[2] + 0
    k = split($8, t, " ")
    for (i = 1; i <= k; i++) c[t[i]]++
  }
  END {
    printf "%d puzzles, %d mates, %d not mates, %d with a ricochet, propel or beast capture, earliest ply %d\n", n, n - nonmate, nonmate, special, first
    split("mate mateIn1 mateIn2 mateIn3 mateIn4 mateIn5 crushing advantage equality propel ricochet passThrough beastCapture castling promotion underPromotion enPassant drop fork hangingPiece sacrifice oneMove short long veryLong", order, " ")
    for (i = 1; i in order; i++) if (c[order[i]]) printf "%s %d\n", order[i], c[order[i]]
  }' "$1"
