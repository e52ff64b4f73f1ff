"""Capacity of one `leekha serve` process: many four-player tables of client bots at once.

Two modes, both against a real server subprocess on 127.0.0.1 with load generators in
separate processes:

    # full speed: every seat answers its prompt at once; server messages/s against a bare
    # msgpack echo server measured in the same run (goals: 0.9 at 50 tables, 0.6 at 5)
    python bench/load.py full --tables 50 --seconds 10

    # human pace: each decision takes 1-3 s (mean 2 s); p50/p99 latency from sending
    # play_card to the card_played event on another seat, server CPU and memory per table;
    # steps up until p99 > 20 ms (goal: 4,000 tables = 16,000 connections at p99 <= 20 ms)
    python bench/load.py human --steps 250,500,1000,2000,4000 --seconds 30 --workers 2

    # server CPU per message with half the tables over the table page's WebSocket and
    # half over TCP, against all over TCP, in one run (goal: WebSocket <= 1.2x TCP)
    python bench/load.py web-half --tables 50 --seconds 10 --pairs 2

    # the server's CPU per action, this checkout's server and another's alternated (a
    # checkout made with `git worktree add DIR REV` or `git archive REV | tar -x -C DIR`)
    python bench/load.py human --steps 300 --seconds 15 --workers 2 --against DIR --pairs 3

Add --json for one machine-readable line. Every process stops by itself: load generators
have a hard deadline and the server is killed in a finally block.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadclient import (
    NO_RATE_LIMIT,
    OPEN_LIMITS,
    Stats,
    machine,
    open_tables,
    quiet_gc,
    raise_fd_limit,
    summarize_latency,
)
from scenario import Helpers, bench_parser, helper_role, served

SCRIPT = str(Path(__file__).resolve())
LATENCY_GOAL_MS = 20.0
#: The full-speed goals: the server's rate against the echo's, at 50 tables (where the
#: load generator shares the machine) and at 5 (where the server alone is the bottleneck).
RATIO_GOALS = {50: 0.9, 5: 0.6}


# ---- one load-generator process -----------------------------------------------------------
async def _worker(args: argparse.Namespace) -> dict[str, Any]:
    stats = Stats(recording=False)
    rng = random.Random(args.first)
    lo, hi = args.think * 0.5, args.think * 1.5

    def think() -> float:
        return rng.uniform(lo, hi) if args.think > 0 else 0.0

    probe = None
    if args.probe:
        from lagprobe import LagProbe

        probe = LagProbe()
        probe.start(asyncio.get_running_loop().call_later)
    t0 = time.perf_counter()
    runs = await open_tables(
        args.port,
        args.tables,
        stats,
        first_index=args.first,
        prefix=f"w{args.first}x",
        think=think,
        target=args.target,
        rematch=True,
        concurrency=args.concurrency,
        seed=args.first,
        checked=False,
        ws=args.ws,
    )
    setup_s = time.perf_counter() - t0
    if not args.gc:
        quiet_gc()
    print("READY", flush=True)
    loop = asyncio.get_running_loop()
    line = await asyncio.wait_for(loop.run_in_executor(None, sys.stdin.readline), 600)
    if line.strip() != "GO":
        return {"error": "no GO"}
    # The last tables' set-up burst is still in the server's queues at GO: it is not
    # human pace, so the window opens once it has drained.
    await asyncio.sleep(args.settle)
    conns = [p.conn for r in runs for p in r.players if p.conn is not None]
    sent0 = sum(c.sent for c in conns)
    recv0 = sum(c.received for c in conns)
    ru0 = resource.getrusage(resource.RUSAGE_SELF)
    stats.latencies.clear()
    stats.late.clear()
    if probe is not None:
        probe.reset()
    stats.recording = True
    start = time.perf_counter()
    window_start = time.time()
    await asyncio.sleep(args.seconds)
    elapsed = time.perf_counter() - start
    stats.recording = False
    ru1 = resource.getrusage(resource.RUSAGE_SELF)
    closed = sum(1 for c in conns if not c.open)
    result = {
        "tables": args.tables,
        "setup_s": setup_s,
        "seconds": elapsed,
        "sent": sum(c.sent for c in conns) - sent0,
        "received": sum(c.received for c in conns) - recv0,
        "closed_connections": closed,
        "cpu_s": (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime),
        "window": [round(window_start, 4), round(window_start + elapsed, 4)],
        **stats.to_dict(),
    }
    if probe is not None:
        result["probe"] = probe.summary()
    for r in runs:
        r.close()
    return result


def worker_main(args: argparse.Namespace) -> int:
    raise_fd_limit()

    async def bounded() -> dict[str, Any]:
        return await asyncio.wait_for(_worker(args), args.deadline)

    try:
        result = asyncio.run(bounded())
    except Exception as exc:
        result = {"error": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(result), flush=True)
    return 1 if "error" in result else 0


# ---- the coordinator -----------------------------------------------------------------------
def _read_line(proc: subprocess.Popen[str], timeout: float) -> str:
    import select

    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 1.0)
        if ready:
            return proc.stdout.readline()
        if proc.poll() is not None:
            return proc.stdout.readline()
    raise TimeoutError("load generator did not answer in time")


def run_step(
    tables: int,
    *,
    think: float,
    seconds: float,
    workers: int = 1,
    target: int | None = None,
    extra: tuple[str, ...] = (),
    concurrency: int = 25,
    patch: str | None = None,
    profile: Path | None = None,
    profile_rate: int = 100,
    probe: bool = False,
    loadgen_gc: bool = False,
    settle: float = 0.0,
    pythonpath: str | None = None,
    ws_tables: int = 0,
) -> dict[str, Any]:
    """One measurement: a fresh server, `tables` tables split over `workers` processes
    (and `ws_tables` of them over the table page's WebSocket, in processes of their own).
    With `probe`, each load generator runs bench/lagprobe.py and the result keeps its
    events, the late plays with their times, and the server's probe log if the server ran
    with the `lagprobe` patch."""
    workers = max(1, min(workers, tables))
    groups = [(n, ws) for n, ws in ((tables - ws_tables, False), (ws_tables, True)) if n > 0]
    shares = [
        (n // workers + (i < n % workers), ws) for n, ws in groups for i in range(min(workers, n))
    ]
    setup_timeout = 60 + tables * 0.1
    stall_log = Path(tempfile.mkdtemp(prefix="leekha-probe-")) / "stalls.jsonl"
    os.environ["LEEKHA_STALL_LOG"] = str(stall_log)  # read by serverpatch lagprobe
    with (
        served("load", (*OPEN_LIMITS, *extra), patch=patch, pythonpath=pythonpath) as s,
        Helpers(SCRIPT) as helpers,
    ):
        server = s.server
        rss_idle = server.rss_bytes()
        first = 0
        for n, ws in shares:
            if ws and server.web_port is None:
                raise RuntimeError("the server printed no table page address")
            helpers.start(
                "_worker",
                stdin=True,
                port=server.web_port if ws else s.port,
                ws=ws,
                tables=n,
                first=first,
                think=think,
                seconds=seconds,
                settle=settle,
                concurrency=concurrency,
                deadline=setup_timeout + settle + seconds + 60,
                target=target,
                probe=probe,
                gc=loadgen_gc,
            )
            first += n
        procs = helpers.procs
        t0 = time.perf_counter()
        for p in procs:
            line = _read_line(p, setup_timeout)
            if line.strip() != "READY":
                rest = line + (p.stdout.read() if p.stdout else "")
                raise RuntimeError(f"load generator failed during setup: {rest[-500:]}")
        setup_s = time.perf_counter() - t0
        rss_loaded = server.rss_bytes()
        (user0, sys0), w0 = server.cpu_times(), time.perf_counter()
        spy = None
        if profile is not None:
            # Sampling profile of the server during the window (py-spy, if installed).
            spy = subprocess.Popen(
                [
                    str(Path(sys.executable).parent / "py-spy"),
                    "record",
                    "--pid",
                    str(server.pid),
                    "--duration",
                    str(max(1, int(seconds) - 1)),
                    "--format",
                    "raw",
                    "--idle",
                    "--rate",
                    str(profile_rate),
                    "--output",
                    str(profile),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        cprofile = patch is not None and "cprofile" in patch.split(",")
        if cprofile:  # bench/serverpatch.py cprofile: the window alone
            os.kill(server.pid, signal.SIGUSR1)
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("GO\n")
            p.stdin.flush()
        results: list[dict[str, Any]] = []
        for p in procs:
            line = _read_line(p, seconds + 120)
            results.append(json.loads(line) if line.strip() else {"error": "no result"})
        (user1, sys1), w1 = server.cpu_times(), time.perf_counter()
        if cprofile:
            os.kill(server.pid, signal.SIGUSR2)
            time.sleep(2)  # the server writes $LEEKHA_PROFILE before it is stopped
        alive = server.alive()
        if spy is not None:
            spy.wait(timeout=60)
    problems, stderr_tail = s.problems, s.stderr_tail
    server_events = (
        [json.loads(ln) for ln in stall_log.read_text().splitlines() if ln.strip()]
        if stall_log.exists()
        else []
    )
    shutil.rmtree(stall_log.parent, ignore_errors=True)
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        raise RuntimeError(f"load generator failed: {errors[0]}")
    window = max(r["seconds"] for r in results)
    cpu0, cpu1 = user0 + sys0, user1 + sys1
    latencies = [x for r in results for x in r["latencies"]]
    msgs = sum(r["sent"] + r["received"] for r in results)
    return {
        "tables": tables,
        "ws_tables": ws_tables,
        "connections": 4 * tables,
        "workers": workers,
        "server_patch": patch,
        "loadgen_gc": loadgen_gc,
        "think_s": think,
        "setup_s": round(setup_s, 2),
        "window_s": round(window, 2),
        "messages": msgs,
        "msgs_per_s": round(msgs / window, 1),
        "actions_per_s": round(sum(r["sent"] for r in results) / window, 1),
        "server_cpu_pct": round(100 * (cpu1 - cpu0) / (w1 - w0), 1),
        # Of it, the kernel's share (system time: the sockets' sends and receives).
        "server_sys_pct": round(100 * (sys1 - sys0) / max(1e-9, cpu1 - cpu0), 1),
        # The server's CPU for each action a player sent (the messages it causes included).
        "server_cpu_us_per_action": round(
            1e6 * (cpu1 - cpu0) / (w1 - w0) / max(1e-9, sum(r["sent"] for r in results) / window),
            1,
        ),
        "loadgen_cpu_pct": round(100 * sum(r["cpu_s"] for r in results) / window, 1),
        "server_rss_idle_mb": round(rss_idle / 2**20, 1),
        "server_rss_loaded_mb": round(rss_loaded / 2**20, 1),
        "kb_per_table": round((rss_loaded - rss_idle) / 1024 / tables, 1),
        **summarize_latency(latencies),
        "action_errors": sum(r["action_error_count"] for r in results),
        "invariant_problems": [p for r in results for p in r["invariant_problems"]],
        "rounds_checked": sum(r["rounds_checked"] for r in results),
        "games_over": sum(r["games_over"] for r in results),
        "closed_connections": sum(r["closed_connections"] for r in results),
        "server_alive": alive,
        "server_problems": problems[:20],
        "server_stderr_tail": stderr_tail,
        **(
            {
                "windows": [r["window"] for r in results],
                "late": sorted(x for r in results for x in r["late"]),
                "probes": [r.get("probe") for r in results],
                "server_events": server_events,
            }
            if probe
            else {}
        ),
    }


def web_half(args: argparse.Namespace) -> dict[str, Any]:
    """Server CPU per message with half the tables over the WebSocket against all over
    TCP, alternated `--pairs` times in one run (issue 35: the WebSocket at most 1.2x TCP).
    With half the messages on each, WS/TCP per message = 2 x mixed/TCP - 1."""
    rows: list[dict[str, Any]] = []
    for _ in range(args.pairs):
        for ws_tables in (0, args.tables // 2):
            step = run_step(
                args.tables,
                think=0.0,
                seconds=args.seconds,
                target=args.target,
                extra=NO_RATE_LIMIT,
                ws_tables=ws_tables,
            )
            step["server_cpu_us_per_msg"] = round(
                1e6 * step["server_cpu_pct"] / 100 / step["msgs_per_s"], 2
            )
            rows.append(step)
    tcp = statistics.median(r["server_cpu_us_per_msg"] for r in rows if not r["ws_tables"])
    mixed = statistics.median(r["server_cpu_us_per_msg"] for r in rows if r["ws_tables"])
    ws_per_tcp = 2 * mixed / tcp - 1
    return {
        "mode": "web-half",
        "tables": args.tables,
        "pairs": args.pairs,
        "seconds": args.seconds,
        "tcp_cpu_us_per_msg": tcp,
        "mixed_cpu_us_per_msg": mixed,
        "mixed_per_tcp": round(mixed / tcp, 3),
        "ws_per_tcp": round(ws_per_tcp, 3),
        "goal_ws_per_tcp": 1.2,
        "meets_goal": ws_per_tcp <= 1.2,
        "runs": [
            {
                k: r[k]
                for k in (
                    "ws_tables",
                    "msgs_per_s",
                    "server_cpu_pct",
                    "server_cpu_us_per_msg",
                    "closed_connections",
                    "action_errors",
                    "server_alive",
                )
            }
            for r in rows
        ],
    }


def full_speed(args: argparse.Namespace) -> dict[str, Any]:
    """Server messages/s at full speed, and the echo ceiling with as many connections."""
    from echo_baseline import run_echo_baseline

    goal = RATIO_GOALS.get(args.tables, min(RATIO_GOALS.values()))
    echo: dict[str, float] = {}
    echo_rt = run_echo_baseline(connections=4 * args.tables, seconds=args.seconds, report=echo)
    step = run_step(
        args.tables,
        think=0.0,
        seconds=args.seconds,
        target=args.target,
        extra=NO_RATE_LIMIT,
        patch=args.patch,
        profile=args.profile,
        profile_rate=args.profile_rate,
    )
    echo_msgs = 2 * echo_rt
    cpu_per_msg = 1e6 * step["server_cpu_pct"] / 100 / step["msgs_per_s"]
    step.update(
        mode="full",
        echo_round_trips_per_s=round(echo_rt, 1),
        echo_msgs_per_s=round(echo_msgs, 1),
        ratio_to_echo=round(step["msgs_per_s"] / echo_msgs, 3),
        goal_ratio=goal,
        # CPU per message, the server's against the echo's: what the rate ratio would be
        # if both had a core to themselves (on a shared machine the rates measure each
        # one's share of a core as much as its speed).
        server_cpu_us_per_msg=round(cpu_per_msg, 2),
        echo_cpu_us_per_msg=round(echo.get("cpu_us_per_msg", 0.0), 2),
        cpu_ratio_to_echo=round(echo.get("cpu_us_per_msg", 0.0) / cpu_per_msg, 3),
    )
    step["meets_goal"] = step["ratio_to_echo"] >= goal
    return step


def _tree(checkout: Path) -> str:
    """A folder that makes `leekha` that checkout's packages when put on PYTHONPATH, ahead
    of this environment's editable install (the checkout's own `.ci/leekha-tree`)."""
    into = tempfile.mkdtemp(prefix="leekha-against-")
    subprocess.run([str(checkout / ".ci" / "leekha-tree"), into], check=True)
    return into


def against(args: argparse.Namespace) -> dict[str, Any]:
    """This checkout's server and the one in `args.against`, alternated step by step
    (`args.pairs` times, the order swapped every pair) on the first step's table count:
    the median CPU per action of each, and this one's over the other's."""
    tables = int(args.steps.split(",")[0])
    other = _tree(args.against.resolve())
    runs: dict[str, list[float]] = {"this": [], "against": []}
    steps = []
    try:
        for i in range(args.pairs):
            for which in ("this", "against") if i % 2 == 0 else ("against", "this"):
                load = os.getloadavg()[0]
                step = run_step(
                    tables,
                    think=args.think,
                    seconds=args.seconds,
                    workers=args.workers,
                    settle=args.settle,
                    pythonpath=other if which == "against" else None,
                )
                step.update(server=which, load_average=round(load, 2))
                steps.append(step)
                runs[which].append(step["server_cpu_us_per_action"])
                print(json.dumps(step), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(other, ignore_errors=True)
    this, them = statistics.median(runs["this"]), statistics.median(runs["against"])
    # Each pair ran back to back, so its ratio is the one least moved by the machine's load
    # drifting over the invocation (other people's work on a shared machine).
    pairs = [round(a / b, 3) for a, b in zip(runs["this"], runs["against"], strict=True)]
    return {
        "mode": "against",
        "tables": tables,
        "against": str(args.against),
        "steps": steps,
        "this_us_per_action": this,
        "against_us_per_action": them,
        "ratio": round(this / them, 3),
        "pair_ratios": pairs,
        "median_pair_ratio": statistics.median(pairs),
    }


def human_pace(args: argparse.Namespace) -> dict[str, Any]:
    """Step the table count up until p99 latency passes the goal (or a step fails).
    With `profile`, each step's server profile goes to PROFILE.<tables>."""
    out: list[dict[str, Any]] = []
    best = 0
    profile = args.profile
    for tables in (int(x) for x in args.steps.split(",") if x.strip()):
        try:
            spy = profile.with_name(f"{profile.name}.{tables}") if profile is not None else None
            step = run_step(
                tables,
                think=args.think,
                seconds=args.seconds,
                workers=args.workers,
                patch=args.patch,
                profile=spy,
                profile_rate=args.profile_rate,
                probe=args.probe,
                loadgen_gc=args.loadgen_gc,
                settle=args.settle,
            )
        except Exception as exc:
            out.append({"tables": tables, "error": str(exc)[:500]})
            break
        step["meets_goal"] = step["p99_ms"] <= LATENCY_GOAL_MS and step["action_errors"] == 0
        out.append(step)
        print(json.dumps(step), file=sys.stderr, flush=True)
        if not step["meets_goal"]:
            break
        best = tables
    return {
        "mode": "human",
        "steps": out,
        "largest_meeting_goal": best,
        "goal_tables": 4000,
        "goal_p99_ms": LATENCY_GOAL_MS,
    }


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    sub = parser.add_subparsers(dest="mode", required=True)
    p_full = sub.add_parser("full", help="full speed: messages/s against the echo ceiling")
    p_full.add_argument("--tables", type=int, default=50)
    p_full.add_argument("--seconds", type=float, default=10.0)
    p_full.add_argument("--target", type=int, default=None)
    p_full.add_argument("--json", action="store_true")
    p_full.add_argument("--profile", type=Path, default=None, help="py-spy raw output file")
    p_full.add_argument("--profile-rate", type=int, default=100, help="py-spy samples a second")
    p_full.add_argument("--patch", default=None, help="server experiment (bench/serverpatch.py)")
    p_web = sub.add_parser(
        "web-half",
        help="full speed, half the tables over the WebSocket: server CPU per message vs TCP",
    )
    p_web.add_argument("--tables", type=int, default=50)
    p_web.add_argument("--seconds", type=float, default=10.0)
    p_web.add_argument("--target", type=int, default=None)
    p_web.add_argument("--pairs", type=int, default=1, help="TCP/mixed runs alternated")
    p_web.add_argument("--json", action="store_true")
    p_human = sub.add_parser("human", help="human pace: latency, CPU and memory per table")
    p_human.add_argument("--steps", default="250,500,1000,2000,4000")
    p_human.add_argument("--seconds", type=float, default=30.0)
    p_human.add_argument("--think", type=float, default=2.0, help="mean seconds per decision")
    p_human.add_argument("--workers", type=int, default=1, help="load-generator processes")
    p_human.add_argument("--json", action="store_true")
    p_human.add_argument(
        "--against",
        type=Path,
        default=None,
        metavar="DIR",
        help="another checkout: its server and this one alternated on the first step",
    )
    p_human.add_argument("--pairs", type=int, default=3, help="with --against: runs of each")
    p_human.add_argument("--patch", default=None, help="server experiment (bench/serverpatch.py)")
    p_human.add_argument(
        "--profile", type=Path, default=None, help="py-spy raw output, one file per step"
    )
    p_human.add_argument("--profile-rate", type=int, default=100, help="py-spy samples a second")
    p_human.add_argument(
        "--probe",
        action="store_true",
        help="lag probes in the load generators (and the server, with --patch lagprobe)",
    )
    p_human.add_argument(
        "--settle",
        type=float,
        default=2.0,
        help="seconds between the end of set-up and the window, for the set-up burst to "
        "drain (0: the window opens at once, as before)",
    )
    p_human.add_argument(
        "--loadgen-gc",
        action="store_true",
        help="keep the load generators' garbage collector on in the window (as before)",
    )
    p_w = helper_role(sub, "_worker", "one load-generator process")
    p_w.add_argument("--tables", type=int, required=True)
    p_w.add_argument("--first", type=int, default=0)
    p_w.add_argument("--think", type=float, default=0.0)
    p_w.add_argument("--seconds", type=float, default=10.0)
    p_w.add_argument("--target", type=int, default=None)
    p_w.add_argument("--concurrency", type=int, default=25)
    p_w.add_argument("--deadline", type=float, default=900.0)
    p_w.add_argument("--probe", action="store_true")
    p_w.add_argument("--gc", action="store_true")
    p_w.add_argument("--settle", type=float, default=0.0)
    p_w.add_argument("--ws", action="store_true", help="over the table page's WebSocket")
    args = parser.parse_args(argv)
    if args.mode == "_worker":
        return worker_main(args)
    if args.mode == "full":
        result = full_speed(args)
    elif args.mode == "web-half":
        result = web_half(args)
    else:
        result = human_pace(args) if args.against is None else against(args)
    result["machine"] = machine()
    result["date"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    if args.json:
        print(json.dumps(result))
    elif result.get("mode") == "against":
        for s in result["steps"]:
            print(
                f"{s['server']:>7}: {s['server_cpu_us_per_action']} us per action "
                f"({s['actions_per_s']} actions/s, server CPU {s['server_cpu_pct']}%, "
                f"{s['server_sys_pct']}% of it in the kernel, p99 {s['p99_ms']} ms, "
                f"load average {s['load_average']})"
            )
        print(
            f"median CPU per action: this {result['this_us_per_action']} us, "
            f"{result['against']} {result['against_us_per_action']} us -> {result['ratio']}"
        )
        print(
            f"pairs (each run back to back): {result['pair_ratios']}, median "
            f"{result['median_pair_ratio']}"
        )
    elif args.mode == "web-half":
        for r in result["runs"]:
            print(
                f"{r['ws_tables']:>3} of {args.tables} tables over the WebSocket: "
                f"{r['msgs_per_s']:,.0f} msgs/s, server CPU {r['server_cpu_pct']}%, "
                f"{r['server_cpu_us_per_msg']} us per message"
            )
        print(
            f"CPU per message, half over the WebSocket / all over TCP: "
            f"{result['mixed_per_tcp']}; so the WebSocket's per message / TCP's: "
            f"{result['ws_per_tcp']} (goal <= 1.2)"
        )
    elif args.mode == "full":
        print(
            f"full speed, {args.tables} tables ({4 * args.tables} connections), "
            f"{result['window_s']} s: server {result['msgs_per_s']:,.0f} msgs/s "
            f"(both ways), echo ceiling {result['echo_msgs_per_s']:,.0f} msgs/s -> "
            f"ratio {result['ratio_to_echo']:.2f} (goal >= {result['goal_ratio']}); "
            f"server CPU {result['server_cpu_pct']}%, load generator CPU "
            f"{result['loadgen_cpu_pct']}%; CPU per message: server "
            f"{result['server_cpu_us_per_msg']} us, echo {result['echo_cpu_us_per_msg']} us "
            f"-> {result['cpu_ratio_to_echo']:.2f}; action p50 {result['p50_ms']} ms "
            f"p99 {result['p99_ms']} ms; errors {result['action_errors']}"
        )
    else:
        for s in result["steps"]:
            if "error" in s:
                print(f"{s['tables']:>5} tables: FAILED {s['error']}")
                continue
            print(
                f"{s['tables']:>5} tables ({s['connections']} conns): "
                f"p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms ({s['samples']} samples), "
                f"server CPU {s['server_cpu_pct']}% "
                f"({s['server_cpu_us_per_action']} us per action), "
                f"RSS {s['server_rss_loaded_mb']} MB "
                f"({s['kb_per_table']} KiB/table), setup {s['setup_s']} s, "
                f"{'meets' if s['meets_goal'] else 'MISSES'} goal"
            )
        print(
            f"largest count meeting p99 <= {LATENCY_GOAL_MS:g} ms: "
            f"{result['largest_meeting_goal']} tables (goal 4000)"
        )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
