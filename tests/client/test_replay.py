"""`leekha replay`: frames rebuilt by the engine, navigation, and the screen driven by keys."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from twisted.internet.defer import Deferred

from leekha.client.cli import main
from leekha.client.tui.replay import build_replay_app, render_replay_text
from leekha.client.tui.replay_model import ReplayError, ReplayModel, load_records, pick_record
from leekha.common.bots.base import make_strategy, play_out
from leekha.common.config import preset
from leekha.common.game import Game
from leekha.common.record import GameRecord
from leekha.common.view import result

AsyncTest = Callable[..., Coroutine[Any, Any, None]]
reactor_test: Callable[[AsyncTest], AsyncTest] = pytest_twisted.ensureDeferred


def finished_game(seed: int = 3, target: int = 30) -> GameRecord:
    game = Game(preset("levant", {"target": target}), seed)
    play_out(game, [make_strategy("random", seed + i) for i in range(4)])
    return GameRecord.of(game, ["ann", "bob", "cy", "di"])


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "games.json"
    games = [finished_game(3).to_dict(), finished_game(4, 20).to_dict()]
    path.write_text(json.dumps(games))
    return path


def test_every_hand_is_shown_and_frames_follow_the_engine() -> None:
    record = finished_game()
    m = ReplayModel(record)
    first = m.frame
    assert sorted(c for h in first.hands for c in h) == list(range(52))  # all four hands
    assert m.rounds >= 2
    m.end()
    final = m.frame
    game = record.replay()
    assert game.outcome is not None and final.result == result(game)
    assert final.totals == game.totals
    assert final.step == len(record.actions)
    text = render_replay_text(m)
    assert "game over" in text and "winner:" in text


def test_step_back_and_forth_and_jump_rounds() -> None:
    m = ReplayModel(finished_game())
    m.step(5)
    at5 = m.frame
    m.step(1)
    m.step(-1)
    assert m.frame == at5
    m.next_trick(1)
    assert m.frame.trick_winner is not None and len(m.frame.trick) == 4
    assert m.jump_round(2)
    assert m.frame.round == 1 and m.frame.phase == "pass"
    assert sum(len(h) for h in m.frame.hands) == 52
    assert not m.jump_round(99)
    m.round_step(-1)
    assert m.frame.round == 0
    m.step(-1000)
    assert m.index == 0


def test_round_end_frame_shows_who_took_which_penalty_cards() -> None:
    m = ReplayModel(finished_game())
    i = next(i for i, f in enumerate(m.frames) if f.round_over is not None)
    m.index = i
    f = m.frame
    assert sum(f.round_over or []) >= 36  # every penalty point was taken (doubling adds more)
    assert sorted(c for t in f.taken for c in t) == sorted([c for c in range(26, 39)] + [49, 21])
    assert "round 1 over" in render_replay_text(m)


def test_pick_and_load_errors(record_file: Path, tmp_path: Path) -> None:
    records = load_records(record_file)
    assert pick_record(records, 2).rules.target == 20
    with pytest.raises(ReplayError, match="has 2 game"):
        pick_record(records, 3)
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(ReplayError, match="not a JSON game record"):
        load_records(bad)
    broken = dict(records[0])
    broken["actions"] = [*broken["actions"][:5], {"kind": "play", "seat": 0, "card": 99}]
    with pytest.raises(ReplayError, match="cannot be replayed"):
        pick_record([broken], 1)


def test_cli_print_mode_and_errors(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record_file), "--game", "2", "--print", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "Replay" in out and "game over" in out and "♠" not in out
    assert "q quit" not in out and "? help" not in out  # no keys in print mode
    assert main(["replay", str(record_file) + ".missing"]) == 1
    assert "no such file" in capsys.readouterr().err


@reactor_test
async def test_replay_screen_by_keys() -> None:
    async def run() -> None:
        m = ReplayModel(finished_game())
        with create_pipe_input() as inp:
            app = build_replay_app(m, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(app.run_async())
            inp.send_text("\x1b[C\x1b[C\x1b[C")  # three right arrows
            inp.send_text("2")  # round 2
            inp.send_text("q")
            assert await asyncio.wait_for(task, 10) == 0
        assert m.frame.round == 1

    await Deferred.fromFuture(asyncio.ensure_future(run()))


def test_side_hands_write_the_ten_as_10() -> None:
    import re

    m = ReplayModel(finished_game())
    tens = sum(1 for seat in (1, 3) for c in m.frame.hands[seat] if c % 13 == 8)
    text = render_replay_text(m)
    assert not re.search(r"\bT\b", text)
    side = "\n".join(line[:20] + line[-20:] for line in text.split("\n"))
    assert side.count("10") >= tens > 0


def test_replay_boxes_are_the_table_screens_own() -> None:
    from leekha.client.tui.canvas import Canvas
    from leekha.client.tui.overlays import RoundSummary
    from leekha.client.tui.sheets import paint_round_summary

    m = ReplayModel(finished_game(), ascii=True)
    while m.frame.round_over is None:
        m.step(1)
    f = m.frame
    assert f.round_over is not None
    text = render_replay_text(m)
    cv = Canvas(80, 24)
    summary = RoundSummary(f.round, f.round_over, f.totals, f.taken, [c for c, _s in f.doubled])
    paint_round_summary(cv, summary, m.names, True, "-> to deal the next round")
    box = [line for line in cv.asciified().text().split("\n") if "|" in line]
    assert box and all(row.strip() in text for row in box[1:-1])
    assert text.isascii()
    m.end()
    over = render_replay_text(m)
    assert "total" in over and "round 1" in over and over.isascii()


@pytest.mark.parametrize("missing", ["seed", "actions", "rules"])
def test_a_record_without_a_field_says_which_in_words(missing: str) -> None:
    """Not `malformed record: KeyError('seed')`: the field, in the reader's language."""
    from leekha.client import i18n

    record: dict[str, Any] = dict(finished_game().to_dict())
    del record[missing]
    with pytest.raises(ReplayError) as said:
        pick_record([record], 1)
    assert str(said.value) == f"game 1 cannot be replayed: the record has no '{missing}' field"
    try:
        i18n.set_language("it")
        with pytest.raises(ReplayError) as detto:
            pick_record([record], 1)
        assert f"il record non ha il campo '{missing}'" in str(detto.value)
    finally:
        i18n.set_language("en")


def test_the_last_box_says_what_each_seat_did() -> None:
    """The replay's game-over box: tricks, Leekhas and moons, as a live game's box has."""
    m = ReplayModel(finished_game())
    m.end()
    shown = render_replay_text(m, 80, 30)
    for row in ("tricks", "Leekhas", "moons"):
        assert row in shown, shown
