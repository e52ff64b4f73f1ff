"""A fast version of bench/tls_latency.py: both halves play, over TCP and over TLS."""

from __future__ import annotations

import pytest
from helpers.harness import run_bench

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


@pytest.mark.timeout(40)
def test_tls_and_tcp_tables_are_measured_side_by_side() -> None:
    r = run_bench("tls_latency.py", "--tables", "4", "--seconds", "2", "--think", "0.1")
    assert r["tcp"]["samples"] > 5 and r["tls"]["samples"] > 5
    assert r["tcp"]["action_errors"] == 0 and r["tls"]["action_errors"] == 0
    assert r["tls_over_tcp_p50"] > 0 and r["server_problems"] == []
