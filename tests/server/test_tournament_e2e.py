"""A whole tournament end to end on loopback: a `leekha serve` process, two `leekha bot
--tournament` processes (one proving its name with its key, the other killed with SIGKILL
midway) and two server bots, over
8 deals in 4 rotations. The standings the server publishes must add up to the game
records in its database, read back by the export.

Every process is real and bounded by deadlines; waits read output lines, never sleep.
"""

from __future__ import annotations

import signal
import socket
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import Proc, bot, serve

from leekha import protocol as P
from leekha.common.record import GameRecord
from leekha.protocol.views import EntrantRequest
from leekha.server.domain.persistence import Store
from leekha.server.domain.tournament.export import document
from leekha.server.domain.tournament.store import TournamentStore

# The fast lane leaves it out: it starts processes or ptys.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(150)]

DEALS = 8
ENTRANTS: list[EntrantRequest] = [
    {"name": "ann", "strategy": None},
    {"name": None, "strategy": "heuristic"},
    {"name": "bob", "strategy": None},
    {"name": None, "strategy": "random"},
]
ANN, BOB = 0, 2
CRASH_CUP: list[EntrantRequest] = [
    {"name": "ann", "strategy": None},
    {"name": None, "strategy": "random"},
    {"name": None, "strategy": "random"},
    {"name": None, "strategy": "random"},
]
#: Server bots that think in 0 ms make a bot client send far more than a person's 50
#: messages a second: the server would drop its moves (rate_limited) and a timer play them.
FAST = ("--rate-limit-msgs-per-s", "10000", "--rate-burst", "10000")


class Wire:
    """A blocking protocol client for the test's own requests (host and follower)."""

    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.conn = P.Connection("client")
        self.inbox: list[P.Message] = []
        welcome = self.ask(P.Hello(id=self.conn.new_id(), versions=[[1, 3]], name=name))
        assert isinstance(welcome, P.Welcome), welcome

    def ask(self, msg: Any) -> P.Message:
        self.sock.sendall(self.conn.send(msg))
        while True:
            for got in self.inbox:
                if getattr(got, "re", None) == msg.id:
                    self.inbox.remove(got)
                    return got
            data = self.sock.recv(65536)
            assert data, "the server closed the connection"
            self.inbox.extend(self.conn.receive_data(data))
            self.sock.sendall(self.conn.data_to_send())

    def close(self) -> None:
        self.sock.close()


