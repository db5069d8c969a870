#!/usr/bin/env bash
# The compiler of the workspace's own crates in scripts/test.sh
# (RUSTC_WORKSPACE_WRAPPER): clippy's driver, which compiles them as rustc
# does and lints them as `cargo clippy` does, with every warning an error
# (`cargo clippy -- -D warnings`). The tests' build is then also the lint,
# and no separate check build is needed. Dependencies are compiled by rustc
# as ever (cargo wraps only the workspace's crates).
set -euo pipefail
driver=${CLIPPY_DRIVER:-$(command -v clippy-driver || true)}
if [ -z "$driver" ]; then
  echo "lint-rustc.sh: clippy-driver is missing: rustup component add clippy (or TENSORCHESS_LINT=0 scripts/test.sh)" >&2
  exit 1
fi
exec "$driver" "$@" -D warnings
