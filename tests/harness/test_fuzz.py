"""Fast version of bench/fuzz.py: 2,000 random and mutated frames while games run."""

from __future__ import annotations

import os

import pytest
from helpers.harness import run_bench

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys

CAN_PIN = {0, 1} <= os.sched_getaffinity(0)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "pin",
    [
        pytest.param(False, id="unpinned"),
        pytest.param(True, id="pinned", marks=pytest.mark.skipif(not CAN_PIN, reason="2 cores")),
    ],
)
def test_fuzzed_frames_do_not_crash_the_server_or_disturb_games(pin: bool) -> None:
    r = run_bench(
        "fuzz.py",
        "--frames",
        "2000",
        "--games",
        "2",
        "--seconds",
        "1.5",
        "--parallel",
        "16",
        *(["--pin"] if pin else []),
        timeout=30,
    )
    assert r["pinned"] is pin
    if pin:
        assert r["cores"] == {"server": [0], "clients": [1]}
    assert r["frames_sent"] == 2000
    assert r["server_alive"], r
    assert r["server_problems"] == []
    assert r["game_connections_closed"] == 0
    assert r["invariant_problems"] == []
    assert r["ok"]
