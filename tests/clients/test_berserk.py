"""berserk, the lichess API's Python client from PyPI, pointed at this server
with `base_url` and nothing else changed (issue 40): accounts and users,
challenges, the Bot and Board APIs through a whole game, chat, and game
export read back in lichess's shapes."""

import io
import threading

import berserk
import chess
import chess.pgn
import pytest

from conftest import Account


def client(url: str, token: str) -> berserk.Client:
    return berserk.Client(session=berserk.TokenSession(token), base_url=url)


def test_accounts_and_users_are_lichess_shaped(server):
    ann = Account(server.url, "Ann_B")
    api = client(server.url, ann.token("board:play"))
    me = api.account.get()
    assert me["id"] == "ann_b" and me["username"] == "Ann_B", me
    assert {"blitz", "bullet", "rapid", "classical", "tensor", "chessence"} <= set(me["perfs"])
    assert me["count"]["all"] == 0
    public = api.users.get_public_data("ANN_B")
    assert public["id"] == "ann_b" and "createdAt" in public, public
    statuses = api.users.get_realtime_statuses("ann_b", "nobody_here")
    assert [s["id"] for s in statuses] == ["ann_b"], statuses
    with pytest.raises(berserk.exceptions.ResponseError) as e:
        api.users.get_public_data("nobody_here")
    assert e.value.status_code == 404


def test_a_bot_and_a_person_play_through_berserk(server):
    url = server.url
    robo = Account(url, "RoboB")
    bot = client(url, robo.token("bot:play", "challenge:write"))
    bot.account.upgrade_to_bot()
    ann = Account(url, "AnnB")
    person = client(url, ann.token("board:play", "challenge:write"))

    started = threading.Event()
    game_id = {}

    def bot_events():
        for event in bot.bots.stream_incoming_events():
            if event["type"] == "challenge":
                challenge = event["challenge"]
                assert challenge["challenger"]["id"] == "annb", challenge
                assert challenge["variant"]["key"] == "standard", challenge
                bot.bots.accept_challenge(challenge["id"])
            elif event["type"] == "gameStart":
                game_id["id"] = event["game"]["id"]
                started.set()
                return

    t = threading.Thread(target=bot_events, daemon=True)
    t.start()
    made = person.challenges.create("robob", rated=True, clock_limit=180,
                                    clock_increment=2, color="white", variant="standard")
    assert made["id"], made
    assert started.wait(30), "the bot never started the game"
    gid = game_id["id"]

    # The bot plays Black from its stream; the person plays White.
    bot_moves = ["e7e5", "b8c6"]

    def bot_plays():
        for state in bot.bots.stream_game_state(gid):
            moves = (state["state"] if state["type"] == "gameFull" else state).get("moves")
            if moves is None:
                continue
            if state.get("status", "started") != "started" or not bot_moves:
                return
            if len(moves.split()) % 2 == 1:
                bot.bots.make_move(gid, bot_moves.pop(0))

    b = threading.Thread(target=bot_plays, daemon=True)
    b.start()
    stream = person.board.stream_game_state(gid)
    full = next(stream)
    assert full["type"] == "gameFull" and full["white"]["id"] == "annb", full
    person.board.make_move(gid, "e2e4")
    for state in stream:
        if state["type"] == "gameState" and state["moves"] == "e2e4 e7e5":
            break
    person.board.post_message(gid, "good luck")
    assert [m["text"] for m in person.board.get_game_chat(gid)] == ["good luck"]
    person.board.make_move(gid, "g1f3")
    for state in stream:
        if state["type"] == "gameState" and state["moves"] == "e2e4 e7e5 g1f3 b8c6":
            break
    bot.bots.resign_game(gid)
    for state in stream:
        if state["type"] == "gameState" and state["status"] != "started":
            assert state["status"] == "resign" and state["winner"] == "white", state
            break

    exported = person.games.export(gid)
    assert exported["id"] == gid
    assert exported["moves"] == "e4 e5 Nf3 Nc6", exported
    assert exported["players"]["white"]["user"]["id"] == "annb", exported
    assert exported["winner"] == "white" and exported["status"] == "resign"
    pgn = person.games.export(gid, as_pgn=True)
    board = chess.Board()
    game = chess.pgn.read_game(io.StringIO(pgn))
    for move in game.mainline_moves():
        board.push(move)
    assert board.fen().startswith("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2")
    playing = person.games.get_ongoing()
    assert playing == [], playing

    # A user's games (NDJSON and PGN), games by id, and the rating history.
    mine = list(person.games.export_by_player("AnnB", max=10))
    assert [g["id"] for g in mine] == [gid], mine
    assert mine[0]["perf"] == "blitz" and mine[0]["rated"] is True, mine
    assert list(person.games.export_by_player("annb", vs="robob", rated=False)) == []
    assert list(person.games.export_by_player("annb", perf_type="tensor")) == []
    pgn_games = "".join(person.games.export_by_player("annb", as_pgn=True))
    assert chess.pgn.read_game(io.StringIO(pgn_games)) is not None
    by_ids = list(person.games.export_multi(gid, "nosuchgame1"))
    assert [g["id"] for g in by_ids] == [gid], by_ids
    history = {h["name"]: h["points"] for h in person.users.get_rating_history("annb")}
    assert len(history["Chess"]) == 1, history
    assert history["Chess"][0][3] > 1500, history  # won: the rating rose
    assert history["Tensor"] == [], history
