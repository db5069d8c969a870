"""The examples of docs/python.md run, in order, in one namespace."""

import re
from pathlib import Path

import tensorchess

DOC = Path(__file__).resolve().parents[3] / "docs" / "python.md"


def python_blocks() -> list:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_examples_of_docs_python_md_run() -> None:
    blocks = python_blocks()
    assert len(blocks) >= 5
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    # The last example played a game between two functions.
    board = namespace["board"]
    assert isinstance(board, tensorchess.Board)
    assert board.ply() > 0
    assert board.is_game_over() or board.ply() == 300
    game = tensorchess.read_pgn(board.pgn())[0]
    assert game.mainline_moves() == board.move_stack
