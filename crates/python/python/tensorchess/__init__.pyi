"""Type stub of tensorchess: Tensor Chess, orthodox chess and Chessence for Python."""

from typing import Dict, List, Mapping, Optional, final

__version__: str

WHITE: bool
"""``True``: the side that moves first (as in python-chess)."""
BLACK: bool
"""``False``: the side that moves second."""
VARIANTS: List[str]
"""The games: ``["tensor", "chess", "chessence"]``."""

Color = bool
"""A side: ``True`` for White, as in python-chess."""

class TensorChessError(ValueError):
    """Base class of the errors bad input causes."""

class InvalidMoveError(TensorChessError):
    """Text that is not a move at all: neither a move string nor SAN of this board."""

    move: str

class IllegalMoveError(TensorChessError):
    """A well-formed move the rules forbid here."""

    move: str
    """The move as given."""
    code: str
    """The reason in one word, stable for programs (``"king_would_be_in_check"``)."""
    reason: str
    """The reason in English (``"the pawn on e2 cannot move that way"``)."""
    details: Dict[str, str]
    """The reason's details by name: ``from``, ``to``, ``square``, ``role``, ..."""

class AmbiguousMoveError(TensorChessError):
    """SAN that several legal moves match."""

    move: str
    options: List[str]
    """The SAN of the moves it could mean."""

class InvalidFenError(TensorChessError):
    """A FEN that cannot be read."""

    field: str
    """The part that is wrong: ``"board"``, ``"side to move"``, ``"castling rights"``, ..."""
    reason: str

class InvalidPgnError(TensorChessError):
    """PGN that cannot be read, or a move in it that cannot be played."""

class UnknownVariantError(TensorChessError):
    """A game name other than tensor, chess or chessence."""

class GameOverError(TensorChessError):
    """The side to move has no legal move, so there is no move to find."""

class InternalError(RuntimeError):
    """A bug in tensorchess (a Rust panic caught at the boundary)."""

@final
class Termination:
    """How a game ended (python-chess's names where they mean the same)."""

    CHECKMATE: "Termination"
    STALEMATE: "Termination"
    NO_LEGAL_MOVES: "Termination"
    """Chessence: the side to move has no legal move and is not in check; it loses."""
    INSUFFICIENT_MATERIAL: "Termination"
    """Dead material: neither side can ever give mate."""
    FIFTY_MOVES: "Termination"
    """100 plies without a capture or a pawn move (Chessence: capture or drop)."""
    THREEFOLD_REPETITION: "Termination"
    RESIGNATION: "Termination"
    TIMEOUT: "Termination"
    AGREEMENT: "Termination"
    ABANDONED: "Termination"
    @property
    def name(self) -> str: ...

@final
class Outcome:
    """How a game ended and who won."""

    @property
    def termination(self) -> Termination: ...
    @property
    def winner(self) -> Optional[Color]:
        """``True`` (White), ``False`` (Black) or ``None`` (a draw)."""
    @property
    def reason(self) -> str:
        """How the game ended, in English."""
    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""

@final
class Board:
    """A game: a start position and the moves pushed since.

    Moves are move strings: ``e2e4``, castling as the king's move
    (``f1h1``), promotion ``c7c8q`` / ``c7c8t``, propel ``c1e3>g5``, beast
    capture ``b1d3xc2``, Chessence drop ``M@c2``.
    """

    def __new__(cls, variant: str = "tensor", fen: Optional[str] = None) -> "Board": ...
    @property
    def variant(self) -> str: ...
    @property
    def turn(self) -> Color: ...
    @property
    def legal_moves(self) -> List[str]: ...
    @property
    def move_stack(self) -> List[str]: ...
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def fullmove_number(self) -> int: ...
    def ply(self) -> int: ...
    def push(self, move: str) -> None:
        """Plays a legal move given as a move string (``InvalidMoveError``, ``IllegalMoveError``)."""
    def push_san(self, san: str) -> str:
        """Plays a legal move given in SAN; returns its move string."""
    def pop(self) -> str:
        """Takes back the last move (``IndexError`` when there is none)."""
    def peek(self) -> str: ...
    def san(self, move: str) -> str: ...
    def parse_san(self, san: str) -> str: ...
    def is_legal(self, move: str) -> bool: ...
    def fen(self) -> str: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def outcome(self) -> Optional[Outcome]: ...
    def is_game_over(self) -> bool: ...
    def perft(self, depth: int) -> int:
        """Leaves of the legal move tree ``depth`` plies deep (GIL released; Ctrl-C stops it)."""
    def copy(self) -> "Board": ...
    def __copy__(self) -> "Board": ...
    def __deepcopy__(self, memo: object) -> "Board": ...
    def root(self) -> "Board":
        """A board at this game's start position, with no moves."""
    def pgn(
        self, headers: Optional[Mapping[str, str]] = None, result: Optional[str] = None
    ) -> str: ...

@final
class Score:
    """A score from one side's point of view: centipawns, or moves to mate."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]: ...
    def mate(self) -> Optional[int]:
        """Moves to mate (negative: being mated; 0: mated on the board); ``None`` for centipawns."""
    def is_mate(self) -> bool: ...
    def __neg__(self) -> "Score": ...
    def __lt__(self, other: "Score", /) -> bool: ...
    def __le__(self, other: "Score", /) -> bool: ...
    def __gt__(self, other: "Score", /) -> bool: ...
    def __ge__(self, other: "Score", /) -> bool: ...

@final
class PovScore:
    """A score with the side whose point of view it is from (the side to move)."""

    @property
    def relative(self) -> Score:
        """From the side to move's point of view."""
    @property
    def turn(self) -> Color: ...
    def pov(self, color: Color) -> Score: ...
    def white(self) -> Score: ...
    def black(self) -> Score: ...
    def is_mate(self) -> bool: ...

@final
class Line:
    """One line of an analysis."""

    @property
    def score(self) -> PovScore: ...
    @property
    def pv(self) -> List[str]: ...

@final
class Analysis:
    """What a search found; attributes, or ``info["score"]`` as python-chess's InfoDict."""

    @property
    def score(self) -> PovScore: ...
    @property
    def pv(self) -> List[str]: ...
    @property
    def depth(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def time(self) -> float: ...
    @property
    def lines(self) -> List[Line]: ...
    def __getitem__(self, key: str, /) -> object: ...
    def __contains__(self, key: str, /) -> bool: ...

@final
class Engine:
    """The tensorchess engine, for all three games."""

    def __new__(
        cls,
        level: Optional[int] = None,
        *,
        hash_mb: int = 16,
        threads: int = 1,
        seed: Optional[int] = None,
    ) -> "Engine": ...
    @property
    def level(self) -> int: ...
    def analyse(
        self,
        board: Board,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        multipv: int = 1,
    ) -> Analysis: ...
    def play(
        self,
        board: Board,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
    ) -> str: ...
    def new_game(self) -> None: ...

@final
class Game:
    """A game read from PGN, replayed by the rules."""

    @property
    def headers(self) -> Dict[str, str]: ...
    @property
    def result(self) -> str: ...
    @property
    def variant(self) -> str: ...
    def mainline_moves(self) -> List[str]: ...
    def board(self) -> Board:
        """The start position."""
    def end_board(self) -> Board:
        """The position after the last move, every move on its move stack."""

def read_pgn(text: str) -> List[Game]:
    """Every game of a PGN text, replayed by the rules of its Variant tag."""

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
