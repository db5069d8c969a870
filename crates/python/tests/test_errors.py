"""Bad input raises the package's exceptions, with the rules crate's reasons."""

import pytest
import tensorchess
from tensorchess import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPgnError,
    TensorChessError,
    UnknownVariantError,
)


def test_the_exceptions_are_value_errors() -> None:
    for e in (
        AmbiguousMoveError,
        IllegalMoveError,
        InvalidFenError,
        InvalidMoveError,
        InvalidPgnError,
        UnknownVariantError,
        tensorchess.GameOverError,
    ):
        assert issubclass(e, TensorChessError)
        assert e.__module__ == "tensorchess"
    assert issubclass(TensorChessError, ValueError)
    assert issubclass(tensorchess.InternalError, RuntimeError)


def test_an_illegal_move_says_why() -> None:
    board = tensorchess.Board()
    with pytest.raises(IllegalMoveError) as info:
        board.push("e2e5")
    e = info.value
    assert e.move == "e2e5"
    assert e.code == "cannot_move_that_way"
    assert e.reason == "the pawn on e2 cannot move that way"
    assert e.details == {"role": "pawn", "from": "e2"}
    assert str(e) == "illegal move e2e5: the pawn on e2 cannot move that way"
    assert board.move_stack == []  # nothing was played


@pytest.mark.parametrize(
    "fen, move, code",
    [
        (None, "e7e5", "not_yours"),
        (None, "e4e5", "no_piece"),
        (None, "c1e3", "cannot_move_that_way"),  # the bishop is blocked
        (None, "b1d3xc2", "no_enemy_beast"),
        ("4k5/10/10/10/10/10/4T5/3B1K4 w - - 0 1", "d1e2", "stops_on_own_beast"),
        ("4k5/10/10/10/10/10/4T5/3B1K4 w - - 0 1", "f1g1>h1", "cannot_propel"),
        ("4k5/10/10/10/10/6r3/10/5K4 w - - 0 1", "f1g1", "king_would_be_in_check"),
    ],
)
def test_illegal_moves_carry_the_reason_code(fen, move, code) -> None:
    board = tensorchess.Board(fen=fen)
    with pytest.raises(IllegalMoveError) as info:
        board.push(move)
    assert info.value.code == code, str(info.value)
    assert not board.is_legal(move)
    with pytest.raises(IllegalMoveError):
        board.san(move)


def test_text_that_is_no_move() -> None:
    board = tensorchess.Board()
    for text in ("zz", "", "e2", "k2k4", "e2e4e6", "é2e4"):
        with pytest.raises(InvalidMoveError) as info:
            board.push(text)
        assert info.value.move == text
    with pytest.raises(InvalidMoveError):
        board.push_san("Xx9")
    with pytest.raises(TypeError):
        board.push(None)  # type: ignore[arg-type]


def test_san_errors() -> None:
    board = tensorchess.Board("chess", "4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1")
    with pytest.raises(AmbiguousMoveError) as info:
        board.push_san("Nd2")
    assert sorted(info.value.options) == ["Nbd2", "Nfd2"]
    board.push_san("Nbd2")
    with pytest.raises(IllegalMoveError) as illegal:
        tensorchess.Board().push_san("Qh5")
    assert illegal.value.code == "no_such_move"
    with pytest.raises(IllegalMoveError) as castle:
        tensorchess.Board().push_san("O-O")
    assert castle.value.code == "castling_written_as_king_move"


def test_bad_fens() -> None:
    with pytest.raises(InvalidFenError) as info:
        tensorchess.Board("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1")
    assert info.value.field == "side to move"
    with pytest.raises(InvalidFenError) as board:
        tensorchess.Board("tensor", "4k3/8/8/8/8/8/8/4K3 w - - 0 1")  # 8 files
    assert board.value.field == "board"
    with pytest.raises(InvalidFenError):
        tensorchess.Board(fen="")
    with pytest.raises(InvalidFenError):
        tensorchess.Board(fen="x" * 100_000)


def test_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError, match="xiangqi"):
        tensorchess.Board("xiangqi")


def test_bad_pgn() -> None:
    with pytest.raises(InvalidPgnError, match=r"move 1\.\.\. \(e4\)"):
        tensorchess.read_pgn('[Variant "Tensor"]\n\n1. e4 e4 *')
    with pytest.raises(InvalidPgnError, match="unknown variant"):
        tensorchess.read_pgn('[Variant "Xiangqi"]\n\n1. e4 *')
    with pytest.raises(InvalidPgnError, match="FEN"):
        tensorchess.read_pgn('[SetUp "1"]\n[FEN "nonsense"]\n\n*')
    assert tensorchess.read_pgn("") == []


def test_bad_engine_settings_and_limits() -> None:
    for level in (0, 7):
        with pytest.raises(ValueError):
            tensorchess.Engine(level)
    with pytest.raises(ValueError):
        tensorchess.Engine(hash_mb=0)
    engine = tensorchess.Engine()
    board = tensorchess.Board()
    for bad in ({"depth": 0}, {"nodes": 0}, {"time": -1.0}, {"time": float("nan")}, {"multipv": 0}):
        with pytest.raises(ValueError):
            engine.analyse(board, **bad)
    with pytest.raises(OverflowError):
        engine.analyse(board, depth=-1)


def test_bad_pgn_results() -> None:
    with pytest.raises(ValueError, match="unknown result"):
        tensorchess.Board().pgn(result="2-0")
