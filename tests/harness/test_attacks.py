"""Fast version of bench/attacks.py: each attack beside a few honest tables, short phases
with short deadlines (--fast). What is asserted is that the attacker meets a limit and
nobody else notices; the latency figures are the benchmark's, not a test's."""

from __future__ import annotations

import pytest
from helpers.harness import run_bench

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


@pytest.mark.timeout(120)
def test_each_attack_is_limited_and_honest_tables_play_on() -> None:
    r = run_bench(
        "attacks.py",
        *("--tables", "30", "--seconds", "5", "--think", "0.3"),
        *("--conns", "2", "--rest", "0.5", "--fast"),
        timeout=110,
    )
    assert r["server_alive"] and r["server_problems"] == [], r
    assert r["honest_connections_closed"] == 0 and r["action_errors"] == []
    # The reader that never reads is dropped by the output cap (logged by the server).
    assert r["reader"]["server_log_drops"] == 2, r["reader"]
    # The list costs one page however many tables there are (25 summaries at most).
    assert r["expensive"]["attacker"]["reply_bytes_per_request"] < 25 * 600
    # One address cannot bury the lobby: 16 tables, then too_many_tables.
    flood = r["flood"]["attacker"]
    assert flood["created"] <= 16 and flood["too_many_tables"] > 0, flood
    # Slowloris: every dribbled frame is dropped at its deadline (1 s with --fast).
    loris = r["slowloris"]["attacker"]
    assert loris["dropped"] >= 2 and loris["longest_s"] < 3.0, loris
    for name in ("reader", "expensive", "flood", "slowloris"):
        assert r[name]["meets_memory_goal"], r[name]
