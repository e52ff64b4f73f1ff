"""Fast version of bench/fuzz.py: 2,000 random and mutated frames while games run."""

from __future__ import annotations

import pytest
from test_harness_support import run_bench


@pytest.mark.timeout(30)
def test_fuzzed_frames_do_not_crash_the_server_or_disturb_games() -> None:
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
        timeout=30,
    )
    assert r["frames_sent"] == 2000
    assert r["server_alive"], r
    assert r["server_problems"] == []
    assert r["game_connections_closed"] == 0
    assert r["invariant_problems"] == []
    assert r["ok"]
