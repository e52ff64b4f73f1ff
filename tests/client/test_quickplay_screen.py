"""Quick play as people see it, on 80x24 ptys read through pyte against a real server:
`leekha join HOST --quick` seats ann at a new table that bots complete after her wait;
bob, arriving while it plays, presses Q in the lobby, watches, and takes a bot's seat
when the round ends. The server's short timers make ann's seat time out into the
autopilot, so the round ends by itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.loopback import serve_for_people
from helpers.pty import LEEKHA, START, Terminal, summary_open

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys

#: The server's line to a person who waits for a bot's seat (in the table's chat).
WAITS = "Quick play: you take a bot's seat when this round ends"
#: Seconds a round may take on a loaded machine: the bots and the autopilot play it, the
#: screens hold each trick a moment.
ROUND = 90.0


def _chat(term: Terminal) -> str:
    """The chat pane (right of the bar) as one text: its lines wrap at any word."""
    return " ".join(line.split("│", 1)[1].strip() for line in term.lines() if "│" in line)


def _easy_bots(term: Terminal) -> int:
    """The easy bots seated, as the table (left of the bar, below the header) names them:
    each name once, as a trick's note may name a seat again."""
    table = "\n".join(line.split("│")[0] for line in term.lines()[1:])
    return len(set(re.findall(r"easy bot \d", table)))


def _seats_shown(term: Terminal) -> bool:
    """Whether the seats are in view: a round summary box covers them until Esc (while the
    bots play out a round in a moment, the next summary would cover them again)."""
    if summary_open(term.text()):
        term.send("\x1b")
        return False
    return True


@pytest.mark.timeout(300)  # about 30 s; the waits allow a loaded machine's slow starts
def test_quick_play_seats_a_person_and_a_later_one_takes_a_bot_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    timers = ["--default-pass-timer-s", "1", "--default-turn-timer-s", "1", "--bot-think-ms", "1"]
    server, port = serve_for_people(tmp_path, monkeypatch, *timers)
    terms: list[Terminal] = []
    try:
        long_game = ["--rule", "target=1000"]  # the autopilot must not finish it first
        ann = Terminal([LEEKHA, "join", f"127.0.0.1:{port}", "--name", "ann", "--guest",
                        "--quick", "--wait", "1", "--level", "easy", *long_game])  # fmt: skip
        terms.append(ann)
        ann.until(lambda: "ann (you)" in ann.text(), "ann seated by quick play", START)
        ann.until(lambda: _easy_bots(ann) == 3, "three easy bots fill in")
        bob = Terminal([LEEKHA, "join", f"127.0.0.1:{port}", "--name", "bob", "--guest",
                        *long_game])  # fmt: skip
        terms.append(bob)
        bob.until(lambda: "Q quick play" in bob.text(), "bob's lobby", START)
        bob.send("Q")
        # Watching and the status line last only until the round ends, which a loaded
        # machine may draw in the same frame: the waits are for what stays, the table in
        # the header and the server's line in the table's chat.
        bob.until(lambda: "quick play 1 ·" in bob.lines()[0], "bob at ann's table", ROUND)
        bob.until(lambda: _seats_shown(bob) and WAITS in _chat(bob),
                  "bob told in the table's chat that he waits for a seat", ROUND)  # fmt: skip
        bob.until(lambda: "bob (you)" in bob.text(), "bob in a bot's seat after the round", ROUND)
        bob.until(lambda: _seats_shown(bob) and _easy_bots(bob) == 2, "two easy bots left")
        ann.until(lambda: _seats_shown(ann) and "takes over a bot's seat" in _chat(ann),
                  "ann told", ROUND)  # fmt: skip
    finally:
        for term in terms:
            term.close()
        server.terminate()
        server.wait(timeout=10)
