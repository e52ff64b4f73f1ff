"""An evening's tournament end to end: a real `leekha serve` on 127.0.0.1, four people
(three `leekha join` on 80x24 ptys read through pyte, one who never comes) and four
server bots, with a start time. The people enter before the start; at the start they are
seated at once, with the bell; bob is killed (kill -9) mid-game and comes back in a new
process; dina never comes and is covered as an absent bot is (`seat_grace_s`, then the
fallback), her tables told so. The tournament plays to its end, and its standings are
the sums of the game records the server kept.

Kept cheap: Swiss, one stage of one deal (two tables of four, each deal in its four
rotations: eight games, four per person), target 1 (a game is a round), a one-second
move timer, and after two timeouts the server's autopilot plays for a person who does not
answer (nobody here touches a card: the tournament's machinery is under test, not the
play). The people's clients are in the lobby before the tournament is made, so a loaded
machine's slow start-up does not eat into the time before the start.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.loopback import BlockingClient, serve_for_people
from helpers.pty import LEEKHA, WAIT, Terminal

from leekha.common.record import GameRecord
from leekha.protocol import catalogue as C
from leekha.protocol import tournaments as T
from leekha.protocol.views import EntrantRequest

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys

BELL = b"\x07"
PEOPLE = ("ann", "bob", "carla", "dina")
#: Every game (and the Swiss draw) comes from this seed: it puts ann and bob at one table
#: and carla and dina at the other, each with two bots (checked below).
SEED = "3"
GRACE_S = "4"
START_S = 6


def _chat(term: Terminal) -> str:
    """The chat pane (right of the bar) as one text: its lines wrap at any word."""
    return " ".join(line.split("│", 1)[1].strip() for line in term.lines() if "│" in line)


def _join(port: int, name: str) -> Terminal:
    return Terminal([LEEKHA, "join", f"127.0.0.1:{port}", "--name", name, "--guest"])


def _lobby(term: Terminal) -> None:
    term.until(lambda: "T tournaments" in term.text(), "the lobby")


def _press(term: Terminal, key: str, done: Callable[[], bool], what: str) -> None:
    """Press `key` until `done` (a loaded machine may drop a key pressed while the
    client is still drawing; each key here is harmless when pressed twice)."""
    deadline = time.monotonic() + WAIT
    while True:
        term.send(key)
        try:
            term.until(done, what, within=4.0)
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise


def _enter(term: Terminal) -> None:
    """T, Enter on the tournament, e: a person takes part."""
    _press(term, "T", lambda: "evening" in term.text(), "the tournament listed")
    _press(term, "\r", lambda: "e take part" in term.text(), "the tournament followed")
    _press(  # told so, or the start came first and seated them
        term,
        "e",
        lambda: "your games begin by themselves" in term.text() or "evening #" in term.lines()[0],
        "entered",
    )


def _at_a_game(term: Terminal, name: str) -> bool:
    return f"{name} (you)" in term.text() and "evening #" in term.lines()[0]


def _finished(port: int) -> dict[str, Any]:
    """Follow the tournament until it has finished (answering the server's pings)."""
    c = BlockingClient(port)
    try:
        c.send(C.Hello(id=c.rid(), versions=[[1, 4]], name="referee"))
        c.until_a(C.Welcome)
        c.send(T.GetTournament(id=c.rid(), tournament_id=1))
        while True:
            msg = c.until(lambda m: isinstance(m, C.Ping | T.TournamentState))
            if isinstance(msg, C.Ping):
                c.send(C.Pong(re=msg.id))
            elif isinstance(msg, T.TournamentState) and msg.tournament["status"] == "finished":
                return dict(msg.tournament)
    finally:
        c.close()


def _record_sums(db: Path) -> tuple[Counter[int], Counter[int]]:
    """Games and points per entrant, replayed from the server's game records."""
    games: Counter[int] = Counter()
    points: Counter[int] = Counter()
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT g.seats, r.record FROM tournament_games g JOIN games r ON r.id = g.record_id"
            " WHERE g.tournament_id = 1"
        ).fetchall()
    for seats, record in rows:
        game = GameRecord.from_dict(json.loads(record)).replay()
        for seat, entrant in enumerate(json.loads(seats)):
            games[entrant] += 1
            points[entrant] += sum(r[seat] for r in game.history)
    return games, points


