"""Legal moves and perft against the shipped vectors."""

import threading

import pytest
import tensorchess
from conftest import ALL_VECTORS, MAX_NODES, Vector


def test_the_vectors_are_there() -> None:
    games = {v.variant for v in ALL_VECTORS}
    assert games == {"tensor", "chess", "chessence"}
    assert len(ALL_VECTORS) >= 40


def test_legal_moves_count_perft_one(vector: Vector) -> None:
    board = tensorchess.Board(vector.variant, vector.fen)
    moves = board.legal_moves
    depth1 = dict(vector.counts)[1]
    assert len(moves) == depth1
    assert len(set(moves)) == len(moves), "one move string per move"
    assert all(board.is_legal(m) for m in moves)


def test_perft_matches_the_vectors(vector: Vector) -> None:
    board = tensorchess.Board(vector.variant, vector.fen)
    checked = 0
    for depth, nodes in vector.counts:
        if nodes <= MAX_NODES:
            assert board.perft(depth) == nodes, f"{vector.name} depth {depth}"
            checked += 1
    assert checked >= 1


def test_perft_two_by_pushing_and_popping_from_python(vector: Vector) -> None:
    """Depth 2 counted through push, legal_moves and pop: the binding's
    moves, not only its perft, agree with the vectors."""
    board = tensorchess.Board(vector.variant, vector.fen)
    before = board.fen()
    total = 0
    for m in board.legal_moves:
        board.push(m)
        total += len(board.legal_moves)
        assert board.pop() == m
    assert total == dict(vector.counts)[2]
    assert board.fen() == before and board.move_stack == []


def test_perft_zero_is_one() -> None:
    assert tensorchess.Board().perft(0) == 1


def test_perft_releases_the_gil() -> None:
    """While a perft runs on another thread, this thread keeps running."""
    counter = [0]
    during = []
    done = threading.Event()

    def work() -> None:
        before = counter[0]
        tensorchess.Board().perft(4)  # a million nodes
        during.append(counter[0] - before)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        counter[0] += 1
    worker.join()
    # Holding the GIL, the perft would have let this loop run not once.
    assert during[0] > 100


def test_ctrl_c_interrupts_a_long_perft(ctrl_c: None) -> None:
    import os
    import signal

    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            tensorchess.Board().perft(12)  # would take years
    finally:
        timer.cancel()
    # The board is still usable afterwards.
    assert tensorchess.Board().perft(2) == 900
