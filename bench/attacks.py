"""Denial of service inside the limits: four attacks beside a human-pace load of honest
tables, each measured against a clean run of the same tables in the same invocation.

The server runs with its default settings. Honest tables connect from loopback addresses
of their own (127.10.x.y, a table per address), the attacker from 127.0.0.2, so the
per-address limits see what they would on the internet.

    python bench/attacks.py --tables 1000 --seconds 20            # the figures
    python bench/attacks.py --tables 6 --seconds 2 --fast --json  # what the suite runs

Scenarios (each `--seconds` long, right after a clean phase of its own of the same
length, so that each ratio compares neighbouring minutes of a shared machine):
- reader: connections that send `list_tables` 45 times a second and read nothing;
- expensive: two connections asking for the table list 45 times a second each;
- flood: connect, hello, `create_table`, close, as fast as the server lets one address;
- slowloris: connections that dribble a 4096-byte frame a byte every 2-15 s.

For each: the honest players' p99 (play_card to card_played on another seat) against the
clean p99, the server's peak RSS against the clean peak, and what became of the attacker
(from its own view and the server's log). Goals: p99 within 2x clean, memory within 50 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

from loadclient import (
    HOST,
    VERSIONS,
    ServerProcess,
    Stats,
    open_tables,
    quiet_gc,
    split_frames,
    summarize_latency,
)
from scenario import bench_parser, closed_connections, raw_frame, report, served

ATTACKER = "127.0.0.2"
P99_GOAL = 2.0
MEMORY_GOAL_MB = 50.0
SCENARIOS = ("reader", "expensive", "flood", "slowloris")


class Raw(asyncio.Protocol):
    """An attacker's connection: writes what it is told; reads and parses frames, or with
    read=False never reads at all."""

    def __init__(self, read: bool) -> None:
        self.read = read
        self.transport: asyncio.Transport | None = None
        self.received = 0
        self.buf = bytearray()
        self.got: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if not self.read:
            transport.pause_reading()

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        self.buf += data
        self.got += split_frames(self.buf)
        self.arrived.set()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)
        self.arrived.set()

    def send(self, data: bytes) -> bool:
        if self.transport is None or self.transport.is_closing() or self.closed.done():
            return False
        self.transport.write(data)
        return True

    async def reply(self, rid: int, timeout: float) -> dict[str, Any]:
        """The reply to request `rid`, or an unprompted error (a refused connection)."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            for m in self.got:
                if m.get("re") == rid or (m.get("type") == "error" and m.get("re") is None):
                    return m
            if self.closed.done():
                break
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), deadline - time.perf_counter())
            except TimeoutError:
                break
        return {"type": "none"}


