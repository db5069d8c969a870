#!/usr/bin/env bash
# Assembles a shipped puzzle file from mined ones (docs/puzzles.md): reads
# the CSV files in order, drops rows before ply MIN_PLY (12) of their game,
# repeated ids and repeated puzzles (the same FEN and first move), keeps
# every puzzle that is not a mate, then mates up to the same number (so at
# most half are mates), those with a ricochet, propel or beast capture
# first, each group in file order. MATES=N takes N mates instead.
#
#   scripts/select_puzzles.sh OUT.csv IN.csv...
set -euo pipefail
OUT=$1
shift
awk -F, -v min_ply="${MIN_PLY:-12}" -v mates="${MATES:--1}" '
  FNR == 1 { if (NR == 1) header = $0; next }
  {
    n = split($9, u, ":"); ply = (n > 1) ? u[n] + 0 : -1
    split($3, m, " ")
    if (ply < min_ply || seen_id[$1]++ || seen_pos[$2 " " m[1]]++) next
    rows[++count] = $0
    if ($8 ~ /(^| )mate( |$)/) mate[count] = 1; else nonmate++
    if ($8 ~ /ricochet|propel|beastCapture/) special[count] = 1
  }
  END {
    want = (mates >= 0) ? mates : nonmate
    for (pass = 1; pass <= 2; pass++)
      for (i = 1; i <= count; i++)
        if (mate[i] && !keep[i] && taken < want && (pass == 2 || special[i])) { keep[i] = 1; taken++ }
    print header
    for (i = 1; i <= count; i++) if (!mate[i] || keep[i]) print rows[i]
  }' "$@" > "$OUT"
