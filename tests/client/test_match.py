"""The match arena: reproducible, job-count independent, exact round budget."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from leekha.client import cli
from leekha.client.arena import match
from leekha.client.arena.deal import deal_task, play_deal
from leekha.common.bots.base import make_strategy, play_out
from leekha.common.bots.search import SearchStrategy
from leekha.common.config import preset
from leekha.common.game import Game
from leekha.common.intervals import Interval
from leekha.common.view import SeatView

T = TypeVar("T")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert cli.main(["match", "--json", *args]) == 0
    result = json.loads(capsys.readouterr().out)
    assert isinstance(result, dict), result
    return result


BASE = ["--strategies", "heuristic,random,random,random", "--rounds", "30", "--seed", "7"]


def test_same_seed_same_json(capsys: pytest.CaptureFixture[str]) -> None:
    a = run_json(capsys, *BASE)
    b = run_json(capsys, *BASE)
    assert a == b
    assert a["rounds"] == 30
    c = run_json(capsys, *BASE[:-1], "8")
    assert c != a


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_duplicate_is_job_count_independent(capsys: pytest.CaptureFixture[str]) -> None:
    one = run_json(capsys, *BASE, "--duplicate", "--jobs", "1")
    two = run_json(capsys, *BASE, "--duplicate", "--jobs", "2")
    assert one == two
    assert one["duplicate"] and one["rounds"] == 30


def test_report_shape_and_paired_difference(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, *BASE, "--duplicate")
    h, r = report["strategies"]["heuristic"], report["strategies"]["random"]
    assert h["seats"] == 1 and r["seats"] == 3
    # Each deal is split between one heuristic and three random seats, so the paired
    # differences are mirror images.
    assert h["diff_vs_others"] == pytest.approx(-r["diff_vs_others"], abs=1e-3)
    assert h["points_ci95"] > 0 and h["diff_ci95"] > 0


class CountingSearch(SearchStrategy):
    """The search with no clock and two worlds a decision, noting how many worlds each of
    its searches drew (a decision it makes without searching draws none: not noted)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, think_ms=None, max_samples=2)
        self.drawn: list[int] = []

    def _noting(self, decide: Callable[[SeatView], T], view: SeatView) -> T:
        self.last_samples = 0
        choice = decide(view)
        if self.last_samples:
            self.drawn.append(self.last_samples)
        return choice

    def choose_doubles(self, view: SeatView) -> list[int]:
        return self._noting(super().choose_doubles, view)

    def choose_pass(self, view: SeatView) -> list[int]:
        return self._noting(super().choose_pass, view)

    def choose_play(self, view: SeatView) -> int:
        return self._noting(super().choose_play, view)


def test_search_seats_with_fixed_samples(capsys: pytest.CaptureFixture[str]) -> None:
    """`--budget-ms 0 --samples 2`: the search seat's figures are those of the same game
    played here, through the engine, with the search built directly (no clock, two worlds)
    and the heuristics around it, from the seeds the arena derives for game 0; and every
    search of that seat drew exactly its two worlds."""
    specs = ("search", "heuristic", "heuristic", "heuristic")
    args = ["--strategies", ",".join(specs), "--rounds", "4", "--seed", "3",
            "--budget-ms", "0", "--samples", "2"]  # fmt: skip
    report = run_json(capsys, *args)

    config = preset("classic")
    task = deal_task(3, 0, specs, False, config.to_dict())
    seeds = random.Random(task.strategy_seeds[0])
    search = CountingSearch(seeds.getrandbits(62))
    others = [make_strategy("heuristic", seeds.getrandbits(62)) for _ in range(3)]
    game = play_out(Game(config, task.game_seed), [search, *others], rounds=4)

    assert len(game.history) == 4, "the first game ran short of the match's 4 rounds"
    assert search.drawn and set(search.drawn) == {2}, search.drawn
    figures = report["strategies"]
    assert figures["search"]["points_per_round"] == pytest.approx(
        sum(points[0] for points in game.history) / 4, abs=1e-4
    )
    assert figures["heuristic"]["points_per_round"] == pytest.approx(
        sum(sum(points[1:]) for points in game.history) / 12, abs=1e-4
    )


def test_text_report_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["match", *BASE]) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "pts/round" in out
    assert cli.main(["match", "--strategies", "random,random"]) == 2
    assert cli.main(["match", "--strategies", "random,random,random,nope"]) == 2
    for out_of_range in (["--jobs", "0"], ["--precision", "0"]):  # the parser's usage error
        with pytest.raises(SystemExit) as exited:
            cli.main(["match", *out_of_range])
        assert exited.value.code == 2
    assert cli.main(["match", "--upload", "x.py"]) == 2


def test_interval_of_constant_and_spread() -> None:
    assert Interval.of([2.0, 2.0, 2.0]).half == 0
    wide = Interval.of([0.0, 10.0] * 10)
    assert wide.mean == 5 and 2 < wide.half < 3


PRECISE = ["--strategies", "heuristic,random,random,random", "--seed", "4", "--duplicate"]


def test_precision_stops_at_the_first_game_narrow_enough(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stopped = run_json(capsys, *PRECISE, "--rounds", "2000", "--precision", "0.8")
    assert stopped["stopped_early"] and stopped["rounds"] < 2000
    # Rounds played after each whole game (four rotations), from the games themselves.
    specs = PRECISE[1].split(",")
    ends = [0]
    for task in match.deal_tasks(specs, _namespace(*PRECISE)):
        ends.append(ends[-1] + sum(len(r.rounds) for r in play_deal(task)))
        if ends[-1] >= stopped["rounds"]:
            break
    assert ends[-1] == stopped["rounds"]
    # Narrow enough at the end (the report's interval, computed apart from the running one)...
    assert stopped["strategies"]["heuristic"]["diff_ci95"] < 0.8
    assert stopped["deals"] >= match.MIN_DEALS_FOR_PRECISION
    # ...and one game fewer was not (or had too few deals to judge).
    before = run_json(capsys, *PRECISE, "--rounds", str(ends[-2]))
    assert (
        before["strategies"]["heuristic"]["diff_ci95"] >= 0.8
        or before["deals"] < match.MIN_DEALS_FOR_PRECISION
    )


def _namespace(*argv: str) -> Any:
    import argparse

    from leekha.client.options import rules_from_args

    parser = argparse.ArgumentParser()
    match.add_arguments(parser)
    args = parser.parse_args(argv)
    args.config, args.overrides = rules_from_args(args)
    return args


def test_progress_line_shows_deals_rate_and_interval(capsys: pytest.CaptureFixture[str]) -> None:
    match.collect(PRECISE[1].split(","), _namespace(*PRECISE, "--rounds", "40"), True)
    line = capsys.readouterr().err.strip().split("\r")[-1]
    assert "/40 rounds" in line and "rounds/s" in line and "heuristic" in line and "±" in line
