"""Where a process's event loop loses time: a probe for latency tails.

`LagProbe` records, with wall-clock times (so the server's and the load generators' events
can be put on one time line):

- `lag`: a 5 ms heartbeat on the event loop that notes its own lateness over `threshold`;
- `gc`: every garbage collection (generation, objects collected, pause) over 1 ms;
- `slow`: any single loop callback (a socket read, a timer) that ran longer than
  `threshold`, with what it was (for Twisted timers, the function the DelayedCall ran).

It is for benchmarks only: bench/serverpatch.py `lagprobe` installs it in `leekha serve`
(events go to $LEEKHA_STALL_LOG as JSON lines), and bench/load.py `--probe` in each load
generator (events come back in its result).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

HEARTBEAT_S = 0.005


def _name(func: Any) -> str:
    inner = getattr(func, "__func__", func)
    return f"{getattr(inner, '__module__', '?')}.{getattr(inner, '__qualname__', repr(inner))}"


class LagProbe:
    def __init__(self, threshold_s: float = 0.010, out: TextIO | None = None) -> None:
        self.threshold = threshold_s
        self.out = out
        self.events: list[dict[str, Any]] = []
        self.lags: list[float] = []  # every heartbeat's lateness, seconds
        self._gc_start = 0.0
        self._beat_due = 0.0

    def note(self, **event: Any) -> None:
        event["t"] = round(time.time(), 4)
        self.events.append(event)
        if self.out is not None:
            print(json.dumps(event), file=self.out, flush=True)

    # ---- garbage collection -------------------------------------------------------------
    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
            return
        ms = (time.perf_counter() - self._gc_start) * 1000
        if ms > 1.0:
            self.note(
                kind="gc", gen=info["generation"], ms=round(ms, 2), collected=info["collected"]
            )

    # ---- the heartbeat ------------------------------------------------------------------
    def start(self, call_later: Callable[..., Any]) -> None:
        """Start the heartbeat with `call_later(delay, func)` (asyncio's or the reactor's),
        hook the collector, and time every callback of the running asyncio loop."""
        gc.callbacks.append(self._gc)
        self._time_handles()

        # The loop thread's CPU time and its time waiting for a CPU (run queue), from the
        # kernel: a late beat then splits into work, waiting for a core, and the rest
        # (blocked: the GIL, a lock, I/O).
        sched = os.open(f"/proc/self/task/{threading.get_native_id()}/schedstat", os.O_RDONLY)
        last = [time.perf_counter(), *self._schedstat(sched)]

        def beat() -> None:
            now = time.perf_counter()
            late = now - self._beat_due
            self.lags.append(late)
            cpu, queued = self._schedstat(sched)
            if late > self.threshold:
                self.note(
                    kind="lag",
                    ms=round(late * 1000, 2),
                    since_ms=round((now - last[0]) * 1000, 2),
                    cpu=round((cpu - last[1]) / 1e6, 2),
                    runq=round((queued - last[2]) / 1e6, 2),
                )
            last[:] = [now, cpu, queued]
            self._beat_due = now + HEARTBEAT_S
            call_later(HEARTBEAT_S, beat)

        self._beat_due = time.perf_counter()
        beat()

    @staticmethod
    def _schedstat(fd: int) -> tuple[int, int]:
        fields = os.pread(fd, 100, 0).split()
        return int(fields[0]), int(fields[1])

    def timed(
        self,
        func: Callable[..., Any],
        over_ms: float,
        kind: str,
        what: Callable[..., dict[str, Any]] = lambda *_args: {},
    ) -> Callable[..., Any]:
        """`func`, noting each call (in any thread) that takes longer than `over_ms`, with
        its CPU time and `what(*args)`: what the late call was."""
        probe = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                return func(*args, **kwargs)
            finally:
                ms = (time.perf_counter() - t0) * 1000
                if ms > over_ms:
                    cpu = round((time.thread_time() - c0) * 1000, 2)
                    probe.note(kind=kind, ms=round(ms, 2), cpu=cpu, **what(*args))

        return timed

    def _time_handles(self) -> None:
        def callback(handle: asyncio.events.Handle) -> dict[str, Any]:
            return {"what": _name(getattr(handle, "_callback", None))}

        run = self.timed(asyncio.events.Handle._run, self.threshold * 1000, "slow", callback)
        setattr(asyncio.events.Handle, "_run", run)  # noqa: B010 (a probe replaces it)

    def time_twisted_timers(self) -> None:
        """Name the Twisted timer that ran long (the loop only sees runUntilCurrent)."""
        from twisted.internet import base

        probe = self
        original = base.DelayedCall.__init__

        def init(dc: Any, time_: float, func: Callable[..., Any], *rest: Any, **kw: Any) -> None:
            what = {"what": _name(func)}
            timed = probe.timed(func, probe.threshold * 500, "timer", lambda *_args: what)
            original(dc, time_, timed, *rest, **kw)

        setattr(base.DelayedCall, "__init__", init)  # noqa: B010

    def time_function(self, owner: Any, name: str, kind: str, over_ms: float = 2.0) -> None:
        """Note every call of `owner.name` (a function or method, any thread) that takes
        longer than `over_ms`, with its CPU time and thread."""

        def thread(*_args: Any) -> dict[str, Any]:
            return {"thread": threading.current_thread().name}

        setattr(owner, name, self.timed(getattr(owner, name), over_ms, kind, thread))

    def reset(self) -> None:
        """Forget what came before (the start of a measurement window)."""
        self.events.clear()
        self.lags.clear()

    def summary(self) -> dict[str, Any]:
        lags = sorted(self.lags)

        def pick(q: float) -> float | None:
            return round(lags[min(len(lags) - 1, int(q * len(lags)))] * 1000, 2) if lags else None

        gcs = [e for e in self.events if e["kind"] == "gc"]
        return {
            "beats": len(lags),
            "lag_p50_ms": pick(0.5),
            "lag_p99_ms": pick(0.99),
            "lag_max_ms": pick(1.0),
            "gc_over_1ms": len(gcs),
            "gc_max_ms": max((e["ms"] for e in gcs), default=0),
            "events": self.events[-400:],
        }


def read_log(path: str) -> list[dict[str, Any]]:
    """The events a probe wrote to `path` (JSON lines); [] if there is none."""
    if not os.path.exists(path):
        return []
    with open(path) as fh:
        return [json.loads(line) for line in fh if line.strip()]


def split(events: list[dict[str, Any]], t0: float, t1: float) -> dict[str, Any]:
    """What a server's late beats between wall-clock times t0 and t1 were made of: its own
    work (CPU of the loop thread), waiting for a core (run queue) and the rest (blocked);
    and the most CPU any one callback or timer took."""
    inside = [e for e in events if t0 <= e["t"] <= t1]
    lags = [e for e in inside if e["kind"] == "lag"]
    calls = [e for e in inside if e["kind"] in ("slow", "timer")]
    wall = sum(e["since_ms"] for e in lags)
    cpu = sum(e["cpu"] for e in lags)
    runq = sum(e["runq"] for e in lags)
    return {
        "late_beats": len(lags),
        "late_ms": round(wall),
        "cpu_ms": round(cpu),
        "runq_ms": round(runq),
        "blocked_ms": round(wall - cpu - runq),
        "worst_beat_ms": max((e["ms"] for e in lags), default=0),
        "worst_callback_cpu_ms": max((e["cpu"] for e in calls), default=0),
        "gc_over_1ms": sum(1 for e in inside if e["kind"] == "gc"),
        "gc_max_ms": max((e["ms"] for e in inside if e["kind"] == "gc"), default=0),
        "worst_callbacks": [
            {"what": e.get("what"), "ms": e["ms"], "cpu": e["cpu"]}
            for e in sorted(calls, key=lambda e: -e["cpu"])[:3]
        ],
    }
