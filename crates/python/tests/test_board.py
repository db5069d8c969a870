"""The Board: moves, SAN, FEN, copies, diagrams, outcomes, and python-chess
agreeing with it on orthodox chess."""

import copy
import random

import chess
import pytest
import tensorchess
from conftest import ALL_VECTORS, read_vectors

TENSOR_START = "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1"


def test_the_package_is_the_installed_wheel() -> None:
    assert "site-packages" in tensorchess.__file__
    assert tensorchess.__version__
    assert tensorchess.VARIANTS == ["tensor", "chess", "chessence"]
    assert tensorchess.WHITE is True and tensorchess.BLACK is False


def test_a_new_board_is_the_tensor_start() -> None:
    board = tensorchess.Board()
    assert board.variant == "tensor"
    assert board.fen() == TENSOR_START
    assert board.turn == tensorchess.WHITE
    assert board.move_stack == [] and board.ply() == 0
    assert (board.halfmove_clock, board.fullmove_number) == (0, 1)
    assert len(board.legal_moves) == 30
    assert not board.is_check() and not board.is_game_over()
    assert board.outcome() is None


def test_push_pop_and_the_move_stack() -> None:
    board = tensorchess.Board()
    board.push("e2e4")
    assert board.turn == tensorchess.BLACK
    assert board.push_san("Nd6") == "c8d6"
    assert board.move_stack == ["e2e4", "c8d6"]
    assert board.peek() == "c8d6"
    assert board.fullmove_number == 2
    assert board.pop() == "c8d6"
    assert board.pop() == "e2e4"
    assert board.fen() == TENSOR_START
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_san_round_trips_on_every_vector_move() -> None:
    """Every legal move of every shipped position (propels, beast captures,
    ricochets, Tensor castling) has a SAN that names it back."""
    seen_kinds = set()
    for v in ALL_VECTORS:
        board = tensorchess.Board(v.variant, v.fen)
        for m in board.legal_moves:
            san = board.san(m)
            assert board.parse_san(san) == m, (v.name, m, san)
            if ">" in m:
                seen_kinds.add("propel")
            if "x" in m:
                seen_kinds.add("beast capture")
    assert seen_kinds == {"propel", "beast capture"}


def test_tensor_notation() -> None:
    board = tensorchess.Board(fen="r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1")
    assert board.san("f1h1") == "Kh1"  # castling is the king's move
    board.push_san("Kh1")
    assert board.fen().startswith("r4k3r/10/10/10/10/10/10/R5RK2 b kq")
    propel = tensorchess.Board(fen="4k5/10/10/10/10/10/4T5/3B1K4 w - - 0 1")
    assert "d1e2>h5" in propel.legal_moves
    # The bishop stays on e2 and checks by ricochet off the beast on h5.
    assert propel.san("d1e2>h5") == "Be2>h5+"


def test_chessence_drops() -> None:
    board = tensorchess.Board("chessence")
    assert not any("@" in m for m in board.legal_moves)  # every drop square is taken
    board.push("d2c2")
    board.push("b7a6")
    drops = [m for m in board.legal_moves if "@" in m]
    assert drops == ["M@d2"]
    assert board.san("M@d2") == "M@d2"
    board.push_san("M@d2")
    assert "[MMmmm]" in board.fen()


def test_copies_are_independent() -> None:
    board = tensorchess.Board("chess")
    board.push("e2e4")
    for other in (board.copy(), copy.copy(board), copy.deepcopy(board)):
        other.push("e7e5")
        assert board.move_stack == ["e2e4"]
        assert other.move_stack == ["e2e4", "e7e5"]
    root = board.root()
    assert root.move_stack == [] and root.fen() == chess.STARTING_FEN


def test_str_and_repr() -> None:
    board = tensorchess.Board()
    lines = str(board).splitlines()
    assert lines[0] == "r t n b q k b n t r"
    assert lines[2] == ". . . . . . . . . ."
    assert lines[7] == "R T N B Q K B N T R"
    assert repr(board) == f"Board(variant='tensor', fen='{TENSOR_START}')"
    again = eval(repr(board), {"Board": tensorchess.Board})
    assert again.fen() == board.fen()
    chessence = str(tensorchess.Board("chessence")).splitlines()
    assert len(chessence) == 10  # nine ranks, then the pieces in hand
    assert chessence[1] == "m m m . . *"  # f8 does not exist
    assert chessence[-1] == "[MMMmmm]"
    assert str(tensorchess.Board("chess")) == str(chess.Board())


def test_the_variants_by_name() -> None:
    assert tensorchess.Board("chess").fen() == chess.STARTING_FEN
    assert tensorchess.Board("standard").variant == "chess"
    assert len(tensorchess.Board("chessence").legal_moves) == 36
    assert "M@c7" not in tensorchess.Board("chessence").legal_moves
    assert "M@d3" not in tensorchess.Board("chessence").legal_moves


@pytest.mark.parametrize("seed", range(6))
def test_python_chess_agrees_on_random_chess_games(seed: int) -> None:
    rng = random.Random(seed)
    ours = tensorchess.Board("chess")
    theirs = chess.Board()
    for _ in range(200):
        moves = sorted(ours.legal_moves)
        assert moves == sorted(m.uci() for m in theirs.legal_moves)
        assert ours.is_check() == theirs.is_check()
        assert ours.fen().split()[:3] == theirs.fen().split()[:3]
        if not moves or ours.is_game_over():
            break
        m = rng.choice(moves)
        assert ours.san(m) == theirs.san(chess.Move.from_uci(m))
        ours.push(m)
        theirs.push_uci(m)


@pytest.mark.parametrize("v", read_vectors("chess"), ids=lambda v: v.name)
def test_python_chess_agrees_on_the_chess_vectors(v) -> None:
    ours = tensorchess.Board("chess", v.fen)
    theirs = chess.Board(v.fen)
    assert sorted(ours.legal_moves) == sorted(m.uci() for m in theirs.legal_moves)