@pytest.mark.timeout(150)
def test_four_people_and_four_bots_play_a_timed_tournament_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, port = serve_for_people(
        tmp_path, monkeypatch, "--bot-think-ms", "1", "--seat-grace-s", GRACE_S,
        "--afk-timeouts-before-bot", "2", "--game-seed", SEED,
    )  # fmt: skip
    terms: dict[str, Terminal] = {}
    try:
        for name in PEOPLE[:3]:  # dina never comes
            terms[name] = _join(port, name)
        for term in terms.values():
            _lobby(term)
        host = BlockingClient(port)
        host.send(C.Hello(id=host.rid(), versions=[[1, 4]], name="organiser"))
        host.until_a(C.Welcome)
        entrants: list[EntrantRequest] = [{"name": n, "strategy": None} for n in PEOPLE]
        entrants += [{"name": None, "strategy": "random"}] * 4
        host.send(T.CreateTournament(
            id=host.rid(), name="evening", format="swiss", stages=1, deals=1,
            entrants=entrants, overrides={"target": 1}, move_timer_s=1, starts_in_s=START_S,
        ))  # fmt: skip
        created = host.until_a(T.TournamentState).tournament
        host.close()
        assert created["status"] == "waiting" and created["starts_in_s"] == START_S
        assert created["games_total"] == 8
        for term in terms.values():
            _enter(term)
        ann, carla = terms["ann"], terms["carla"]
        assert "start" in ann.text() and "evening" in ann.text()  # the start time shown
        rung = {name: len(t.raw) for name, t in terms.items()}

        bob = terms["bob"]
        bob.until(lambda: _at_a_game(bob, "bob"), "bob seated at the start")
        header = bob.lines()[0]
        os.kill(bob.proc.pid, signal.SIGKILL)  # mid-game: no goodbye
        bob.proc.wait(timeout=5)
        ann.until(lambda: _at_a_game(ann, "ann"), "ann seated at her game")
        assert BELL in ann.raw[rung["ann"] :]
        assert "bob" in ann.text() and "evening #" in header
        terms["bob"] = bob = _join(port, "bob")  # a new process: the same session
        bob.until(lambda: _at_a_game(bob, "bob"), "bob back at a game of his")

        carla.until(lambda: _at_a_game(carla, "carla"), "carla seated at her game")
        assert BELL in carla.raw[rung["carla"] :]
        carla.until(
            lambda: "dina is not here: the fallback bot plays this game for them" in _chat(carla),
            "carla told why a bot plays dina's seat",
        )

        final = _finished(port)
        assert final["games_done"] == 8
        seats = {e["index"]: e for e in final["entrants"]}
        assert [seats[i]["name"] for i in range(4)] == list(PEOPLE)
        assert [seats[i]["present"] for i in range(4)] == [True, True, True, False]
        games, points = _record_sums(tmp_path / "srv" / "leekha.sqlite3")
        standings = {s["entrant"]: s for s in final["standings"]}
        assert set(standings) == set(range(8))  # people and bots alike
        assert {e: s["games"] for e, s in standings.items()} == dict(games)
        assert {e: s["points"] for e, s in standings.items()} == dict(points)
        assert all(games[e] == 4 for e in range(8))
        assert standings[3]["fallback_games"] == 4  # every game of dina's
        assert standings[1]["fallback_moves"] > 0  # bob's, while he was gone
    finally:
        for term in terms.values():
            term.proc.kill()  # they are done; a quit key would wait on each in turn
            term.close()
        server.terminate()
        server.wait(timeout=10)
