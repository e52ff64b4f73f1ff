"""Fast versions of bench/load.py: both modes run, stop by themselves and measure."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from helpers.harness import run_bench


@pytest.mark.timeout(30)
def test_full_speed_measures_the_server_against_the_echo_ceiling() -> None:
    r = run_bench("load.py", "full", "--tables", "3", "--seconds", "1.5")
    assert r["msgs_per_s"] > 0 and r["echo_msgs_per_s"] > 0
    assert r["ratio_to_echo"] > 0
    assert r["action_errors"] == 0
    assert r["invariant_problems"] == []
    assert r["server_alive"] and r["server_problems"] == []


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_web_half_measures_websocket_tables_beside_tcp_ones() -> None:
    r = run_bench("load.py", "web-half", "--tables", "4", "--seconds", "1.5", timeout=60)
    tcp, mixed = r["runs"]
    assert (tcp["ws_tables"], mixed["ws_tables"]) == (0, 2)
    for run in (tcp, mixed):
        assert run["msgs_per_s"] > 0 and run["server_cpu_us_per_msg"] > 0
        assert run["action_errors"] == 0 and run["closed_connections"] == 0
        assert run["server_alive"]
    ratio = mixed["server_cpu_us_per_msg"] / tcp["server_cpu_us_per_msg"]
    assert r["mixed_per_tcp"] == round(ratio, 3)


@pytest.mark.timeout(30)
def test_human_pace_reports_latency_cpu_and_memory_per_table() -> None:
    r = run_bench(
        "load.py", "human", "--steps", "8", "--seconds", "2", "--think", "0.1", timeout=30
    )
    step = r["steps"][0]
    assert "error" not in step, step
    assert step["samples"] > 20
    assert step["p99_ms"] > 0  # latency is measured; its goal is bench/load.py's, not a test's
    assert step["server_cpu_pct"] >= 0 and step["kb_per_table"] > 0
    assert step["action_errors"] == 0 and step["server_problems"] == []


@pytest.mark.timeout(30)
def test_the_lag_probes_split_the_time_of_server_and_load_generators() -> None:
    r = run_bench(
        "load.py",
        "human",
        "--steps",
        "4",
        "--seconds",
        "1.5",
        "--think",
        "0.1",
        "--probe",
        "--patch",
        "lagprobe",
        timeout=30,
    )
    step = r["steps"][0]
    assert "error" not in step, step
    assert all(p["beats"] > 100 for p in step["probes"])  # a 5 ms heartbeat over 1.5 s
    ((w0, w1),) = step["windows"]  # one load generator
    assert w1 - w0 >= 1.4
    assert all(ms > 20 for _t, ms in step["late"])
    for event in step["server_events"]:
        assert event["kind"] in {"lag", "gc", "slow", "timer", "commit", "checkpoint"}
    assert step["action_errors"] == 0 and step["server_problems"] == []


@pytest_twisted.ensureDeferred
async def test_accepted_connections_turn_off_nagle(tmp_path: Path) -> None:
    """The cause of the old 40-45 ms full-speed p99 (Nagle + delayed ACK on the second small
    frame of a burst), checked as a fact of the socket rather than as a timing; the latency
    goal itself is bench/load.py's (docs/performance.md)."""
    from twisted.internet import defer, reactor, task
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    from twisted.internet.protocol import Protocol

    from leekha.server.app import local_settings, start_server

    running = await defer.Deferred.fromCoroutine(
        start_server(reactor, local_settings(tmp_path / "data"))
    )
    try:
        client = await connectProtocol(
            TCP4ClientEndpoint(reactor, "127.0.0.1", running.port), Protocol()
        )
        for _ in range(200):  # until the server has accepted it (a few reactor turns)
            if running.factory.connections:
                break
            await task.deferLater(reactor, 0.01)
        (conn,) = running.factory.connections
        tcp: Any = conn.transport  # ITCPTransport: zope, not seen by mypy
        sock = tcp.getHandle()
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        client.transport.loseConnection()
    finally:
        await defer.Deferred.fromCoroutine(running.stop())