async def _raw(port: int, read: bool = True) -> Raw:
    """A connection from the attacker's address; one that never reads also asks for the
    smallest receive buffer, so the kernel holds little for it and the server's own
    limit is what it meets."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if not read:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.setblocking(False)
    sock.bind((ATTACKER, 0))
    try:
        await asyncio.wait_for(loop.sock_connect(sock, (HOST, port)), 10)
    except BaseException:
        sock.close()
        raise
    _, proto = await loop.create_connection(lambda: Raw(read), sock=sock)
    return proto


def _hello(name: str) -> bytes:
    return raw_frame({"type": "hello", "id": 1, "versions": VERSIONS, "name": name})


async def _every(rate: float, stop: asyncio.Event, step: Callable[[], bool]) -> int:
    """Call `step` `rate` times a second until `stop` or it returns False; how many."""
    n = 0
    t0 = time.perf_counter()
    while not stop.is_set():
        if not step():
            break
        n += 1
        delay = t0 + n / rate - time.perf_counter()
        if delay > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)
    return n


# ---- the attacks --------------------------------------------------------------------------
async def reader(port: int, stop: asyncio.Event, conns: int, rng: random.Random) -> dict[str, Any]:
    """Never reads: asks for the table list 45 times a second on each connection."""
    peers = [await _raw(port, read=False) for _ in range(conns)]
    for i, p in enumerate(peers):
        p.send(_hello(f"reader {i}"))
    request = raw_frame({"type": "list_tables", "id": 2})
    sent = await asyncio.gather(*(_every(45, stop, partial(p.send, request)) for p in peers))
    dropped = sum(1 for p in peers if p.closed.done() or (p.transport and p.transport.is_closing()))
    for p in peers:
        if p.transport is not None:
            p.transport.abort()
    return {"connections": conns, "requests_sent": sum(sent), "dropped_seen": dropped}


async def expensive(
    port: int, stop: asyncio.Event, conns: int, rng: random.Random
) -> dict[str, Any]:
    """Reads every reply: the list 45 times a second on each of two connections."""
    peers = [await _raw(port, read=True) for _ in range(2)]
    for i, p in enumerate(peers):
        p.send(_hello(f"lister {i}"))
    request = raw_frame({"type": "list_tables", "id": 2})
    sent = await asyncio.gather(*(_every(45, stop, partial(p.send, request)) for p in peers))
    got = [p.received for p in peers]
    for p in peers:
        if p.transport is not None:
            p.transport.abort()
    return {
        "connections": 2,
        "requests_sent": sum(sent),
        "reply_bytes_per_request": round(sum(got) / max(1, sum(sent))),
    }


async def flood(port: int, stop: asyncio.Event, conns: int, rng: random.Random) -> dict[str, Any]:
    """Connect, hello, create_table, close, again and again from one address."""
    out = {"created": 0, "too_many_tables": 0, "rate_limited": 0, "other": 0}
    n = 0
    while not stop.is_set():
        n += 1
        try:
            proto = await _raw(port)
        except OSError:
            out["other"] += 1
            await asyncio.sleep(0.05)
            continue
        proto.send(_hello(f"flood {n}"))
        proto.send(
            raw_frame({"type": "create_table", "id": 2, "name": f"spam {n}", "preset": "classic"})
        )
        reply = await proto.reply(2, 5.0)
        code = reply.get("code") if reply.get("type") == "error" else reply.get("type")
        if code == "snapshot":
            out["created"] += 1
        elif code in ("too_many_tables", "rate_limited"):
            out[str(code)] += 1
            await asyncio.sleep(0.05)
        else:
            out["other"] += 1
        if proto.transport is not None:
            proto.transport.close()
    return out


async def slowloris(
    port: int, stop: asyncio.Event, conns: int, rng: random.Random
) -> dict[str, Any]:
    """Welcomed connections that each send a 4096-byte frame a byte every 2-15 s (the
    first bytes at once), reconnecting when dropped."""
    frame = raw_frame({"type": "chat", "id": 2, "text": "x" * 4080})
    held = {"connections": 0, "dropped": 0, "longest_s": 0.0}

    async def one(i: int) -> None:
        while not stop.is_set():
            try:
                p = await _raw(port)
            except OSError:
                await asyncio.sleep(0.5)
                continue
            held["connections"] += 1
            t0 = time.perf_counter()
            p.send(_hello(f"loris {i}"))
            pos = 0
            while not stop.is_set() and not p.closed.done() and pos < len(frame):
                p.send(frame[pos : pos + 1])
                pos += 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(p.closed), rng.uniform(2, 15))
            held["longest_s"] = max(held["longest_s"], time.perf_counter() - t0)
            if p.closed.done():
                held["dropped"] += 1
            elif p.transport is not None:
                p.transport.abort()

    await asyncio.gather(*(one(i) for i in range(conns)))
    held["longest_s"] = round(held["longest_s"], 1)
    return held


ATTACKS: dict[str, Callable[..., Awaitable[dict[str, Any]]]] = {
    "reader": reader,
    "expensive": expensive,
    "flood": flood,
    "slowloris": slowloris,
}

#: Server log lines that show the attacker was limited or dropped, per scenario.
LOG_SIGNS = {
    "reader": "not reading",
    "expensive": "",
    "flood": "",
    "slowloris": "did not complete",
}


# ---- the run ------------------------------------------------------------------------------
async def _phase(
    server: ServerProcess, stats: Stats, seconds: float, attack: Awaitable[Any] | None
) -> tuple[list[float], float, Any]:
    """Record honest latencies for `seconds` (beside `attack`); peak server RSS in MB."""
    stats.latencies.clear()
    stats.recording = True
    peak = server.rss_bytes()
    task = asyncio.ensure_future(attack) if attack is not None else None
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end:
        await asyncio.sleep(0.25)
        peak = max(peak, server.rss_bytes())
    stats.recording = False
    result = await task if task is not None else None
    return list(stats.latencies), peak / 2**20, result


async def _run(args: argparse.Namespace, server: ServerProcess, port: int) -> dict[str, Any]:
    stats = Stats(recording=False)
    rng = random.Random(11)
    runs = await open_tables(
        port,
        args.tables,
        stats,
        think=lambda: rng.uniform(0.5 * args.think, 1.5 * args.think),
        rematch=True,
        prefix="h",
        spread=True,
        checked=False,
    )
    quiet_gc()
    await asyncio.sleep(min(2.0, args.seconds))  # the first prompts
    out: dict[str, Any] = {"clean": []}
    for name in args.scenarios:
        # Each attack is measured against a clean phase just before it (A/B, A/B...): on
        # a shared machine the background load moves from minute to minute.
        clean, clean_mb, _ = await _phase(server, stats, args.seconds, None)
        c = summarize_latency(clean)
        out["clean"].append({**c, "server_peak_mb": round(clean_mb, 1), "before": name})
        stop = asyncio.Event()
        lines_before = server.log_path.read_text(errors="replace").count(LOG_SIGNS[name] or "\0")

        async def attack(name: str = name, stop: asyncio.Event = stop) -> dict[str, Any]:
            task = asyncio.ensure_future(ATTACKS[name](port, stop, args.conns, rng))
            await asyncio.sleep(args.seconds)
            stop.set()
            return await task

        lat, peak_mb, result = await _phase(server, stats, args.seconds, attack())
        log = server.log_path.read_text(errors="replace")
        signs = log.count(LOG_SIGNS[name]) - lines_before if LOG_SIGNS[name] else 0
        d = summarize_latency(lat)
        ratio = d["p99_ms"] / c["p99_ms"] if c["p99_ms"] > 0 else float("nan")
        out[name] = {
            **d,
            "clean_p99_ms": c["p99_ms"],
            "p99_ratio": round(ratio, 2),
            "server_peak_mb": round(peak_mb, 1),
            "memory_over_clean_mb": round(peak_mb - clean_mb, 1),
            "attacker": result,
            "server_log_drops": signs,
            "meets_p99_goal": ratio <= P99_GOAL,
            "meets_memory_goal": peak_mb - clean_mb <= MEMORY_GOAL_MB,
        }
        await asyncio.sleep(args.rest)  # let the server settle before the next attack
    out["honest_connections_closed"] = closed_connections(runs)
    out["action_errors"] = stats.action_errors[:10]
    for r in runs:
        r.close()
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    extra: list[str] = []
    if args.fast:
        # Seconds, not minutes: smaller buffers and deadlines so every attack meets its
        # limit within a short phase (the defaults are what --fast leaves out).
        extra += ["--frame-timeout-s", "1", "--max-output-kib", "64"]
    with served("attacks", extra) as s:
        t0 = time.perf_counter()
        result = asyncio.run(_run(args, s.server, s.port))
        alive = s.server.alive()
    result.update(
        {
            "tables": args.tables,
            "seconds": args.seconds,
            "scenarios": list(args.scenarios),
            "fast": args.fast,
            "server_alive": alive,
            "server_problems": s.problems[:10],
            "wall_s": round(time.perf_counter() - t0, 1),
        }
    )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0, help="per phase")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds per decision")
    parser.add_argument("--conns", type=int, default=8, help="reader/slowloris connections")
    parser.add_argument("--rest", type=float, default=2.0, help="seconds between attacks")
    parser.add_argument("--scenarios", type=lambda s: tuple(s.split(",")), default=SCENARIOS)
    parser.add_argument("--fast", action="store_true", help="short deadlines and buffers")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    unknown = set(args.scenarios) - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown scenarios: {', '.join(sorted(unknown))}")
    return report(run(args), args.json)


if __name__ == "__main__":
    sys.exit(main())
