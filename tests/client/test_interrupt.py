"""Ctrl-C ends every full-screen command with 130, as README.md's exit codes say: on a
full screen the terminal is in raw mode and sends no SIGINT, so the key itself must end
the command as an interrupt, not as the quit key does (0)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.pty import LEEKHA, START, Terminals, serve

from leekha.client.exitcodes import INTERRUPTED
from leekha.common.bots.base import make_strategy, play_out
from leekha.common.config import preset
from leekha.common.game import Game
from leekha.common.record import GameRecord


@pytest.fixture
def port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    yield from serve(tmp_path, monkeypatch)


def _record(path: Path) -> Path:
    game = Game(preset("classic", {"target": 1}), 3)
    play_out(game, [make_strategy("random", s) for s in range(4)])
    path.write_text(json.dumps(GameRecord.of(game, ["ann", "bob", "cy", "di"]).to_dict()))
    return path


@pytest.mark.slow
def test_ctrl_c_ends_join_play_and_replay_with_130(port: int, tmp_path: Path) -> None:
    terms = Terminals()
    try:
        join = terms.start("join", [LEEKHA, "join", f"127.0.0.1:{port}", "--name", "ann"])
        play = terms.start("play", [LEEKHA, "play", "--no-save", "--strategy", "random"])
        replay = terms.start("replay", [LEEKHA, "replay", str(_record(tmp_path / "g.json"))])
        terms.until(
            lambda: (
                "Press n to create one" in join.text()
                and "passing to" in play.text()
                and "round" in replay.text()
            ),
            "the lobby, the table and the replay",
            START,
        )
        for name in ("join", "play", "replay"):
            terms[name].send("\x03")
        terms.until(
            lambda: all(t.proc.poll() is not None for t in terms.open.values()),
            "every command to end",
        )
        codes = {name: t.proc.wait() for name, t in terms.open.items()}
        assert codes == {"join": INTERRUPTED, "play": INTERRUPTED, "replay": INTERRUPTED}
    finally:
        terms.close()
