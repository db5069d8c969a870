#!/usr/bin/env python3
"""Speed of the tensorchess Python package beside python-chess and pyffish
(Fairy-Stockfish's Python binding), side by side in one run.

    python3 scripts/python_bench.py [--repeat 3] [--quick]

Needs `tensorchess` (a release wheel: `maturin build --release` in
crates/python) and `chess` installed; `pyffish` is measured when it is
installed and left out, saying so, when not. Prints a Markdown table for
BENCHMARKS.md; each figure is the fastest of --repeat runs.

What is measured, from Python, each library used the way its API asks:
- legal moves: the legal moves of a position, as that library returns
  them (tensorchess: a list of move strings; python-chess:
  `list(board.legal_moves)`, Move objects; pyffish: `legal_moves(variant,
  fen, [])`, a list of strings, the position read from its FEN every call);
- perft from Python: the tree of legal moves walked by Python code, the
  last ply counted without playing it (tensorchess and python-chess:
  push/pop on one board; pyffish: `legal_moves(variant, fen, moves)` with
  the moves from the root, as its stateless API goes);
- native perft: `Board.perft(depth)` (tensorchess only: python-chess and
  pyffish have none).
Tensor Chess is known to tensorchess only; pyffish's 10x8 `capablanca`
start stands beside it as a board of the same size.
"""

import argparse
import sys
import time
from pathlib import Path
from typing import Callable, List, Tuple

import chess
import tensorchess

try:
    import pyffish
except ImportError:  # measured only where it is installed
    pyffish = None

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "crates" / "rules" / "tests" / "data"


def fens(variant: str) -> List[str]:
    """The FENs of the shipped perft vectors of a game."""
    path = DATA / f"{variant}.perft"
    return [line[4:].strip() for line in path.read_text().splitlines() if line.startswith("epd ")]


def legal_loop(rounds: int, one: Callable[[], int]) -> Callable[[], int]:
    def run() -> int:
        total = 0
        for _ in range(rounds):
            total += one()
        return total

    return run


# --- legal moves -----------------------------------------------------------


def ours_legal(variant: str, positions: List[str]) -> Callable[[], int]:
    boards = [tensorchess.Board(variant, f) for f in positions]
    return lambda: sum(len(b.legal_moves) for b in boards)


def python_chess_legal(positions: List[str]) -> Callable[[], int]:
    boards = [chess.Board(f) for f in positions]
    return lambda: sum(len(list(b.legal_moves)) for b in boards)


def pyffish_legal(variant: str, positions: List[str]) -> Callable[[], int]:
    assert pyffish is not None
    return lambda: sum(len(pyffish.legal_moves(variant, f, [])) for f in positions)


# --- perft walked from Python ---------------------------------------------


def ours_perft_py(board: tensorchess.Board, depth: int) -> int:
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += ours_perft_py(board, depth - 1)
        board.pop()
    return total


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for m in board.legal_moves:
        board.push(m)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def pyffish_perft(variant: str, fen: str, moves: List[str], depth: int) -> int:
    assert pyffish is not None
    legal = pyffish.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(pyffish_perft(variant, fen, moves + [m], depth - 1) for m in legal)


Row = Tuple[str, str, str, int, float]  # library, what, positions, count, seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measurement (fastest kept)")
    ap.add_argument("--quick", action="store_true", help="smaller counts, for a try")
    args = ap.parse_args()
    rounds = 200 if args.quick else 2000
    # pyffish reads a FEN and sets up a position on every call (milliseconds
    # here): fewer rounds and a shallower perft keep its runs to seconds.
    ff_rounds = max(1, rounds // 40)
    chess_fens = fens("chess")
    tensor_fens = fens("tensor")
    capa = pyffish.start_fen("capablanca") if pyffish else None
    plan: List[Tuple[str, str, str, Callable[[], int]]] = []

    def measure(lib: str, what: str, positions: str, run: Callable[[], int]) -> None:
        plan.append((lib, what, positions, run))

    where = f"{len(chess_fens)} chess vectors x {rounds}"
    measure("tensorchess", "legal moves", where, legal_loop(rounds, ours_legal("chess", chess_fens)))
    measure("python-chess", "legal moves", where, legal_loop(rounds, python_chess_legal(chess_fens)))
    if pyffish:
        ff_where = f"{len(chess_fens)} chess vectors x {ff_rounds}"
        measure("pyffish", "legal moves", ff_where, legal_loop(ff_rounds, pyffish_legal("chess", chess_fens)))
    where = f"{len(tensor_fens)} Tensor vectors x {rounds // 5}"
    measure("tensorchess", "legal moves (Tensor)", where, legal_loop(rounds // 5, ours_legal("tensor", tensor_fens)))
    if pyffish and capa:
        where = f"capablanca start x {ff_rounds * 6}"
        measure("pyffish", "legal moves (capablanca)", where, legal_loop(ff_rounds * 6, pyffish_legal("capablanca", [capa])))

    d_chess = 3 if args.quick else 4
    d_tensor = 3 if args.quick else 4
    start = chess.STARTING_FEN
    what = f"perft {d_chess} from Python"
    measure("tensorchess", what, "chess start", lambda: ours_perft_py(tensorchess.Board("chess"), d_chess))
    measure("python-chess", what, "chess start", lambda: python_chess_perft(chess.Board(), d_chess))
    if pyffish:
        d_ff = d_chess - 1
        measure("pyffish", f"perft {d_ff} from Python", "chess start", lambda: pyffish_perft("chess", start, [], d_ff))
    what = f"perft {d_tensor} from Python"
    measure("tensorchess", what, "Tensor start", lambda: ours_perft_py(tensorchess.Board(), d_tensor))
    if pyffish and capa:
        d_capa = d_tensor - 1
        measure("pyffish", f"perft {d_capa} from Python", "capablanca start", lambda: pyffish_perft("capablanca", capa, [], d_capa))
    measure("tensorchess", "native perft 5", "chess start", lambda: tensorchess.Board("chess").perft(5))
    measure("tensorchess", "native perft 5", "Tensor start", lambda: tensorchess.Board().perft(5))


    # The runs of all measurements are interleaved, so that a change in the
    # machine's load during the run touches every library alike.
    best = [float("inf")] * len(plan)
    counts = [0] * len(plan)
    for r in range(args.repeat):
        for i, (lib, what, positions, run) in enumerate(plan):
            began = time.perf_counter()
            counts[i] = run()
            best[i] = min(best[i], time.perf_counter() - began)
            print(f"  run {r + 1}: {lib:12} {what:26} {positions:32} {time.perf_counter() - began:8.3f} s", file=sys.stderr)
    rows: List[Row] = [
        (lib, what, positions, counts[i], best[i]) for i, (lib, what, positions, _) in enumerate(plan)
    ]

    print(f"tensorchess {tensorchess.__version__}, python-chess {chess.__version__}, " + (
        f"pyffish {'.'.join(map(str, pyffish.version()))}" if pyffish else "pyffish not installed (left out)"
    ) + f", Python {sys.version.split()[0]}\n")
    print("| library | what | positions | count | s | per second |")
    print("|---|---|---|---|---|---|")
    for lib, what, positions, count, secs in rows:
        unit = "moves" if what.startswith("legal") else "nodes"
        print(f"| {lib} | {what} | {positions} | {count} {unit} | {secs:.3f} | {count / secs:,.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
