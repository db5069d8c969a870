"""Fixtures for the compatibility tests: programs written for lichess run
unchanged against this server (lichess-bot as published, berserk from
PyPI). Each test gets a server of its own on a fresh SQLite file."""

import os
import pathlib
import subprocess
import tempfile
import threading

import pytest
import requests

ROOT = pathlib.Path(__file__).resolve().parents[2]


def server_binary() -> pathlib.Path:
    """The binary under test: TENSORCHESS_BIN, else the ci build."""
    return pathlib.Path(os.environ.get("TENSORCHESS_BIN", ROOT / "target" / "ci" / "tensorchess"))


class Server:
    """`tensorchess serve` on a free loopback port, stopped at the end."""

    def __init__(self, workdir: pathlib.Path):
        binary = server_binary()
        if not binary.exists():
            pytest.fail(f"{binary} is missing: cargo build --profile ci -p tensorchess")
        self.proc = subprocess.Popen(
            [str(binary), "serve", "--host", "127.0.0.1", "--port", "0",
             "--no-schedule", "--db", str(workdir / "db.sqlite3")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.url = None
        for line in self.proc.stdout:
            if "http://" in line:
                self.url = "http://" + line.split("http://")[1].split("/")[0]
                break
        if self.url is None:
            pytest.fail("the server stopped before saying where it listens")
        # Keep reading its output so that it never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Account:
    """An account on the server: its session (cookies) and its name."""

    def __init__(self, url: str, username: str):
        self.url = url
        self.username = username
        self.session = requests.Session()
        r = self.session.post(f"{url}/api/account/register",
                              json={"username": username, "password": "a long password"})
        assert r.status_code == 201, r.text

    def token(self, *scopes: str) -> str:
        """A personal API token with `scopes`, made as the page makes one."""
        r = self.session.post(f"{self.url}/api/account/tokens",
                              json={"description": "a program", "scopes": list(scopes)})
        assert r.status_code == 201, r.text
        return r.json()["token"]


@pytest.fixture
def workdir():
    with tempfile.TemporaryDirectory(prefix="tc-clients-") as d:
        yield pathlib.Path(d)


@pytest.fixture
def server(workdir):
    s = Server(workdir)
    yield s
    s.stop()
