"""Fast version of bench/flood.py: a 10,000 msg/s client is cut off; others keep playing."""

from __future__ import annotations

import pytest
from helpers.harness import run_bench

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


@pytest.mark.timeout(30)
def test_flooding_client_is_limited_and_others_keep_their_latency() -> None:
    r = run_bench("flood.py", "--games", "2", "--seconds", "1.5", "--think", "0.05")
    assert r["flooder_limited"], r
    assert r["flooder"]["errors"].get("rate_limited", 0) > 0
    assert r["server_alive"] and r["server_problems"] == []
    assert r["game_connections_closed"] == 0
    # The others keep playing through the flood: at least a quarter of the moves they made in
    # the clean phase of the same run. The latency goal (p99 <= 20 ms) is bench/flood.py's; a
    # time bound here would measure the machine's load, not the server.
    assert r["under_flood"]["samples"] >= max(1, r["clean"]["samples"] // 4), r
    assert r["ok"]


@pytest.mark.timeout(30)
def test_a_kicked_flooder_is_disconnected() -> None:
    r = run_bench("flood.py", "probe", timeout=30)
    assert r["kicked"], r
    assert r["closed_after_s"] is not None, r
    assert r["graceful_stop_s"] is not None, r
