"""Flood: one client sends 10,000 messages a second; it must be limited or cut off, and the
other players must stay within the latency goal (p99 <= 20 ms).

Phase 1 (clean): --games tables play at a brisk pace for --seconds; p99 is the reference.
Phase 2 (flood): a separate flooder process says hello, then writes --rate messages/s
(pings, list_tables, chat, play_card out of turn) for --seconds while the games go on.

    python bench/flood.py --games 20 --rate 10000 --seconds 10      # the long run
    python bench/flood.py --games 2 --seconds 2 --json              # what CI runs
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import msgpack

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadclient import HOST, OPEN_LIMITS, summarize_latency
from scenario import Helpers, bench_parser, clean_then, helper_role, raw_frame, report, served

SCRIPT = str(Path(__file__).resolve())
LATENCY_GOAL_MS = 20.0


async def _flooder(port: int, rate: int, seconds: float, reconnect: bool) -> dict[str, Any]:
    """Send `rate` messages/s for `seconds`; when cut off, reconnect (if asked) and go on."""
    kinds: list[dict[str, object]] = [
        {"type": "ping"},
        {"type": "list_tables"},
        {"type": "chat", "text": "spam"},
        {"type": "play_card", "card": 0},
    ]
    state: dict[str, Any] = {
        "errors": {},
        "first_cut_after_s": None,
        "replies": 0,
        "cuts": 0,
        "unanswered": 0,  # closed before any reply: refused by the server at accept
    }
    start = time.perf_counter()
    sent = 0
    tick = 0.01
    per_tick = max(1, round(rate * tick))
    msg_id = 1
    connections = 0

    async def read(reader: asyncio.StreamReader) -> None:
        buf = b""
        replies = state["replies"]
        while True:
            try:
                data = await reader.read(65536)
            except OSError:  # reset by the server: cut off as well
                data = b""
            if not data:
                state["cuts"] += 1
                state["unanswered"] += state["replies"] == replies
                if state["first_cut_after_s"] is None:
                    state["first_cut_after_s"] = round(time.perf_counter() - start, 3)
                return
            buf += data
            while len(buf) >= 4:
                n = int.from_bytes(buf[:4], "big")
                if len(buf) < 4 + n:
                    break
                msg = msgpack.unpackb(buf[4 : 4 + n])
                buf = buf[4 + n :]
                state["replies"] += 1
                if msg.get("type") == "error":
                    code = msg.get("code")
                    state["errors"][code] = state["errors"].get(code, 0) + 1

    while time.perf_counter() - start < seconds and (reconnect or connections == 0):
        reader, writer = await asyncio.open_connection(HOST, port)
        connections += 1
        name = f"flooder{connections}"
        writer.write(raw_frame({"type": "hello", "id": 0, "versions": [[1, 0]], "name": name}))
        reading = asyncio.ensure_future(read(reader))
        while time.perf_counter() - start < seconds and not reading.done():
            chunk = []
            for _ in range(per_tick):
                msg_id += 1
                chunk.append(raw_frame(random.choice(kinds) | {"id": msg_id}))
            try:
                writer.write(b"".join(chunk))
            except (OSError, ConnectionError):
                break
            sent += per_tick
            await asyncio.sleep(max(0.0, start + sent / rate - time.perf_counter()))
        try:
            await asyncio.wait_for(reading, 2)
        except TimeoutError:
            reading.cancel()
        writer.transport.abort()
    elapsed = time.perf_counter() - start
    return {
        "sent": sent,
        "seconds": round(elapsed, 3),
        "rate": round(sent / elapsed, 1),
        "connections": connections,
        "errors": state["errors"],
        "replies": state["replies"],
        "cuts": state["cuts"],
        "unanswered": state["unanswered"],
        "first_cut_after_s": state["first_cut_after_s"],
    }


def flooder_main(args: argparse.Namespace) -> int:
    result = asyncio.run(
        asyncio.wait_for(
            _flooder(args.port, args.rate, args.seconds, args.reconnect), args.seconds + 30
        )
    )
    print(json.dumps(result), flush=True)
    return 0


def run(
    *, games: int = 20, rate: int = 10_000, seconds: float = 10.0, think: float = 0.2
) -> dict[str, Any]:
    # Default rate limits, new connections per address and the kick penalty included
    # (the flooder reconnects). The game clients connect before the flood starts.
    limits = (*OPEN_LIMITS, "--new-connections-per-ip-per-s", "20", "--kick-penalty-s", "10")
    with served("flood", limits) as s:

        def flood() -> dict[str, Any]:
            with Helpers(SCRIPT) as helpers:
                proc = helpers.start(
                    "_flooder", port=s.port, rate=rate, seconds=seconds, reconnect=True
                )
                return helpers.answer(proc, seconds + 60)

        phases = asyncio.run(clean_then(s.port, games, think, seconds, flood, prefix="f", seed=3))
        alive = s.server.alive()
    c, d = summarize_latency(phases.clean), summarize_latency(phases.dirty)
    flooded = phases.outcome
    limited = bool(flooded.get("errors", {}).get("rate_limited")) or (
        flooded.get("first_cut_after_s") is not None
    )
    result = {
        "flooder": flooded,
        "flooder_limited": limited,
        "games": games,
        "clean": c,
        "under_flood": d,
        "goal_p99_ms": LATENCY_GOAL_MS,
        "server_alive": alive,
        "server_problems": s.problems[:20],
        "game_connections_closed": phases.closed,
        "action_error_count": len(phases.stats.action_errors),
    }
    result["ok"] = limited and alive and not s.problems and phases.closed == 0
    result["meets_latency_goal"] = d["p99_ms"] <= LATENCY_GOAL_MS
    return result


async def _kick_probe(port: int, tables: int, requests: int, patience: float) -> dict[str, Any]:
    """A client whose replies pile up (big table lists it reads late) and that is then cut
    off for flooding: does the server really close the connection after the kick?"""
    hosts = []
    for i in range(tables):
        r, w = await asyncio.open_connection(HOST, port)
        w.write(raw_frame({"type": "hello", "id": 1, "versions": [[1, 0]], "name": f"host{i}"}))
        w.write(
            raw_frame(
                {"type": "create_table", "id": 2, "name": f"table number {i}", "preset": "classic"}
            )
        )
        await w.drain()
        hosts.append((r, w))
    await asyncio.sleep(0.5)
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(raw_frame({"type": "hello", "id": 1, "versions": [[1, 0]], "name": "prober"}))
    writer.write(b"".join(raw_frame({"type": "list_tables", "id": 2 + i}) for i in range(requests)))
    await writer.drain()
    await asyncio.sleep(1.0)  # read late: the server's replies pile up past its write buffer
    start = time.perf_counter()
    got = 0
    closed_after: float | None = None
    kicked = False
    while time.perf_counter() - start < patience:
        try:
            data = await asyncio.wait_for(reader.read(1 << 20), 0.5)
        except TimeoutError:
            continue
        except OSError:
            data = b""
        if not data:
            closed_after = round(time.perf_counter() - start, 3)
            break
        got += len(data)
        kicked = kicked or b"too many messages; closing" in data
    writer.transport.abort()
    for _, w in hosts:
        w.transport.abort()
    return {"bytes_read": got, "kicked": kicked, "closed_after_s": closed_after}


def kick_probe(*, tables: int = 30, requests: int = 1000, patience: float = 3.0) -> dict[str, Any]:
    with served("kick", OPEN_LIMITS) as s:
        result = asyncio.run(
            asyncio.wait_for(_kick_probe(s.port, tables, requests, patience), patience + 30)
        )
        result["server_alive"] = s.server.alive()
        t0 = time.perf_counter()
        code = s.server.stop(timeout=2.0)
        # A clean SIGTERM shutdown waits for every connection to close.
        result["graceful_stop_s"] = round(time.perf_counter() - t0, 2) if code == 0 else None
    return result


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    sub = parser.add_subparsers(dest="role")
    p_f = helper_role(sub, "_flooder", "the flooding client")
    p_f.add_argument("--rate", type=int, default=10_000)
    p_f.add_argument("--seconds", type=float, default=10.0)
    p_f.add_argument("--reconnect", action="store_true")
    p_p = sub.add_parser("probe", help="is a client kicked for flooding really disconnected?")
    p_p.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rate", type=int, default=10_000, help="flood messages per second")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--think", type=float, default=0.2, help="mean seconds per decision")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.role == "_flooder":
        return flooder_main(args)
    if args.role == "probe":
        print(json.dumps(kick_probe()))
        return 0
    return report(
        run(games=args.games, rate=args.rate, seconds=args.seconds, think=args.think), args.json
    )


if __name__ == "__main__":
    sys.exit(main())
