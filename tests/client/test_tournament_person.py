"""A person in a tournament from the terminal client, on an 80x24 pty read through pyte:
T opens the tournaments, Enter follows one, e takes part; when every person entrant is
in, the game begins and the person is seated at once, told so, with the bell."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.loopback import BlockingClient, serve_for_people
from helpers.pty import LEEKHA, Terminal

from leekha.protocol import catalogue as C
from leekha.protocol import tournaments as T
from leekha.protocol.views import EntrantRequest

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys

BELL = b"\x07"


def test_a_person_enters_from_the_terminal_and_is_seated_with_the_bell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, port = serve_for_people(tmp_path, monkeypatch, "--bot-think-ms", "1")
    ann: Terminal | None = None
    try:
        host = BlockingClient(port)
        host.send(C.Hello(id=host.rid(), versions=[[1, 4]], name="organiser"))
        host.until_a(C.Welcome)
        entrants: list[EntrantRequest] = [{"name": "ann", "strategy": None}]
        entrants += [{"name": None, "strategy": s} for s in ("random", "heuristic", "random")]
        host.send(T.CreateTournament(id=host.rid(), name="evening", format="round_robin",
                                     entrants=entrants, deals=1, move_timer_s=30))  # fmt: skip
        host.until_a(T.TournamentState)
        ann = Terminal([LEEKHA, "join", f"127.0.0.1:{port}", "--name", "ann", "--guest"])
        ann.until(lambda: "Press n to create one" in ann.text(), "ann's lobby")
        ann.send("T")
        ann.until(lambda: "evening" in ann.text(), "the tournament listed")
        ann.send("\r")
        ann.until(lambda: "e take part" in ann.text(), "the tournament followed")
        before = len(ann.raw)
        ann.send("e")
        ann.until(lambda: "(you)" in ann.text(), "ann seated for her game")
        ann.until(lambda: "tournament game is ready" in ann.text(), "ann told")
        assert BELL in ann.raw[before:]
        assert "evening #1" in ann.lines()[0]
    finally:
        if ann is not None:
            ann.close()
        server.terminate()
        server.wait(timeout=10)
