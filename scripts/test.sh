#!/usr/bin/env bash
# Runs every test of the project: Rust unit, integration and doc tests (the
# store and API ones on SQLite and on a throwaway PostgreSQL), the full
# perft suites (release mode), and the browser and protocol tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# What the tests need and this machine lacks (PostgreSQL, Chromium,
# Stockfish, Node.js, python-chess, the browser tests' npm packages).
bash scripts/install-test-deps.sh

# The UCI tests also drive the engine through python-chess's client.
export TENSORCHESS_REQUIRE_PYTHON_CHESS=1

# The store tests run on PostgreSQL too: a throwaway cluster, stopped at
# the end however the script ends. A PostgreSQL that does not start is a
# failure here, not a skipped test.
echo "== PostgreSQL (a throwaway cluster for the store and API tests)"
pg_dir=$(mktemp -d)
trap 'bash scripts/pg-cluster.sh stop "$pg_dir" || true' EXIT
TENSORCHESS_TEST_PG=$(bash scripts/pg-cluster.sh start "$pg_dir")
export TENSORCHESS_TEST_PG TENSORCHESS_REQUIRE_PG=1
echo "PostgreSQL at $TENSORCHESS_TEST_PG"

echo "== Rust tests (release)"
cargo test --workspace --release

echo "== API, players, online, lobby and learning tests again, on PostgreSQL"
# --workspace, as above, so the features (and the build) are the same.
TENSORCHESS_TEST_BACKEND=postgres cargo test --release --workspace \
  --test api --test api_moves --test players --test online --test online_clocks --test lobby --test learning --test postgres

echo "== Full perft suites (every vector, up to 200 million nodes)"
PERFT_MAX_NODES=200000000 cargo test --release -p tensorchess-rules --test perft

echo "== Page: type check (tsc --noEmit) and unit tests (tap machine, catalogues)"
(cd tests/browser && npx tsc -p tsconfig.json --noEmit && node --test unit/)

echo "== Browser tests (Playwright driving Chromium)"
cargo build --release -p tensorchess
bash tests/browser/run.sh
