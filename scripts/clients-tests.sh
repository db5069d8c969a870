#!/usr/bin/env bash
# Runs the compatibility tests (tests/clients): programs written for
# lichess, unchanged, against this server: lichess-bot as published (from
# ../shared/clients/lichess-bot; reported skipped where that folder is
# absent) and berserk from PyPI. Their Python packages are installed in a
# fresh virtual environment; the server is the ci build (TENSORCHESS_BIN to
# test another).
#   PYTHON        the interpreter that makes the venv (default: python3)
#   PYTEST_ARGS   extra pytest arguments (e.g. "-k berserk -x")
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$python" -m venv "$work/venv"
# lichess-bot's requirements (its requirements.txt is left out of the
# shared copy by its .gitignore: these are the packages it imports), and
# berserk.
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-compile \
  pytest chess requests backoff PyYAML rich berserk

export TENSORCHESS_BIN=${TENSORCHESS_BIN:-$PWD/target/ci/tensorchess}
cd tests/clients
# shellcheck disable=SC2086
"$work/venv/bin/python" -m pytest -q -rs ${PYTEST_ARGS:-}
