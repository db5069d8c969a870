#!/usr/bin/env bash
# Runs every browser test (Playwright driving Debian's Chromium) against a
# built tensorchess binary: TENSORCHESS_BIN, or target/release/tensorchess.
# Screenshots land in tests/browser/screenshots/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export TENSORCHESS_BIN="${TENSORCHESS_BIN:-${CARGO_TARGET_DIR:-$repo/target}/release/tensorchess}"
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$TENSORCHESS_BIN" ]; then
  echo "no binary at $TENSORCHESS_BIN: run 'cargo build --release' first (or set TENSORCHESS_BIN)" >&2
  exit 2
fi
if [ ! -x "$CHROMIUM" ]; then
  echo "no Chromium at $CHROMIUM: install Debian's package with 'apt-get install -y chromium'" >&2
  exit 2
fi
cd "$here"
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] || [ ! -d node_modules/typescript ]; then
  npm ci --no-audit --no-fund
fi
mkdir -p screenshots
if [ "$#" -eq 0 ]; then set -- ./*.test.mjs; fi
# Two files at a time: each has its own server and browser. A file's
# process ends when its tests do (--test-force-exit), even if a failed test
# left a child process or a timer behind: a failure is reported, never a
# suite that waits for ever.
exec node --test --test-concurrency=2 --test-force-exit --test-reporter=spec "$@"