def test_four_entrants_eight_deals_one_killed_and_the_standings_add_up(tmp_path: Path) -> None:
    data = tmp_path / "data"
    flags = ("--seat-grace-s", "0.2", "--afk-timeouts-before-bot", "1", *FAST)
    bots: list[Proc] = []
    with serve(tmp_path, 0, data, *flags) as (_server, port):
        host = Wire(port, "host")
        try:
            made = host.ask(
                P.CreateTournament(
                    id=host.conn.new_id(),
                    name="loopback cup",
                    entrants=ENTRANTS,
                    deals=DEALS,
                    overrides={"target": 1},
                    move_timer_s=10,  # a loaded machine never times ann out
                )
            )
            assert isinstance(made, P.TournamentState), made
            tid = made.tournament["id"]
            assert made.tournament["status"] == "waiting"
            assert made.tournament["games_total"] == DEALS * 4
            ann = bot(tmp_path, port, "--tournament", str(tid), "--name", "ann",
                      "--strategy", "heuristic", "--identity")  # fmt: skip
            bob = bot(tmp_path, port, "--tournament", str(tid), "--name", "bob")
            carol = bot(tmp_path, port, "--tournament", str(tid), "--name", "carol")
            bots = [ann, bob, carol]
            for _ in range(4):  # bob is killed at the start of his fourth game
                bob.wait_line(r"seated for a tournament game", timeout=60)
                bob.seen.clear()
            bob.popen.kill()
            assert ann.finish(timeout=120) == 0, ann.text()
            assert "Traceback" not in ann.text()
            assert carol.finish(timeout=10) == 1  # not an entrant: refused, in words
            words = carol.text()
            assert "is not a client entrant of tournament" in words and "Traceback" not in words
            final = host.ask(P.GetTournament(id=host.conn.new_id(), tournament_id=tid))
            assert isinstance(final, P.TournamentState)
        finally:
            host.close()
            for b in bots:
                b.kill()
    wire = final.tournament
    assert wire["status"] == "finished" and wire["games_done"] == DEALS * 4

    store = Store.in_dir(data)
    # ann proved her name with her key: no one else may enter as her on this server.
    assert [r[0] for r in store.read("SELECT name FROM identities")] == ["ann"]
    stored = TournamentStore(store).load(tid)
    assert stored is not None
    doc = document(stored.meta(), stored.entrants, list(stored.results.values()))
    assert sorted(g["game"] for g in doc["games"]) == list(range(DEALS * 4))

    # From the records alone: each entrant's games, wins, rounds and points.
    expected: dict[int, Counter[str]] = {i: Counter() for i in range(4)}
    rotations: Counter[int] = Counter()
    for g in doc["games"]:
        assert g["record_id"] is not None
        record = store.game_record(g["record_id"])
        assert record is not None
        game = GameRecord.from_dict(record).replay()  # every game replays
        assert game.outcome is not None and game.seed == g["seed"]
        rotations[g["deal"]] += 1
        for seat, entrant in enumerate(g["seats"]):
            expected[entrant].update(
                games=1,
                wins=int(seat in game.outcome.winners),
                rounds=len(game.history),
                points=sum(r[seat] for r in game.history),
            )
    assert rotations == Counter({d: 4 for d in range(DEALS)})
    for lines in (wire["standings"], doc["standings"]):
        for line in lines:
            got = {k: line[k] for k in ("games", "wins", "rounds", "points")}
            assert got == dict(expected[line["entrant"]]), line["entrant"]
    standings = {s["entrant"]: s for s in wire["standings"]}
    assert standings[BOB]["fallback_games"] >= DEALS * 4 - 4  # every game after the kill
    assert standings[ANN]["fallback_games"] == 0
    assert not wire["entrants"][BOB]["present"]
    assert sorted(s["rank"] or 0 for s in wire["standings"]) == sorted(
        s["rank"] or 0 for s in doc["standings"]
    )
    store.close()


def test_a_server_crash_mid_game_loses_no_game_and_plays_none_twice(tmp_path: Path) -> None:
    """SIGKILL the server while ann sits at her third game; after the restart she resumes
    her seat there, the tournament goes on, and every game is recorded exactly once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tmp_path / "data"
    ann: Proc | None = None
    try:
        with serve(tmp_path, port, data, *FAST) as (server, _port):
            host = Wire(port, "host")
            made = host.ask(
                P.CreateTournament(
                    id=host.conn.new_id(),
                    name="crash cup",
                    entrants=CRASH_CUP,
                    deals=2,
                    overrides={"target": 1},
                    move_timer_s=30,  # no timer plays for ann while the server is down
                )
            )
            assert isinstance(made, P.TournamentState), made
            tid = made.tournament["id"]
            ann = bot(tmp_path, port, "--tournament", str(tid), "--name", "ann",
                      "--delay-ms", "20")  # fmt: skip
            for _ in range(3):
                ann.wait_line(r"seated for a tournament game")
                ann.seen.clear()
            host.close()
            server.popen.send_signal(signal.SIGKILL)
            server.finish(timeout=10)
        ann.wait_line(r"reconnecting in")
        with serve(tmp_path, port, data, *FAST):
            assert ann.finish(timeout=60) == 0, ann.text()
            assert "session resumed" in ann.text()
            host = Wire(port, "host")
            final = host.ask(P.GetTournament(id=host.conn.new_id(), tournament_id=tid))
            host.close()
    finally:
        if ann is not None:
            ann.kill()
    assert isinstance(final, P.TournamentState)
    assert final.tournament["status"] == "finished" and final.tournament["games_done"] == 8
    store = Store.in_dir(data)
    stored = TournamentStore(store).load(tid)
    assert stored is not None and sorted(stored.results) == list(range(8))
    assert len(store.game_ids()) == 8  # the game cut by the crash was finished, not replayed
    assert sorted(r.record_id or 0 for r in stored.results.values()) == store.game_ids()
    store.close()
