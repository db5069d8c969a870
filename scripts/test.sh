#!/usr/bin/env bash
# Runs every test of the project: the Rust unit, integration and doc tests
# (the store's on SQLite and on a throwaway PostgreSQL), the full perft
# suites, the Python package's tests, the page's type check and unit tests,
# and the browser tests; the build is also the lint and the docs' build.
# Everything is built once, with the `ci` profile (Cargo.toml), and the
# Rust tests run under cargo-nextest. The time of each step is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

began=$SECONDS
step_name=""
step_began=$SECONDS
# Starts a step, saying how long the one before took.
step() {
  if [ -n "$step_name" ]; then echo "-- $step_name: $((SECONDS - step_began)) s"; fi
  step_name=$1
  step_began=$SECONDS
  [ -n "$1" ] && echo "== $1"
  return 0
}

step "Building, linting and documenting (ci profile; every target, benches and examples too)"
# What this machine lacks (PostgreSQL, Chromium, Stockfish, Node.js, nginx,
# systemd-analyze, python-chess, py4swiss, cargo-nextest and the browser
# tests' npm packages; nothing when all is there) is installed beside the
# build, which needs only the Rust toolchain: it waits on the network and
# dpkg. Its output is shown when the build ends. So are the virtual
# environments of the Python package's and the clients' tests made (PyPI's
# downloads, not the build's CPU), which those steps then only use.
install_log=$(mktemp)
venvs=$(mktemp -d)
{
  bash scripts/install-test-deps.sh &&
    echo "== Making the Python tests' virtual environments" &&
    bash scripts/python-tests.sh --make-venv "$venvs/python" &&
    bash scripts/clients-tests.sh --make-venv "$venvs/clients"
} >"$install_log" 2>&1 &
install_pid=$!
pg_dir=""
browser_pid=""
trap 'kill "$install_pid" 2>/dev/null || true
      if [ -n "$browser_pid" ]; then kill "$browser_pid" 2>/dev/null || true; fi
      if [ -n "$pg_dir" ]; then bash scripts/pg-cluster.sh stop "$pg_dir" || true; fi
      rm -rf "$venvs"' EXIT

# The build is also the lint and the docs: clippy's driver compiles the
# workspace's own crates and lints them as `cargo clippy --all-targets --
# -D warnings` does, and rustdoc documents each library and binary as
# `cargo doc --no-deps` with RUSTDOCFLAGS="-D warnings" does, into
# target/doc (scripts/lint-rustc.sh), every cargo command below with it, so
# that they share one build (the Python wheel's included).
# TENSORCHESS_LINT=0: plain rustc, neither lints nor docs.
if [ "${TENSORCHESS_LINT:-1}" != 0 ]; then
  export RUSTC_WORKSPACE_WRAPPER="$PWD/scripts/lint-rustc.sh"
  export TENSORCHESS_DOC_DIR="$PWD/target/doc"
fi
# The Python package is built (and linted) by maturin below, as a wheel.
# Every target is built, each library and binary as its unit tests too:
# clippy lints those, and rustc the plain ones (TENSORCHESS_LINT_IN_TESTS).
TENSORCHESS_LINT_IN_TESTS=1 cargo build --workspace --exclude tensorchess-python --all-targets --profile ci

step "Installing what this machine lacks (begun beside the build)"
install_status=0
wait "$install_pid" || install_status=$?
cat "$install_log"
rm -f "$install_log"
if [ "$install_status" != 0 ]; then
  echo "installing the tests' dependencies failed (status $install_status)" >&2
  exit "$install_status"
fi

# Tests that need PostgreSQL, python-chess or Stockfish are #[ignore]d (a
# plain `cargo nextest run` reports them skipped); here they all run
# (`--run-ignored all`), with what they need installed above and the
# cluster started below: a missing one fails them. (Both variables are
# for tests of other branches that still return early without them.)
export TENSORCHESS_REQUIRE_PYTHON_CHESS=1
# The Swiss against py4swiss, nginx in front of two instances, the systemd
# unit: installed above, so a missing one is a failure, not a skip.
export TENSORCHESS_REQUIRE_PY4SWISS=1 TENSORCHESS_REQUIRE_NGINX=1 TENSORCHESS_REQUIRE_SYSTEMD=1

step "PostgreSQL (a throwaway cluster for the store tests)"
# A PostgreSQL that does not start is a failure here, not a skipped test.
pg_dir=$(mktemp -d)
TENSORCHESS_TEST_PG=$(bash scripts/pg-cluster.sh start "$pg_dir")
export TENSORCHESS_TEST_PG TENSORCHESS_REQUIRE_PG=1
echo "PostgreSQL at $TENSORCHESS_TEST_PG"

# nextest's own view of the test binaries (built above: nothing to compile).
cargo nextest run --workspace --cargo-profile ci --no-run

# The page's checks and the browser tests need only the binary: they run
# beside the Rust tests (mostly waiting on sockets and Chromium), their
# output kept for the end: the page's type check (tsc --noEmit) and unit
# tests (tap machine, catalogues) first, then the browser tests (`exec`:
# the process the exit trap stops is then theirs).
browser_log=$(mktemp)
{
  (cd tests/browser && npx tsc -p tsconfig.json --noEmit && node --test unit/) &&
    TENSORCHESS_BIN="$PWD/target/ci/tensorchess" exec bash tests/browser/run.sh
} >"$browser_log" 2>&1 &
browser_pid=$!
browser_began=$SECONDS

step "Rust tests (unit and integration; the store's on SQLite and PostgreSQL; the ignored ones too)"
cargo nextest run --workspace --cargo-profile ci --no-fail-fast --run-ignored all

step "Full perft suites (every vector, up to 200 million nodes)"
PERFT_MAX_NODES=200000000 cargo nextest run --workspace --cargo-profile ci -E 'binary_id(tensorchess-rules::integration) & test(/^perft::/)'

step "Doc tests"
cargo test --doc --workspace --profile ci

# ---- Python package (crates/python) --------------------------------------
# Its wheel built by maturin (ci profile), installed in a fresh venv with
# pytest and python-chess, and its pytest tests run against it.
step "Python package: wheel, fresh venv, pytest (scripts/python-tests.sh)"
PYTHON_TESTS_VENV="$venvs/python" bash scripts/python-tests.sh
# ---------------------------------------------------------------------------

step "Clients written for lichess: lichess-bot and berserk (scripts/clients-tests.sh)"
CLIENTS_TESTS_VENV="$venvs/clients" bash scripts/clients-tests.sh

step "The page's type check and unit tests, and the browser tests (Playwright driving Chromium; begun beside the Rust tests)"
browser_status=0
wait "$browser_pid" || browser_status=$?
browser_pid=""
cat "$browser_log"
rm -f "$browser_log"
echo "(the page's checks and the browser tests took $((SECONDS - browser_began)) s in all)"
if [ "$browser_status" != 0 ]; then
  echo "the page's checks or the browser tests failed (status $browser_status)" >&2
  exit "$browser_status"
fi

step ""
echo "== every test passed in $((SECONDS - began)) s"
