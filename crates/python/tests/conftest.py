"""Shared helpers of the tensorchess package's tests: the perft vectors the
rules crate ships (crates/rules/tests/data/*.perft), read from the
repository the tests run in, against the installed wheel."""

import os
from pathlib import Path
from typing import List, NamedTuple, Tuple

import pytest

DATA = Path(__file__).resolve().parents[2] / "rules" / "tests" / "data"

# Nodes above which a perft vector is left to the Rust suite (which runs
# every vector): the same counts from Python need only show the binding.
MAX_NODES = int(os.environ.get("TENSORCHESS_PY_PERFT_MAX_NODES", "2000000"))


class Vector(NamedTuple):
    """One position of a .perft file: its game, name, FEN and (depth, nodes) pairs."""

    variant: str
    name: str
    fen: str
    counts: List[Tuple[int, int]]


def read_vectors(variant: str) -> List[Vector]:
    """Reads `variant`.perft: `id NAME`, `epd FEN`, then `perft DEPTH NODES` lines."""
    vectors: List[Vector] = []
    for line in (DATA / f"{variant}.perft").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "id":
            vectors.append(Vector(variant, rest, "", []))
        elif key == "epd":
            vectors[-1] = vectors[-1]._replace(fen=rest)
        elif key == "perft":
            depth, nodes = rest.split()
            vectors[-1].counts.append((int(depth), int(nodes)))
        else:
            raise ValueError(f"unknown line in {variant}.perft: {line}")
    return vectors


ALL_VECTORS = [v for game in ("tensor", "chess", "chessence") for v in read_vectors(game)]


@pytest.fixture(params=ALL_VECTORS, ids=lambda v: v.name)
def vector(request: pytest.FixtureRequest) -> Vector:
    return request.param


@pytest.fixture
def ctrl_c():
    """Ctrl-C raises `KeyboardInterrupt` during the test, as in a terminal.
    A process started in the background by a shell without job control
    (`cmd &` in a script) inherits SIGINT ignored, and Python then leaves
    it ignored: a test of Ctrl-C would wait forever."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
