"""Games played to the end, the engine's analysis, and PGN round trips."""

import random
import threading

import pytest
import tensorchess
from conftest import read_vectors
from tensorchess import Termination

# Tensor Chess's fool's mate: the queen comes out on the diagonal g3 and h4 opened.
TENSOR_FOOLS_MATE = ["g2g3", "f7f6", "h2h4", "e8i4"]


def test_a_tensor_game_played_to_mate() -> None:
    board = tensorchess.Board()
    for m in TENSOR_FOOLS_MATE:
        assert not board.is_game_over()
        board.push(m)
    assert board.is_check() and board.is_checkmate() and board.is_game_over()
    assert board.legal_moves == []
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination == Termination.CHECKMATE
    assert outcome.winner is tensorchess.BLACK
    assert outcome.result() == "0-1" and outcome.reason == "checkmate"
    assert repr(outcome) == "Outcome(termination=Termination.CHECKMATE, winner=False)"
    with pytest.raises(tensorchess.IllegalMoveError):
        board.push("a2a3")
    with pytest.raises(tensorchess.GameOverError):
        tensorchess.Engine().play(board, depth=2)
    mated = tensorchess.Engine().analyse(board, depth=2)
    assert mated.pv == [] and mated.score.relative.mate() == 0


def test_the_draws() -> None:
    stalemate = tensorchess.Board("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_stalemate()
    assert stalemate.outcome().termination == Termination.STALEMATE
    assert stalemate.outcome().winner is None
    assert stalemate.outcome().result() == "1/2-1/2"
    repeat = tensorchess.Board()
    for _ in range(2):
        for m in ["c1d3", "c8d6", "d3c1", "d6c8"]:
            repeat.push(m)
    assert repeat.outcome().termination == Termination.THREEFOLD_REPETITION
    beasts_only = tensorchess.Board(fen="4k5/10/3t6/10/10/6T3/10/4K5 w - - 0 1")
    assert beasts_only.outcome().termination == Termination.INSUFFICIENT_MATERIAL
    clock = tensorchess.Board(fen="4k5/10/10/10/10/10/10/R3K5 w - - 100 80")
    assert clock.outcome().termination == Termination.FIFTY_MOVES


def random_mover(seed: int):
    rng = random.Random(seed)

    def choose(board: tensorchess.Board) -> str:
        return rng.choice(board.legal_moves)

    return choose


@pytest.mark.parametrize("variant", ["tensor", "chessence"])
def test_the_engine_beats_a_random_mover(variant: str) -> None:
    engine = tensorchess.Engine(seed=1)
    board = tensorchess.Board(variant)
    players = {tensorchess.WHITE: lambda b: engine.play(b, nodes=3000), tensorchess.BLACK: random_mover(7)}
    while not board.is_game_over() and board.ply() < 400:
        board.push(players[board.turn](board))
    outcome = board.outcome()
    assert outcome is not None, board.pgn()
    assert outcome.winner is tensorchess.WHITE, board.pgn()
    expected = {"tensor": Termination.CHECKMATE, "chessence": None}[variant]
    if expected is not None:
        assert outcome.termination == expected
    else:
        assert outcome.termination in (Termination.CHECKMATE, Termination.NO_LEGAL_MOVES)


def test_analysis_finds_the_mate() -> None:
    board = tensorchess.Board()
    for m in TENSOR_FOOLS_MATE[:3]:
        board.push(m)
    engine = tensorchess.Engine()
    info = engine.analyse(board, depth=3)
    assert info.pv[0] == "e8i4"
    assert info.score.relative.mate() == 1  # Black, to move, mates in one
    assert info.score.turn is tensorchess.BLACK
    assert info.score.black().mate() == 1
    assert info.score.white().mate() == -1
    assert str(info.score.white()) == "#-1" and repr(info.score.black()) == "Mate(+1)"
    assert info.score.white().score() is None
    assert info.score.black().score(mate_score=100000) == 99999
    assert info["score"] == info.score and info["pv"] == info.pv and "depth" in info
    assert info.depth >= 1 and info.nodes > 0 and info.time >= 0
    assert engine.play(board, depth=3) == "e8i4"


def test_analysis_of_a_quiet_position_with_lines() -> None:
    board = tensorchess.Board()
    info = tensorchess.Engine().analyse(board, depth=5, multipv=3)
    assert len(info.lines) == 3
    firsts = [line.pv[0] for line in info.lines]
    assert len(set(firsts)) == 3 and all(m in board.legal_moves for m in firsts)
    assert info.lines[0].pv == info.pv
    scores = [line.score.relative for line in info.lines]
    assert scores == sorted(scores, reverse=True)
    assert not info.score.is_mate()
    cp = info.score.white().score()
    assert cp is not None and -300 < cp < 300
    assert info.score.white() == -info.score.black()
    # Each line is legal from the position.
    for line in info.lines:
        b = board.copy()
        for m in line.pv:
            b.push(m)


def test_play_obeys_the_limits_and_levels() -> None:
    board = tensorchess.Board("chess")
    assert tensorchess.Engine().play(board, nodes=500) in board.legal_moves
    assert tensorchess.Engine(level=1).play(board, time=0.05) in board.legal_moves
    assert tensorchess.Engine(level=3).level == 3 and tensorchess.Engine().level == 6
    engine = tensorchess.Engine(threads=2, hash_mb=8)
    assert engine.analyse(board, depth=4).depth == 4
    engine.new_game()


def test_the_search_releases_the_gil_and_ctrl_c_stops_it(ctrl_c: None) -> None:
    import os
    import signal

    engine = tensorchess.Engine()
    board = tensorchess.Board()
    counter = [0]
    during = []
    done = threading.Event()

    def work() -> None:
        before = counter[0]
        engine.analyse(board, nodes=200_000)
        during.append(counter[0] - before)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        counter[0] += 1
    worker.join()
    assert during[0] > 100
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            engine.analyse(board, time=3600)
    finally:
        timer.cancel()
    assert engine.play(board, depth=2) in board.legal_moves


def play_randomly(variant: str, fen, plies: int, seed: int) -> tensorchess.Board:
    rng = random.Random(seed)
    board = tensorchess.Board(variant, fen)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves))
    return board


