"""Fast version of bench/crash.py: one kill -9 mid-game, restart, nothing acknowledged lost."""

from __future__ import annotations

import pytest
from helpers.harness import run_bench

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


@pytest.mark.timeout(30)
def test_kill_9_mid_game_loses_no_acknowledged_action() -> None:
    r = run_bench(
        "crash.py", "--games 2 --kills 1 --think 0.02 --target 15 --timeout 20", timeout=30
    )
    assert r["kills"] == 1 and r["resumes"] >= 4, r
    assert r["games_finished"] == 2
    assert r["acknowledged_actions"] > 0 and r["lost_actions"] == []
    assert r["records"] >= 2 and r["record_problems"] == []
    assert r["server_problems"] == []
    assert r["ok"]
