#!/usr/bin/env bash
# Runs every test of the project: Rust unit, integration and doc tests, the
# full perft suites (release mode), and the browser and protocol tests.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Rust tests (release)"
cargo test --workspace --release

echo "== Full perft suites (every vector, up to 200 million nodes)"
PERFT_MAX_NODES=200000000 cargo test --release -p tensorchess-rules --test perft
