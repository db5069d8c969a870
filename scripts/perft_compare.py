#!/usr/bin/env python3
"""Single-threaded perft speed, side by side in one run: tensorchess against
Stockfish (orthodox chess) and Fairy-Stockfish (its 10x8 `capablanca` start,
the nearest board to Tensor Chess it has). Each case runs `--repeat` times and
the fastest run counts. Usage: scripts/perft_compare.py [--repeat 3]"""

import argparse, os, re, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = os.environ.get("TENSORCHESS", os.path.join(ROOT, "target/release/tensorchess"))
STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")
FAIRY = os.environ.get("FAIRY_STOCKFISH", "/usr/games/fairy-stockfish")
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def ours(variant, depth, fen=None):
    cmd = [OURS, "perft", "--variant", variant, str(depth)]
    if fen:
        cmd[2:2] = ["--fen", fen]
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    dt = time.perf_counter() - t
    return int(re.search(r"Nodes searched: (\d+)", out).group(1)), dt


def uci(engine, depth, variant=None, fen=None):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(token):
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError(f"{engine} exited")
            if line.startswith(token):
                return line

    send("uci")
    wait("uciok")
    if variant:
        send(f"setoption name UCI_Variant value {variant}")
    send("isready")
    wait("readyok")
    send(f"position fen {fen}" if fen else "position startpos")
    t = time.perf_counter()
    send(f"go perft {depth}")
    line = wait("Nodes searched")
    dt = time.perf_counter() - t
    send("quit")
    p.wait()
    return int(line.split()[-1]), dt


def best(f, repeat):
    runs = [f() for _ in range(repeat)]
    return min(runs, key=lambda r: r[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    rows = []
    cases = [
        ("chess start, perft 6", lambda: ours("chess", 6), "Stockfish 15.1, chess start, perft 6", lambda: uci(STOCKFISH, 6)),
        ("chess kiwipete, perft 5", lambda: ours("chess", 5, KIWIPETE), "Stockfish 15.1, kiwipete, perft 5", lambda: uci(STOCKFISH, 5, fen=KIWIPETE)),
        ("Tensor start, perft 5", lambda: ours("tensor", 5), "Fairy-Stockfish 11.1, capablanca start, perft 5", lambda: uci(FAIRY, 5, variant="capablanca")),
    ]
    print(f"| tensorchess | nodes | s | Mnps | other program | nodes | s | Mnps | nps ratio (ours/theirs) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, f, oname, g in cases:
        n1, t1 = best(f, a.repeat)
        n2, t2 = best(g, a.repeat)
        r = (n1 / t1) / (n2 / t2)
        print(f"| {name} | {n1} | {t1:.3f} | {n1/t1/1e6:.1f} | {oname} | {n2} | {t2:.3f} | {n2/t2/1e6:.1f} | {r:.2f} |")
    n, t = best(lambda: ours("chessence", 5), a.repeat)
    print(f"| Chessence start, perft 5 | {n} | {t:.3f} | {n/t/1e6:.1f} | (no other program plays Chessence) | | | | |")


if __name__ == "__main__":
    sys.exit(main())
