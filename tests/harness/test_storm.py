"""Fast version of bench/storm.py: cuts, takeovers and double resumes during six games."""

from __future__ import annotations

import pytest
from helpers.harness import run_bench

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


@pytest.mark.timeout(30)
def test_disconnect_storm_games_finish_and_seats_have_one_holder() -> None:
    r = run_bench(
        "storm.py",
        "--games 6 --cut 0.5 --think 0.02 --target 15 --seed 3 --timeout 20",
        timeout=30,
    )
    assert r["games_finished"] == 6, r
    assert r["cuts"] + r["takeovers"] + r["double_resumes"] > 0
    assert r["double_holders"] == [] and r["ghost_events"] == 0
    assert r["invariant_problems"] == [] and r["rounds_checked"] >= 6
    assert r["records"] == 6 and r["record_problems"] == []
    assert r["server_problems"] == [] and r["unexpected_action_errors"] == []
    assert r["ok"]