@pytest.mark.parametrize("variant", ["tensor", "chess", "chessence"])
@pytest.mark.parametrize("seed", range(3))
def test_pgn_round_trip(variant: str, seed: int) -> None:
    board = play_randomly(variant, None, 80, seed)
    headers = {"Event": "Round trip", "White": "Ann", "Black": "Bob \"the beast\"", "Annotator": "x"}
    text = board.pgn(headers=headers)
    if variant != "chess":
        assert f'[Variant "{variant.capitalize()}"]' in text
    [game] = tensorchess.read_pgn(text)
    assert game.variant == variant
    assert game.mainline_moves() == board.move_stack
    assert game.end_board().fen() == board.fen()
    assert game.end_board().move_stack == board.move_stack
    assert game.board().fen() == board.root().fen()
    for k, v in headers.items():
        assert game.headers[k] == v
    outcome = board.outcome()
    assert game.result == (outcome.result() if outcome else "*")
    assert game.end_board().pgn(headers=game.headers) == text


def test_pgn_from_a_set_up_position_and_several_games() -> None:
    vector = read_vectors("tensor")[5]
    first = play_randomly("tensor", vector.fen, 20, 1)
    second = play_randomly("chess", None, 10, 2)
    text = first.pgn(result="1-0") + "\n" + second.pgn(result="1/2-1/2")
    assert '[SetUp "1"]' in text and f'[FEN "{vector.fen}"]' in text
    games = tensorchess.read_pgn(text)
    assert [g.variant for g in games] == ["tensor", "chess"]
    assert [g.result for g in games] == ["1-0", "1/2-1/2"]
    assert games[0].board().fen() == vector.fen
    assert games[0].mainline_moves() == first.move_stack
    assert games[1].end_board().fen() == second.fen()
    # The Result header of a game read carries over when it is written again.
    assert '[Result "1-0"]' in games[0].end_board().pgn(headers=games[0].headers)
    assert "tensor" in repr(games[0])


def test_pgn_read_with_san_comments_and_variations() -> None:
    text = """[Event "Casual"]
[Variant "Tensor"]
[Result "0-1"]

1. g3 {the beast watches} f6 (1... e6 2. e4) 2. h4 $2 Qi4# 0-1
"""
    [game] = tensorchess.read_pgn(text)
    assert game.mainline_moves() == TENSOR_FOOLS_MATE
    assert game.end_board().is_checkmate()
    assert game.headers["Event"] == "Casual"


def test_pgn_headers_from_any_mapping() -> None:
    from types import MappingProxyType

    text = tensorchess.Board().pgn(headers=MappingProxyType({"White": "Ann", "Round": "3"}))
    assert '[White "Ann"]' in text and '[Round "3"]' in text
    with pytest.raises(TypeError):
        tensorchess.Board().pgn(headers={"White": 1})
