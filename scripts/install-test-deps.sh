#!/usr/bin/env bash
# Installs what the tests need and this machine lacks; what is already there
# is left alone, so a second run does not reach the network.
#   Debian packages: postgresql (the store tests), chromium (the browser
#     tests), stockfish (a match test plays it), nodejs and npm (the page's
#     type check and the browser tests), python3-venv (the Python
#     package's tests run in a fresh venv), nginx (docs/deployment.md's
#     configuration runs in front of two instances), systemd (for
#     systemd-analyze, which checks the shipped unit)
#   PyPI: python-chess (the UCI and review tests drive and read us with it),
#     maturin (builds the Python package's wheel, scripts/python-tests.sh),
#     py4swiss (an independent FIDE Dutch pairing program our Swiss
#     pairings are compared with)
#   crates.io: cargo-nextest (runs the Rust tests)
#   npm: the browser tests' packages (tests/browser/package-lock.json)
# `sudo` is used only when not root. Where something cannot be installed,
# one line says what and how, and the script fails.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "install-test-deps: $*" >&2
  exit 1
}

sudo_cmd=()
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then sudo_cmd=(sudo); fi
as_root() {
  if [ "$(id -u)" != 0 ] && [ "${#sudo_cmd[@]}" -eq 0 ]; then
    fail "not root and no sudo: install $* as root, then run again"
  fi
  ${sudo_cmd[@]+"${sudo_cmd[@]}"} "$@"
}

# Debian packages, each with the file that tells it is installed.
missing=()
have_postgres() { ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }
have_postgres || missing+=(postgresql)
# Chromium's recommended packages (printer setup, avahi, udev, upower, a
# notification daemon: about 80 more packages) are not installed; the one
# that changes what the pages look like, its fonts, is named.
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
[ -x /usr/games/stockfish ] || missing+=(stockfish)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
# `python3 -m venv` (scripts/python-tests.sh) needs it where Python is Debian's.
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v systemd-analyze >/dev/null || missing+=(systemd)

if [ "${#missing[@]}" -gt 0 ]; then
  command -v apt-get >/dev/null ||
    fail "no apt-get here to install ${missing[*]}: install them with your package manager, then run again"
  if [ "$(id -u)" != 0 ] && [ "${#sudo_cmd[@]}" -eq 0 ]; then
    fail "not root and no sudo to install ${missing[*]}: install them as root, then run again"
  fi
  echo "== Installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq || fail "apt-get update failed: is the network reachable?"
  as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    fail "apt-get install ${missing[*]} failed"
fi

# python-chess: from PyPI; a Debian Python that refuses pip installs
# (PEP 668) gets Debian's package instead.
if ! python3 -c 'import chess' 2>/dev/null; then
  echo "== Installing python-chess"
  python3 -m pip install --quiet chess 2>/dev/null ||
    python3 -m pip install --quiet --user chess 2>/dev/null ||
    { command -v apt-get >/dev/null && as_root apt-get install -y -qq python3-chess >/dev/null; } ||
    fail "could not install python-chess: python3 -m pip install chess"
fi

# maturin builds the Python package's wheel (scripts/python-tests.sh
# installs it, with pytest and python-chess, in a venv of its own).
if ! command -v maturin >/dev/null && ! python3 -m maturin --version >/dev/null 2>&1; then
  echo "== Installing maturin"
  python3 -m pip install --quiet maturin 2>/dev/null ||
    python3 -m pip install --quiet --user maturin 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages maturin 2>/dev/null ||
    fail "could not install maturin: python3 -m pip install maturin"
fi

# py4swiss pairs our TRF files by the FIDE Dutch system
# (crates/tournament/tests/integration/dutch_oracle.rs compares its rounds with ours).
if ! python3 -c 'import py4swiss' 2>/dev/null; then
  echo "== Installing py4swiss"
  python3 -m pip install --quiet py4swiss 2>/dev/null ||
    python3 -m pip install --quiet --user py4swiss 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages py4swiss 2>/dev/null ||
    fail "could not install py4swiss: python3 -m pip install py4swiss"
fi

# cargo-nextest runs the Rust tests (each in a process of its own).
if ! command -v cargo-nextest >/dev/null; then
  echo "== Installing cargo-nextest"
  cargo install --locked --quiet cargo-nextest ||
    fail "could not install cargo-nextest: cargo install --locked cargo-nextest"
fi

# The browser tests' npm packages, exactly as locked.
lock=tests/browser/package-lock.json
stamp=tests/browser/node_modules/.installed-lock
if [ ! -f "$stamp" ] || ! cmp -s "$lock" "$stamp"; then
  echo "== Installing the browser tests' npm packages"
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error) ||
    fail "npm ci in tests/browser failed: is the npm registry reachable?"
  cp "$lock" "$stamp"
fi
