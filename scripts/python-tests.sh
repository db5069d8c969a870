#!/usr/bin/env bash
# Tests the Python package (crates/python) as a user gets it: builds its
# wheel with maturin into a temporary folder, installs it in a fresh
# virtual environment (python3 -m venv) with pytest, python-chess and mypy
# (its stubtest checks the type stub), and
# runs the pytest tests in crates/python/tests against the installed wheel.
#
# The wheel is built with the `ci` profile by default, so that scripts/test.sh
# reuses the rules and engine crates it has already built; a release wheel
# for users is `maturin build --release` (docs/python.md).
#   PYTHON_WHEEL_PROFILE   cargo profile of the wheel (default: ci)
#   PYTHON                 the interpreter that makes the venv (default: python3)
#   PYTEST_ARGS            extra pytest arguments (e.g. "-k perft -x")
#   PYTHON_TESTS_VENV      a venv made by `python-tests.sh --make-venv DIR`
#                          (scripts/test.sh makes it beside the build): the
#                          wheel is installed there instead of in a new one
set -euo pipefail
cd "$(dirname "$0")/.."

profile=${PYTHON_WHEEL_PROFILE:-ci}
python=${PYTHON:-python3}

# A fresh venv with what the tests import besides the package.
make_venv() {
  "$python" -m venv "$1"
  "$1/bin/python" -m pip install --quiet --disable-pip-version-check --no-compile pytest chess mypy
}
if [ "${1:-}" = --make-venv ]; then
  make_venv "$2"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if command -v maturin >/dev/null; then
  maturin=(maturin)
elif "$python" -m maturin --version >/dev/null 2>&1; then
  maturin=("$python" -m maturin)
else
  echo "python-tests: maturin is missing: python3 -m pip install maturin (scripts/install-test-deps.sh does)" >&2
  exit 1
fi

began=$SECONDS
"${maturin[@]}" build --profile "$profile" --manifest-path crates/python/Cargo.toml \
  --interpreter "$python" --out "$work/wheel"
echo "python-tests: wheel built in $((SECONDS - began)) s: $(ls "$work"/wheel)"

venv=${PYTHON_TESTS_VENV:-}
if [ -z "$venv" ]; then
  venv=$work/venv
  make_venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-compile \
  --no-deps --force-reinstall "$work"/wheel/*.whl

# From crates/python, so that the package imported is the installed one
# (the source folder is python/tensorchess, never on the path).
cd crates/python
export PYTHONDONTWRITEBYTECODE=1
# shellcheck disable=SC2086
"$venv/bin/python" -m pytest -p no:cacheprovider -q tests ${PYTEST_ARGS:-}
