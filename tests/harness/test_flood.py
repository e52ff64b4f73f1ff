"""Fast version of bench/flood.py: a 10,000 msg/s client is cut off; others keep playing."""

from __future__ import annotations

import pytest
from helpers.harness import run_bench


@pytest.mark.timeout(30)
def test_flooding_client_is_limited_and_others_keep_their_latency() -> None:
    r = run_bench("flood.py", "--games", "2", "--seconds", "1.5", "--think", "0.05")
    assert r["flooder_limited"], r
    assert r["flooder"]["errors"].get("rate_limited", 0) > 0
    assert r["server_alive"] and r["server_problems"] == []
    assert r["game_connections_closed"] == 0
    assert r["under_flood"]["samples"] > 0
    assert r["under_flood"]["p99_ms"] < 200  # loose for CI; bench/flood.py checks 20 ms
    assert r["ok"]


@pytest.mark.timeout(30)
def test_a_kicked_flooder_is_disconnected() -> None:
    r = run_bench("flood.py", "probe", timeout=30)
    assert r["kicked"], r
    assert r["closed_after_s"] is not None, r
    assert r["graceful_stop_s"] is not None, r
