"""A finished table opened later (issue 24: "someone who opens a finished table sees every
figure at 0"): real `leekha serve` and `leekha join` processes on 80x24 ptys read through
pyte, on 127.0.0.1. dan's quick-play game with three easy bots is played to its end by the
server's short clocks and its autopilot; then eve, a fresh client, opens the finished
table from the lobby, and after a server restart so does fay. Each game-over box must show
the game's record: the tricks add up to 13 a round, every figure the engine's."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest
from helpers.processes import serve
from helpers.pty import LEEKHA, START, Terminal, Terminals, summary_open
from helpers.screens import isolated_home, keep, recorded_stats, stats_rows

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys

#: Clocks short enough for dan's timeouts to hand his seat to the autopilot at once.
FAST = ("--default-pass-timer-s", "0.3", "--default-turn-timer-s", "0.3")
#: A low target: a game of a round or two.
RULES = ("--rule", "target=20")


def opened_late(terms: Terminals, name: str, port: int) -> dict[str, list[int]]:
    """A new client named `name` opens the finished table from the lobby (w: watch); the
    statistics rows its game-over box shows."""
    t = terms.start(name, [LEEKHA, "join", f"127.0.0.1:{port}", "--name", name, "--guest"])
    terms.until(lambda: "finished" in t.text() and "quick play 1" in t.text(),
                f"{name}'s lobby listing the finished table", START)  # fmt: skip
    t.send("w")
    terms.until(lambda: "game over" in t.text() and stats_rows(t.text()) is not None,
                f"{name} shown the game over")  # fmt: skip
    keep(f"finished-{name}", f"{name} opened the finished table", t.text())
    found = stats_rows(t.text())
    assert found is not None
    return found


def over(t: Terminal) -> bool:
    """The game over on `t`'s screen, each round's summary closed with Esc meanwhile."""
    if summary_open(t.text()):
        t.send("\x1b")
    return "game over" in t.text() and stats_rows(t.text()) is not None


@pytest.mark.timeout(240)
def test_a_finished_table_opened_later_shows_the_records_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = isolated_home(tmp_path, monkeypatch)
    data = home / "data"
    with ExitStack() as stack:
        server, port = stack.enter_context(serve(home, 0, data, *FAST))
        terms = Terminals()
        stack.callback(terms.close)
        dan = terms.start("dan", [LEEKHA, "join", f"127.0.0.1:{port}", "--name", "dan",
                                  "--guest", "--quick", "--wait", "0", "--level", "easy",
                                  *RULES, "--trick-hold", "0.01"])  # fmt: skip
        terms.until(lambda: over(dan), "dan's game over", 150)
        recorded, rounds = recorded_stats(data)
        assert rounds >= 1 and sum(recorded["tricks"]) == 13 * rounds
        assert stats_rows(dan.text()) == recorded, dan.text()

        assert opened_late(terms, "eve", port) == recorded

        server.kill()
        server, _port = stack.enter_context(serve(home, port, data, *FAST))
        assert opened_late(terms, "fay", port) == recorded
