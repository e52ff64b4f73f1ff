"""Reading the terminal client's screens (pty + pyte) for what a person checks: the chat
pane, the countdowns, the game-over box's figures; and the server's record of a game to
check them against. Shared by the end-to-end tests of issue 24."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers.pty import Terminal
from leekha.common.events import RoundScored, TrickTaken
from leekha.common.game import Game
from leekha.common.record import GameRecord
from leekha.common.tally import Tally

STATS = ("tricks", "Leekhas", "moons")


def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every process's state, config and identity under `tmp_path` (returned), never the
    user's."""
    for var, sub in (
        ("XDG_STATE_HOME", "state"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "share"),
    ):
        monkeypatch.setenv(var, str(tmp_path / sub))
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def keep(name: str, what: str, screen: str) -> None:
    """Save a screen for the closing note, when LEEKHA_TEST_SCREENS names a folder."""
    folder = os.environ.get("LEEKHA_TEST_SCREENS")
    if folder:
        Path(folder, f"e2e-{name}.txt").write_text(f"{what}\n\n{screen}\n", encoding="utf-8")


def shows(t: Terminal, *texts: str) -> Callable[[], bool]:
    """A wait's condition: every one of `texts` is on the screen."""
    return lambda: all(text in t.text() for text in texts)


def chat(t: Terminal) -> str:
    """The chat pane's lines joined into one text (its lines wrap at word boundaries)."""
    right = [line.split("│", 1)[1].strip() for line in t.lines() if "│" in line]
    return " ".join(part for part in right if part)


def countdowns(t: Terminal, mark: str) -> list[tuple[int, int]]:
    """(row, seconds) of each `⏱ Ns` on a row that also shows `mark`."""
    out = []
    for row, line in enumerate(t.lines()):
        if mark in line and (m := re.search(r"⏱ (\d+)s", line)):
            out.append((row, int(m.group(1))))
    return out


def stats_rows(text: str) -> dict[str, list[int]] | None:
    """The game-over box's statistics rows in `text`, each seat's figure in seat order;
    None while any row is not (wholly) on the screen."""
    found = {}
    for label in STATS:
        m = re.search(label + r"\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+│", text)
        if not m:
            return None
        found[label] = [int(g) for g in m.groups()]
    return found


def game_over_stats(t: Terminal) -> dict[str, list[int]]:
    """`stats_rows` of the screen, which must show them."""
    found = stats_rows(t.text())
    assert found, f"no statistics rows on the screen:\n{t.text()}"
    return found


def recorded_stats(data: Path) -> tuple[dict[str, list[int]], int]:
    """The statistics of the one finished game, from `leekha records export` replayed
    through the engine, and its number of rounds."""
    from leekha.client.cli import main

    out = data.parent / "export.json"
    assert main(["records", "export", "--data", str(data), "-o", str(out)]) == 0
    (payload,) = json.loads(out.read_text(encoding="utf-8"))
    record = GameRecord.from_dict(payload)
    game, tally, rounds = Game(record.rules, record.seed), Tally(), 0
    for action in record.actions:
        events = game.apply(action)
        tally.fold(events)
        rounds += sum(isinstance(e, RoundScored) for e in events)
        assert all(e.winner in range(4) for e in events if isinstance(e, TrickTaken))
    return {"tricks": tally.tricks, "Leekhas": tally.leekhas, "moons": tally.moons}, rounds
