"""Tensor Chess, orthodox chess and Chessence for Python.

The rules (legal moves, FEN, SAN, PGN, outcomes, perft) and the engine of
the tensorchess project, in python-chess's shape. Moves are the move
strings of the project's rules (``e2e4``, ``c7c8t``, ``c1e3>g5``,
``b1d3xc2``, ``M@c2``). See docs/python.md in the project.
"""

from ._tensorchess import (
    BLACK,
    VARIANTS,
    WHITE,
    AmbiguousMoveError,
    Analysis,
    Board,
    Engine,
    Game,
    GameOverError,
    IllegalMoveError,
    InternalError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPgnError,
    Line,
    Outcome,
    PovScore,
    Score,
    TensorChessError,
    Termination,
    UnknownVariantError,
    __version__,
    read_pgn,
)

Color = bool
"""A side: ``True`` for White (``WHITE``), ``False`` for Black, as in python-chess."""

__all__ = [
    "BLACK",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "Analysis",
    "Board",
    "Color",
    "Engine",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InternalError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidPgnError",
    "Line",
    "Outcome",
    "PovScore",
    "Score",
    "TensorChessError",
    "Termination",
    "UnknownVariantError",
    "__version__",
    "read_pgn",
]
