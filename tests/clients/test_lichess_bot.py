"""lichess-bot, as published, plays here with nothing changed but its
configuration's `url` and `token` (issue 40): it upgrades its account,
declines a Tensor Chess challenge as a variant it does not play, and plays
a whole game of chess with Stockfish against a person who moves through
the Board API; the PGN it saves (from `GET /game/export/{id}`) reads back
in python-chess with the game's moves.

The copy in ../shared/clients/lichess-bot lacks the two files its
.gitignore leaves out (`*.yml`, `*.txt`): `lib/versioning.yml`, which it
reads for its version, is written into the test's copy with the release's
version (SOURCE names the commit); its own files are not touched."""

import io
import json
import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import time

import chess
import chess.pgn
import pytest
import requests
import yaml

from conftest import ROOT, Account

LICHESS_BOT = pathlib.Path(
    os.environ.get("LICHESS_BOT_DIR", ROOT.parent / "shared" / "clients" / "lichess-bot"))
STOCKFISH = pathlib.Path("/usr/games/stockfish")
VERSIONING = (
    "lichess_bot_version: 2026.8.2.1\n"
    "minimum_python_version: '3.10'\n"
    "deprecated_python_version: '3.9'\n"
    "deprecation_date: 2025-10-01\n"
)


def lines(response):
    """The JSON lines of a stream, keep-alives skipped."""
    for raw in response.iter_lines():
        if raw:
            yield json.loads(raw)


def install_bot(workdir: pathlib.Path, url: str, token: str) -> pathlib.Path:
    """A copy of lichess-bot configured for this server."""
    bot = workdir / "lichess-bot"
    shutil.copytree(LICHESS_BOT, bot)
    for p in bot.rglob("*"):
        p.chmod(p.stat().st_mode | 0o200)
    versioning = bot / "lib" / "versioning.yml"
    if not versioning.exists():
        versioning.write_text(VERSIONING)
    config = yaml.safe_load((bot / "config.yml.default").read_text())
    config["token"] = token
    config["url"] = url + "/"
    engine = config["engine"]
    engine["dir"] = str(STOCKFISH.parent)
    engine["name"] = STOCKFISH.name
    engine["ponder"] = False
    # A tenth of a second a move (lichess-bot reads `go_commands` among the
    # engine's options): the game is a test, not a contest.
    engine["uci_options"] = {"Threads": 1, "Hash": 16, "Move Overhead": 100,
                             "go_commands": {"movetime": 100}}
    config["pgn_directory"] = str(workdir / "pgn")
    (bot / "config.yml").write_text(yaml.safe_dump(config))
    return bot


def wait_online(url: str, name: str, within: float = 60):
    """Until the server counts `name` online (its event stream is open)."""
    deadline = time.time() + within
    while time.time() < deadline:
        status = requests.get(f"{url}/api/users/status", params={"ids": name}).json()
        if status and status[0]["online"]:
            return
        time.sleep(0.2)
    pytest.fail(f"{name} never came online")


def challenge(person: Account, to: str, variant: str) -> str:
    r = person.session.post(f"{person.url}/api/challenges", json={
        "to": to, "variant": variant, "color": "white",
        "clock": {"base_seconds": 180, "increment_seconds": 2}})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def play_randomly(url: str, token: str, game_id: str, rng: random.Random) -> dict:
    """Plays White's moves at random through the Board API until the game
    ends; returns its last state."""
    headers = {"Authorization": f"Bearer {token}"}
    with requests.get(f"{url}/api/board/game/stream/{game_id}", headers=headers,
                      stream=True, timeout=120) as stream:
        for event in lines(stream):
            state = event["state"] if event["type"] == "gameFull" else event
            if state.get("type") != "gameState":
                continue
            if state["status"] != "started":
                return state
            board = chess.Board()
            for uci in state["moves"].split():
                board.push_uci(uci)
            if board.turn == chess.WHITE:
                move = rng.choice(list(board.legal_moves)).uci()
                r = requests.post(f"{url}/api/board/game/{game_id}/move/{move}", headers=headers)
                assert r.status_code == 200, r.text
    pytest.fail("the game stream ended before the game")


@pytest.mark.skipif(not LICHESS_BOT.is_dir(), reason=f"lichess-bot is not at {LICHESS_BOT}")
@pytest.mark.skipif(not STOCKFISH.exists(), reason="Stockfish is not installed")
def test_lichess_bot_plays_a_game_and_declines_a_variant(server, workdir):
    url = server.url
    robo = Account(url, "RoboLB")
    bot_dir = install_bot(workdir, url, robo.token("bot:play", "challenge:write"))
    log = open(workdir / "lichess-bot.log", "w")
    proc = subprocess.Popen([sys.executable, "lichess-bot.py", "-u"], cwd=bot_dir,
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        t0 = time.time()
        wait_online(url, "robolb")
        print(f"online after {time.time() - t0:.1f} s")
        me = requests.get(f"{url}/api/user/robolb").json()
        assert me["title"] == "BOT", me

        person = Account(url, "Ann")
        token = person.token("board:play", "challenge:write")
        headers = {"Authorization": f"Bearer {token}"}
        with requests.get(f"{url}/api/stream/event", headers=headers,
                          stream=True, timeout=120) as events:
            events_iter = lines(events)
            # Tensor Chess is not a variant it plays: declined as such.
            tensor = challenge(person, "robolb", "tensor")
            for e in events_iter:
                if e["type"] == "challengeDeclined" and e["challenge"]["id"] == tensor:
                    assert "variant" in e["challenge"]["declineReason"], e
                    break
            # Chess: accepted, and played to its end.
            chess_id = challenge(person, "robolb", "chess")
            for e in events_iter:
                if e["type"] == "gameStart":
                    game_id = e["game"]["id"]
                    assert e["game"]["opponent"]["id"] == "robolb", e
                    break
        print(f"game started after {time.time() - t0:.1f} s")
        end = play_randomly(url, token, game_id, random.Random(40))
        print(f"game over after {time.time() - t0:.1f} s: {len(end['moves'].split())} plies")
        assert end["status"] in {"mate", "resign", "stalemate", "draw", "outoftime"}, end

        # The bot saves the game's PGN, which it asks of GET /game/export/{id}.
        deadline = time.time() + 60
        pgns = []
        while time.time() < deadline and not pgns:
            pgns = list((workdir / "pgn").glob("*.pgn")) if (workdir / "pgn").exists() else []
            time.sleep(0.2)
        assert pgns, "lichess-bot saved no PGN"
        print(f"PGN saved after {time.time() - t0:.1f} s")
        game = chess.pgn.read_game(io.StringIO(pgns[0].read_text()))
        assert game is not None
        moves = " ".join(m.uci() for m in game.mainline_moves())
        assert moves == end["moves"]
        assert chess_id
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        # Shown by pytest only when the test fails.
        print((workdir / "lichess-bot.log").read_text()[-6000:])
