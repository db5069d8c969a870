#!/usr/bin/env python3
"""Checks `tensorchess uci` with python-chess's UCI client, for orthodox chess.

Usage:  pip install chess
        python3 scripts/uci_python_chess.py [PATH/TO/tensorchess]

The engine path defaults to target/release/tensorchess (or $TENSORCHESS).
It plays a short game against itself through chess.engine.SimpleEngine,
checks every move with python-chess's own rules, analyses a position with
MultiPV, checks a mate score, and exits non-zero on any failure.
"""

import os
import sys
import time

import chess
import chess.engine


def engine_path():
    if len(sys.argv) > 1:
        return sys.argv[1]
    if os.environ.get("TENSORCHESS"):
        return os.environ["TENSORCHESS"]
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "target", "release", "tensorchess")


def main():
    path = engine_path()
    engine = chess.engine.SimpleEngine.popen_uci([path, "uci"], timeout=30)
    try:
        assert engine.id.get("name", "").startswith("tensorchess"), engine.id
        for option in ["UCI_Variant", "Hash", "Threads", "MultiPV", "UCI_LimitStrength", "UCI_Elo"]:
            assert option in engine.options, f"option {option} missing"
        # python-chess sets UCI_Variant itself (to "chess" for a chess.Board).
        engine.configure({"Hash": 32, "Threads": 1})

        # A game: each side moves through the engine, python-chess checks legality.
        board = chess.Board()
        limits = [chess.engine.Limit(depth=4), chess.engine.Limit(time=0.1),
                  chess.engine.Limit(nodes=5000),
                  chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05, black_inc=0.05)]
        for ply in range(24):
            if board.is_game_over():
                break
            result = engine.play(board, limits[ply % len(limits)], info=chess.engine.INFO_ALL)
            assert result.move is not None, "no move"
            assert result.move in board.legal_moves, f"illegal move {result.move} in {board.fen()}"
            board.push(result.move)
        print(f"played {len(board.move_stack)} plies: {chess.Board().variation_san(board.move_stack)}")

        # Analysis with MultiPV and the reported fields.
        infos = engine.analyse(chess.Board(), chess.engine.Limit(depth=6), multipv=3)
        assert len(infos) == 3, infos
        for info in infos:
            for key in ["depth", "seldepth", "score", "nodes", "nps", "time", "pv"]:
                assert key in info, f"{key} missing in {info}"
            assert info["pv"][0] in chess.Board().legal_moves

        # A mate in one is found and scored as a mate.
        board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
        info = engine.analyse(board, chess.engine.Limit(depth=4))
        assert info["pv"][0] == chess.Move.from_uci("h5f7"), info
        assert info["score"].white().mate() == 1, info["score"]

        # An infinite analysis stops when asked.
        with engine.analysis(chess.Board()) as analysis:
            time.sleep(0.3)
            t = time.time()
            analysis.stop()
            analysis.wait()
            assert time.time() - t < 1.0
        # Strength limiting still gives legal moves.
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1000})
        result = engine.play(chess.Board(), chess.engine.Limit(time=0.1))
        assert result.move in chess.Board().legal_moves
    finally:
        engine.quit()
    print("python-chess UCI check: ok")


if __name__ == "__main__":
    main()
