"""The match arena: reproducible, job-count independent, exact round budget."""

from __future__ import annotations

import json

import pytest

from leekha.client import cli
from leekha.client.arena import match


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    assert cli.main(["match", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


BASE = ["--strategies", "heuristic,random,random,random", "--rounds", "30", "--seed", "7"]


def test_same_seed_same_json(capsys: pytest.CaptureFixture[str]) -> None:
    a = run_json(capsys, *BASE)
    b = run_json(capsys, *BASE)
    assert a == b
    assert a["rounds"] == 30
    c = run_json(capsys, *BASE[:-1], "8")
    assert c != a


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


def test_search_seats_with_fixed_samples(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--strategies", "search,heuristic,heuristic,heuristic", "--rounds", "4", "--seed", "3",
            "--budget-ms", "0", "--samples", "2"]
    assert run_json(capsys, *args) == run_json(capsys, *args)


def test_text_report_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["match", *BASE]) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "pts/round" in out
    assert cli.main(["match", "--strategies", "random,random"]) == 2
    assert cli.main(["match", "--strategies", "random,random,random,nope"]) == 2


def test_interval_of_constant_and_spread() -> None:
    assert match.Interval.of([2.0, 2.0, 2.0]).half == 0
    wide = match.Interval.of([0.0, 10.0] * 10)
    assert wide.mean == 5 and 2 < wide.half < 3
