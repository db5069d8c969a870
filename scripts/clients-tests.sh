#!/usr/bin/env bash
# Runs the compatibility tests (tests/clients): programs written for
# lichess, unchanged, against this server: lichess-bot as published (from
# ../shared/clients/lichess-bot; reported skipped where that folder is
# absent) and berserk from PyPI. Their Python packages are installed in a
# fresh virtual environment; the server is the ci build (TENSORCHESS_BIN to
# test another).
#   PYTHON        the interpreter that makes the venv (default: python3)
#   PYTEST_ARGS   extra pytest arguments (e.g. "-k berserk -x")
#   CLIENTS_TESTS_VENV  a venv made by `clients-tests.sh --make-venv DIR`
#                 (scripts/test.sh makes it beside the build), used instead
#                 of a new one
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}

# A fresh venv with lichess-bot's requirements (its requirements.txt is
# left out of the shared copy by its .gitignore: these are the packages it
# imports), and berserk.
make_venv() {
  "$python" -m venv "$1"
  "$1/bin/python" -m pip install --quiet --disable-pip-version-check --no-compile \
    pytest chess requests backoff PyYAML rich berserk
}
if [ "${1:-}" = --make-venv ]; then
  make_venv "$2"
  exit 0
fi

venv=${CLIENTS_TESTS_VENV:-}
if [ -z "$venv" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  venv=$work/venv
  make_venv "$venv"
fi

export TENSORCHESS_BIN=${TENSORCHESS_BIN:-$PWD/target/ci/tensorchess}
cd tests/clients
# shellcheck disable=SC2086
"$venv/bin/python" -m pytest -q -rs ${PYTEST_ARGS:-}
