"""Lichess-shaped answers checked field by field (issue 40): for each
example in lichess-examples/ (written after the examples of lichess's API
documentation, each naming its source), the server's answer to the same
call must hold every field of the example with the same JSON type. A
rated game between a person (Board API) and a bot (Bot API) gives every
answer: token test, account, users, challenge, gameStart, the game
stream's gameFull, gameState and chatLine, gameFinish, the JSON export,
the user's games, the rating history and the online bots."""

import json
import pathlib
import queue
import threading

import requests

from conftest import Account

EXAMPLES = pathlib.Path(__file__).parent / "lichess-examples"


def example(name: str):
    return json.loads((EXAMPLES / f"{name}.json").read_text())["example"]


def kind(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def differences(ours, theirs, path="$"):
    """Where `ours` lacks a field of `theirs` or holds another type."""
    if kind(ours) != kind(theirs):
        return [f"{path}: {kind(ours)} where lichess has {kind(theirs)} ({ours!r:.80})"]
    out = []
    if isinstance(theirs, dict):
        for key, value in theirs.items():
            if key not in ours:
                out.append(f"{path}.{key}: missing")
            else:
                out += differences(ours[key], value, f"{path}.{key}")
    elif isinstance(theirs, list) and theirs:
        for i, item in enumerate(ours):
            out += differences(item, theirs[0], f"{path}[{i}]")
    return out


def assert_shaped(ours, name: str):
    diff = differences(ours, example(name))
    assert not diff, f"{name}:\n" + "\n".join(diff) + f"\nours: {json.dumps(ours)[:2000]}"


def differences_are_found():
    # The checker itself: a missing field and a wrong type are both caught.
    assert differences({"a": 1}, {"a": 1, "b": "x"}) == ["$.b: missing"]
    assert differences({"a": None}, {"a": 1})
    assert differences({"a": [{"b": "1"}]}, {"a": [{"b": 1}]})


def test_the_checker_catches_missing_fields_and_wrong_types():
    differences_are_found()


class Lines:
    """An NDJSON stream read on a thread, its objects in a queue."""

    def __init__(self, url: str, token: str):
        self.queue = queue.Queue()
        self.response = requests.get(url, headers={"Authorization": f"Bearer {token}"},
                                     stream=True, timeout=30)
        assert self.response.status_code == 200, self.response.text
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for line in self.response.iter_lines():
                if line:
                    self.queue.put(json.loads(line))
        except requests.RequestException:
            pass

    def next_of(self, type_: str, where=lambda _: True):
        while True:
            item = self.queue.get(timeout=30)
            if item.get("type") == type_ and where(item):
                return item


def test_answers_hold_every_field_of_lichess_examples(server):
    url = server.url
    ann = Account(url, "AnnS")
    robo = Account(url, "RoboS")
    ta = ann.token("board:play", "challenge:write")
    tb = robo.token("bot:play", "challenge:write")
    auth = lambda t: {"Authorization": f"Bearer {t}"}  # noqa: E731

    tested = requests.post(f"{url}/api/token/test", data=f"{ta},lip_unknown").json()
    assert tested["lip_unknown"] is None, tested
    assert_shaped({"TOKEN": tested[ta], "UNKNOWN": tested["lip_unknown"]},
                  "oauth-testMultipleOauthTokens")

    assert requests.post(f"{url}/api/bot/account/upgrade", headers=auth(tb)).status_code == 200
    bot_events = Lines(f"{url}/api/stream/event", tb)
    ann_events = Lines(f"{url}/api/stream/event", ta)
    made = requests.post(f"{url}/api/challenge/robos", headers=auth(ta),
                         data={"clock.limit": 180, "clock.increment": 2, "rated": "true",
                               "color": "white", "variant": "standard"})
    assert made.status_code in (200, 201), made.text
    challenge = bot_events.next_of("challenge")
    assert_shaped(challenge, "challenge")
    cid = challenge["challenge"]["id"]
    assert requests.post(f"{url}/api/challenge/{cid}/accept", headers=auth(tb)).status_code == 200
    start = bot_events.next_of("gameStart")
    assert_shaped(start, "gameStart")
    gid = start["game"]["gameId"]
    ann_events.next_of("gameStart")

    game = Lines(f"{url}/api/board/game/stream/{gid}", ta)
    assert_shaped(game.next_of("gameFull"), "gameFull")
    assert requests.post(f"{url}/api/board/game/{gid}/move/e2e4", headers=auth(ta)).status_code == 200
    assert_shaped(game.next_of("gameState", lambda s: s["moves"] == "e2e4"), "gameState")
    requests.post(f"{url}/api/board/game/{gid}/chat", headers=auth(ta),
                  data={"room": "player", "text": "good luck"})
    assert_shaped(game.next_of("chatLine"), "chatLine")
    online = [json.loads(line) for line in
              requests.get(f"{url}/api/bot/online").text.splitlines() if line]
    assert [b["id"] for b in online] == ["robos"], online
    for bot in online:
        assert_shaped(bot, "bot-getOnlineBots")

    assert requests.post(f"{url}/api/bot/game/{gid}/resign", headers=auth(tb)).status_code == 200
    assert_shaped(bot_events.next_of("gameFinish"), "gameFinish")
    finish = ann_events.next_of("gameFinish")
    assert finish["game"]["winner"] == "white" and finish["game"]["ratingDiff"] > 0, finish

    for who, token in [("annS", ta), ("robos", tb)]:
        assert_shaped(requests.get(f"{url}/api/account", headers=auth(token)).json(),
                      "account-getMyProfile")
        assert_shaped(requests.get(f"{url}/api/user/{who}").json(), "users-getUserPublicData")
    assert_shaped(requests.get(f"{url}/api/users/status?ids=annS,robos").json(),
                  "users-getRealTimeUsersStatus")
    exported = requests.get(f"{url}/game/export/{gid}",
                            headers={"Accept": "application/json"}).json()
    assert_shaped(exported, "games-getOneGameJson")
    lines = requests.get(f"{url}/api/games/user/anns",
                         headers={"Accept": "application/x-ndjson"}).text.splitlines()
    assert len(lines) == 1, lines
    assert_shaped(json.loads(lines[0]), "games-getOneGameJson")
    assert_shaped(requests.get(f"{url}/api/user/anns/rating-history").json(),
                  "users-getRatingHistoryOfAUser")
