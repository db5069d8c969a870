#!/usr/bin/env python3
"""Judges played-out match games with Stockfish at full strength: how often
the named engine stood at +3 or better (or -3 or worse) and what it made of
it, so that a match played to the end can be compared with an adjudicated
one (docs/strength.md, "Two ways of measuring").

    python3 scripts/strength_judge.py tensorchess target/strength/RUN/games.pgn ...

Needs python-chess and /usr/games/stockfish. Every fourth ply is searched
to depth 9 on one thread (a few minutes for 40 games).
"""
import collections
import sys

import chess
import chess.engine
import chess.pgn

STOCKFISH = "/usr/games/stockfish"
EVERY = 4
DEPTH = 9
EDGE = 300  # centipawns: "stood at +3"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    name, paths = sys.argv[1], sys.argv[2:]
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    engine.configure({"Threads": 1, "Hash": 16})
    tally = collections.Counter()
    for path in paths:
        with open(path) as pgn:
            while (game := chess.pgn.read_game(pgn)) is not None:
                ours_white = game.headers["White"] == name
                score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[game.headers["Result"]]
                if not ours_white:
                    score = 1.0 - score
                board = game.board()
                best, worst = -(10**9), 10**9
                for ply, move in enumerate(game.mainline_moves(), start=1):
                    board.push(move)
                    if ply % EVERY or board.is_game_over():
                        continue
                    info = engine.analyse(board, chess.engine.Limit(depth=DEPTH))
                    cp = info["score"].white().score(mate_score=10000)
                    cp = cp if ours_white else -cp
                    best, worst = max(best, cp), min(worst, cp)
                tally["games"] += 1
                if best >= EDGE:
                    tally["stood at +3"] += 1
                    tally["stood at +3, did not win"] += score < 1.0
                    tally["stood at +3, lost"] += score == 0.0
                if worst <= -EDGE:
                    tally["stood at -3"] += 1
                    tally["stood at -3, still scored"] += score > 0.0
    engine.quit()
    for key, count in tally.items():
        print(f"{key}: {count}")


if __name__ == "__main__":
    main()
