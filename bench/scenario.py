"""What the load and fault benches (load, fuzz, flood, storm, crash, attacks, tls_latency) do
around their own scenario, so each of them states only what is its own.

- `served`: a `leekha serve` in a fresh data folder for the length of a block; what it
  left behind (log problems, the end of its stderr, stored games) is read before the
  folder goes.
- `clean_then`: honest games measured alone, then beside a disturbance.
- `Helpers`: this bench again as helper processes (fuzzers, flooders, load generators),
  each answering with one JSON line, and never left running.
- `raw_frame`: a frame built by hand, for the benches that send what no client would.
- `game_parser`, `short_games`, `finished`: the benches that play short games to the end.
- `bench_parser`, `helper_role`, `report`: the command line, and the JSON report with its
  exit code.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from loadclient import (
    ServerProcess,
    Stats,
    TableRun,
    export_records,
    machine,
    open_tables,
    raise_fd_limit,
)
from loadclient import raw_frame as raw_frame  # shared with the lean client

T = TypeVar("T")


@dataclass
class Served:
    """The server of a `served` block; `problems`, `stderr_tail` and `records` are filled
    on the way out."""

    server: ServerProcess
    port: int
    problems: list[str] = field(default_factory=list)
    stderr_tail: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)


@contextlib.contextmanager
def served(
    name: str,
    extra: Sequence[str] = (),
    *,
    patch: str | None = None,
    records: bool = False,
    pythonpath: str | None = None,
) -> Iterator[Served]:
    """A started server in a fresh data folder (this process's open-file limit raised
    first). It is always stopped at the end of the block; then its log problems and, with
    `records`, its stored games are kept, because the folder is removed right after."""
    raise_fd_limit()
    with tempfile.TemporaryDirectory(prefix=f"leekha-{name}-") as tmp:
        server = ServerProcess(Path(tmp), extra=extra, patch=patch, pythonpath=pythonpath)
        try:
            run = Served(server, server.start())
            yield run
        finally:
            server.stop()
        run.problems = server.problems()
        run.stderr_tail = server.stderr_path.read_text(errors="replace").splitlines()[-40:]
        if records:
            run.records = export_records(Path(tmp))


def closed_connections(runs: Sequence[TableRun]) -> int:
    """Honest players whose connection the server closed."""
    return sum(1 for r in runs for p in r.players if p.conn is not None and not p.conn.open)


@dataclass
class Phases(Generic[T]):
    """The games' latencies alone and beside the disturbance, and what it reported."""

    clean: list[float]
    dirty: list[float]
    outcome: T
    seconds: float
    stats: Stats
    closed: int


async def clean_then(
    port: int,
    games: int,
    think: float,
    seconds: float,
    disturb: Callable[[], T],
    *,
    prefix: str,
    seed: int,
) -> Phases[T]:
    """`games` tables play on (decisions uniform in 0..2×`think` s); their latencies are
    recorded for `seconds` alone, then while `disturb` runs in a thread (it starts its
    helper processes and waits for their answers)."""
    stats = Stats(recording=False)
    rng = random.Random(seed)
    runs = await open_tables(
        port, games, stats, think=lambda: rng.uniform(0, 2 * think), rematch=True, prefix=prefix
    )
    stats.recording = True
    await asyncio.sleep(seconds)
    clean = list(stats.latencies)
    stats.latencies.clear()
    t0 = time.perf_counter()
    outcome = await asyncio.get_running_loop().run_in_executor(None, disturb)
    took = time.perf_counter() - t0
    dirty = list(stats.latencies)
    stats.recording = False
    closed = closed_connections(runs)
    for r in runs:
        r.close()
    return Phases(clean, dirty, outcome, took, stats, closed)


class Helpers:
    """This bench run again in an internal role (`script ROLE --option value ...`), one
    process per helper; leaving the `with` block kills every one still running."""

    def __init__(self, script: str) -> None:
        self.script = script
        self.procs: list[subprocess.Popen[str]] = []

    def start(self, role: str, *, stdin: bool = False, **options: object) -> subprocess.Popen[str]:
        """Options become `--name value` (`--name` alone for True; None and False left out)."""
        cmd = [sys.executable, self.script, role]
        for name, value in options.items():
            if value is None or value is False:
                continue
            cmd.append("--" + name.replace("_", "-"))
            if value is not True:
                cmd.append(str(value))
        pipe = subprocess.PIPE if stdin else None
        proc = subprocess.Popen(cmd, stdin=pipe, stdout=subprocess.PIPE, text=True)
        self.procs.append(proc)
        return proc

    @staticmethod
    def answer(proc: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
        """The helper's last line as JSON, once it ended ({} when it printed nothing)."""
        text, _ = proc.communicate(timeout=timeout)
        return dict(json.loads(text.strip().splitlines()[-1])) if text.strip() else {}

    def __enter__(self) -> Helpers:
        return self

    def __exit__(self, *exc: object) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()


async def short_games(
    port: int, args: argparse.Namespace, stats: Stats, rng: random.Random
) -> list[TableRun]:
    """The tables of a `game_parser` bench: --games tables playing to --target, each
    decision uniform in 0..2×--think s."""
    return await open_tables(
        port,
        args.games,
        stats,
        think=lambda: rng.uniform(0, 2 * args.think),
        target=args.target,
        seed=args.seed,
    )


async def finished(runs: Sequence[TableRun], timeout: float) -> int:
    """How many of the tables played their game to the end within `timeout` s."""
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(r.over.wait() for r in runs)), timeout)
    return sum(1 for r in runs if r.over.is_set())


def bench_parser(doc: str | None) -> argparse.ArgumentParser:
    """A bench's command line, described by the first line of its docstring."""
    return argparse.ArgumentParser(description=(doc or "").splitlines()[0])


def helper_role(sub: Any, role: str, what: str) -> argparse.ArgumentParser:
    """The options of an internal role (`Helpers.start`), the server's port first."""
    p: argparse.ArgumentParser = sub.add_parser(role, help=f"(internal) {what}")
    p.add_argument("--port", type=int, required=True)
    return p


def game_parser(doc: str | None, *, games: int, timeout: float) -> argparse.ArgumentParser:
    """The command line of a bench that plays short games to the end (storm, crash)."""
    parser = bench_parser(doc)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--think", type=float, default=0.05, help="mean seconds per decision")
    parser.add_argument("--target", type=int, default=30, help="game target (short games)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=timeout)
    parser.add_argument("--json", action="store_true")
    return parser


def report(result: dict[str, Any], as_json: bool) -> int:
    """Print the result with the machine it ran on (one line with `as_json`); the exit code
    says whether it is `ok` (0 where the bench states no verdict)."""
    result["machine"] = machine()
    print(json.dumps(result) if as_json else json.dumps(result, indent=2), flush=True)
    return 0 if result.get("ok", True) else 1
