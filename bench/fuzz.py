"""Fuzz a live server with random and mutated frames while real games run on it.

Phase 1 (clean): the games run alone for --seconds; their p99 latency is the reference.
Phase 2 (fuzz): fuzzer processes send --frames frames over many short connections while the
same games go on; the games' p99 is measured again.

Goals: 0 server crashes, 0 "Traceback"/"Unhandled" lines in the server's log, and the games'
p99 under fuzz within 2x of the clean run. Frames are counted as sent; the server stops
reading a connection at its first protocol error (as the protocol says), so each fuzz
connection carries a short burst and the fuzzers reconnect.

    python bench/fuzz.py --frames 1000000 --games 20       # the long run
    python bench/fuzz.py --frames 2000 --games 2 --json    # what CI runs
    python bench/fuzz.py --frames 200000 --rate 10000 --pin  # server alone on core 0

--pin puts the server on core 0 and everything else (this process with the game clients,
and the fuzzer processes) on core 1, so the games' p99 measures the server's own cost
rather than how the scheduler shares cores between the fuzzer and the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

from lagprobe import read_log, split
from loadclient import HOST, OPEN_LIMITS, summarize_latency
from scenario import Helpers, bench_parser, clean_then, helper_role, raw_frame, report, served

SCRIPT = str(Path(__file__).resolve())

# Well-formed requests the fuzzer mutates (field names and types from docs/protocol.md).
TEMPLATES: list[dict[str, Any]] = [
    {"type": "hello", "id": 1, "versions": [[1, 0]], "name": "fuzz", "client": "f"},
    {"type": "resume", "id": 1, "versions": [[1, 0]], "token": "x" * 32},
    {"type": "ping", "id": 1},
    {"type": "pong", "re": 1},
    {"type": "list_tables", "id": 1},
    {
        "type": "create_table",
        "id": 1,
        "name": "fz",
        "preset": "classic",
        "overrides": {"target": 10},
        "password": None,
        "pass_timer_s": 5,
        "turn_timer_s": 5,
    },
    {"type": "join_seat", "id": 1, "table_id": 1, "seat": 1, "password": None},
    {"type": "spectate", "id": 1, "table_id": 1, "password": None},
    {"type": "leave", "id": 1},
    {"type": "add_bot", "id": 1, "seat": 1, "strategy": "basic"},
    {"type": "remove_bot", "id": 1, "seat": 1},
    {"type": "start", "id": 1},
    {"type": "rematch", "id": 1},
    {"type": "pass_cards", "id": 1, "cards": [1, 2, 3]},
    {"type": "declare_double", "id": 1, "card": 49},
    {"type": "play_card", "id": 1, "card": 0},
    {"type": "chat", "id": 1, "text": "hi"},
    {"type": "welcome", "re": 1, "version": [1, 0], "server": "s", "token": "t", "name": "n"},
]
ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    51,
    52,
    2**31,
    2**63 - 1,
    -(2**63),
    2**64 - 1,
    0.5,
    float("nan"),
    float("inf"),
    "",
    "x" * 70,
    "\x00\u202e\ud7ff",
    "é" * 1100,
    [],
    [1, 1, 1],
    list(range(60)),
    [[1, 0]] * 17,
    {},
    {"a": {"b": {"c": [None]}}},
    {"target": -5, "void_rule": "nope"},
]


SERVER_CORE = 0
CLIENT_CORE = 1


def pin(pid: int, core: int) -> None:
    """Pin every thread of process `pid` (0: this one) to `core`; threads and processes
    started later inherit it."""
    pid = pid or os.getpid()
    tasks = [int(t) for t in os.listdir(f"/proc/{pid}/task")] if os.path.isdir("/proc") else [pid]
    for tid in tasks:
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(tid, {core})


def random_value(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if r < 0.4 or depth > 3:
        return rng.choice(ODD_VALUES)
    if r < 0.5:
        return rng.randbytes(rng.randint(0, 8))  # bin: forbidden
    if r < 0.55:
        return msgpack.ExtType(rng.randint(0, 127), rng.randbytes(3))  # ext: forbidden
    if r < 0.75:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {
        rng.choice(["type", "id", "card", "x", "seat"]): random_value(rng, depth + 1)
        for _ in range(rng.randint(0, 4))
    }


def mutate(rng: random.Random, template: dict[str, Any]) -> dict[str, Any]:
    msg = dict(template)
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        keys = list(msg)
        if op < 0.5 and keys:
            msg[rng.choice(keys)] = random_value(rng)
        elif op < 0.65 and keys:
            del msg[rng.choice(keys)]
        elif op < 0.8:
            msg[rng.choice(["zz", "id", "re", "type", "extra"])] = random_value(rng)
        else:
            msg["type"] = rng.choice([t["type"] for t in TEMPLATES] + ["", "hello ", "HELLO"])
    return msg


def frame(rng: random.Random) -> bytes:
    """One fuzz frame: valid, mutated, corrupted or pure garbage."""
    r = rng.random()
    if r < 0.3:  # a well-formed request with random-but-typed values (keeps the connection)
        t = dict(rng.choice(TEMPLATES[2:17]))
        if "card" in t:
            t["card"] = rng.randint(0, 51)
        if "seat" in t:
            t["seat"] = rng.randint(0, 3)
        if "table_id" in t:
            t["table_id"] = rng.randint(0, 50)
        if "cards" in t:
            t["cards"] = sorted(rng.sample(range(52), 3))
        t["id"] = rng.randint(0, 2**31 - 1)
        return raw_frame(t)
    if r < 0.6:
        return raw_frame(mutate(rng, rng.choice(TEMPLATES)))
    if r < 0.75:  # bit flips in a valid frame
        data = bytearray(raw_frame(rng.choice(TEMPLATES)))
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(4, len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    if r < 0.85:  # garbage body with an honest length
        body = rng.randbytes(rng.randint(1, 64))
        return len(body).to_bytes(4, "big") + body
    if r < 0.9:  # lying length headers: zero, huge, or longer than what follows
        n = rng.choice([0, 65537, 2**32 - 1, rng.randint(5, 100)])
        return n.to_bytes(4, "big") + rng.randbytes(rng.randint(0, 4))
    if r < 0.95:  # non-map values and trailing bytes
        return raw_frame(rng.choice([1, "s", [1, 2], None])) + b"\x00"
    return raw_frame(random_value(rng))


async def _fuzzer(
    port: int, frames: int, seed: int, parallel: int, burst: int, rate: float = 0.0
) -> dict[str, Any]:
    rng = random.Random(seed)
    start = time.perf_counter()
    hello = raw_frame(TEMPLATES[0] | {"name": f"fz{seed}"})
    state = {"left": frames, "sent": 0, "conns": 0, "refused": 0}

    async def one_connection(i: int) -> None:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), 10)
        except (TimeoutError, OSError):
            state["refused"] += 1
            return
        state["conns"] += 1
        try:
            n = min(state["left"], rng.randint(1, burst))
            state["left"] -= n
            chunks = [hello] if rng.random() < 0.6 else []
            chunks += [frame(rng) for _ in range(n)]
            state["sent"] += n  # written unless the server already hung up on an earlier one
            # Split the bytes at random points so frames straddle reads.
            data = b"".join(chunks)
            pos = 0
            while pos < len(data):
                step = rng.randint(1, max(1, len(data) - pos))
                writer.write(data[pos : pos + step])
                pos += step
                if rng.random() < 0.2:
                    await writer.drain()
            await writer.drain()
            # Read what the server says until it closes or a short pause.
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(reader.read(65536), 0.2)
        except (OSError, ConnectionError):
            pass
        finally:
            writer.transport.abort()

    async def lane(lane_no: int) -> None:
        while state["left"] > 0:
            await one_connection(lane_no)
            if rate > 0:  # hold the average at `rate` frames/s
                ahead = start + state["sent"] / rate - time.perf_counter()
                if ahead > 0:
                    await asyncio.sleep(ahead)

    await asyncio.gather(*(lane(i) for i in range(parallel)))
    return {"sent": state["sent"], "connections": state["conns"], "refused": state["refused"]}


def fuzzer_main(args: argparse.Namespace) -> int:
    result = asyncio.run(
        asyncio.wait_for(
            _fuzzer(args.port, args.frames, args.seed, args.parallel, args.burst, args.rate),
            args.deadline,
        )
    )
    print(json.dumps(result), flush=True)
    return 0


def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.pin and not {SERVER_CORE, CLIENT_CORE} <= os.sched_getaffinity(0):
        raise SystemExit(f"--pin needs cores {SERVER_CORE} and {CLIENT_CORE}")
    # No kick penalty by default: the fuzzer shares 127.0.0.1 and would be shut out
    # after its first bad frame, and this bench measures the parser, not the penalty.
    window: list[float] = []  # wall-clock start and end of the fuzz phase
    probe_log = os.path.join(tempfile.mkdtemp(prefix="leekha-probe-"), "stalls.jsonl")
    os.environ["LEEKHA_STALL_LOG"] = probe_log  # written by `--patch lagprobe`
    limits = (*OPEN_LIMITS, "--kick-penalty-s", str(args.kick_penalty_s))
    with served("fuzz", limits, patch=args.patch) as s:
        if args.pin:
            pin(s.server.pid, SERVER_CORE)
            pin(0, CLIENT_CORE)  # the game clients; the fuzzers inherit it

        def fuzz() -> dict[str, int]:
            window.append(time.time())
            shares = [
                args.frames // args.fuzzers + (i < args.frames % args.fuzzers)
                for i in range(args.fuzzers)
            ]
            out = {"sent": 0, "connections": 0, "refused": 0}
            with Helpers(SCRIPT) as helpers:
                for i, n in enumerate(shares):
                    proc = helpers.start(
                        "_fuzzer",
                        port=s.port,
                        frames=n,
                        seed=i + 1,
                        parallel=args.parallel,
                        burst=args.burst,
                        deadline=args.timeout,
                        rate=args.rate / args.fuzzers,
                    )
                    if args.pin:
                        pin(proc.pid, CLIENT_CORE)
                for proc in helpers.procs:
                    part = helpers.answer(proc, args.timeout + 30)
                    for k in out:
                        out[k] += int(part.get(k, 0))
            window.append(time.time())
            return out

        phases = asyncio.run(
            clean_then(s.port, args.games, args.think, args.seconds, fuzz, prefix="g", seed=7)
        )
        alive = s.server.alive()
        cores = {
            "server": sorted(os.sched_getaffinity(s.server.pid)) if alive else [],
            "clients": sorted(os.sched_getaffinity(0)),
        }
        rss_mb = s.server.rss_bytes() / 2**20 if alive else 0.0
    events = read_log(probe_log)
    shutil.rmtree(os.path.dirname(probe_log), ignore_errors=True)
    c, d = summarize_latency(phases.clean), summarize_latency(phases.dirty)
    ratio = d["p99_ms"] / c["p99_ms"] if c["p99_ms"] > 0 else float("nan")
    fuzzed, fuzz_s, stats = phases.outcome, phases.seconds, phases.stats
    result = {
        "frames_sent": fuzzed["sent"],
        "fuzz_connections": fuzzed["connections"],
        "fuzz_refused_connections": fuzzed["refused"],
        "fuzz_seconds": round(fuzz_s, 2),
        "frames_per_s": round(fuzzed["sent"] / fuzz_s, 1) if fuzz_s else 0.0,
        "rate_cap": args.rate,
        "pinned": args.pin,
        "cores": cores,
        "games": args.games,
        "clean": c,
        "under_fuzz": d,
        "p99_ratio": round(ratio, 2),
        "server_alive": alive,
        "server_rss_mb_after": round(rss_mb, 1),
        "server_problems": s.problems[:20],
        "server_problem_count": len(s.problems),
        "game_connections_closed": phases.closed,
        "action_error_count": len(stats.action_errors),
        "action_errors": stats.action_errors[:10],
        "invariant_problems": stats.invariant_problems[:10],
    }
    if events and len(window) == 2:
        start, end = window
        result["server_probe"] = {
            "clean": split(events, start - args.seconds, start),
            "under_fuzz": split(events, start, end),
        }
    result["ok"] = alive and not s.problems and phases.closed == 0 and not stats.invariant_problems
    result["meets_latency_goal"] = ratio <= 2.0
    return result


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    sub = parser.add_subparsers(dest="role")
    p_f = helper_role(sub, "_fuzzer", "one fuzzer process")
    p_f.add_argument("--frames", type=int, required=True)
    p_f.add_argument("--seed", type=int, default=1)
    p_f.add_argument("--parallel", type=int, default=32)
    p_f.add_argument("--burst", type=int, default=30)
    p_f.add_argument("--deadline", type=float, default=900.0)
    p_f.add_argument("--rate", type=float, default=0.0)
    parser.add_argument("--frames", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0, help="clean phase length")
    parser.add_argument("--think", type=float, default=0.1, help="mean seconds per decision")
    parser.add_argument("--fuzzers", type=int, default=1, help="fuzzer processes")
    parser.add_argument("--parallel", type=int, default=32, help="connections per fuzzer")
    parser.add_argument("--burst", type=int, default=30, help="most frames per connection")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--rate", type=float, default=0.0, help="frames/s cap (0 = flat out)")
    parser.add_argument(
        "--patch",
        default=None,
        help="server experiment (bench/serverpatch.py); with lagprobe the report splits the "
        "server's late beats into CPU, run-queue wait and blocked time, clean and under fuzz",
    )
    parser.add_argument(
        "--kick-penalty-s",
        type=float,
        default=0.0,
        help="server's kick penalty (0 = off: measure the parser; 10 = as deployed)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help=f"server on core {SERVER_CORE}; game clients and fuzzers on core {CLIENT_CORE}",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.role == "_fuzzer":
        return fuzzer_main(args)
    return report(run(args), args.json)


if __name__ == "__main__":
    sys.exit(main())
