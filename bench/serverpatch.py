"""Run `leekha serve` with a probe inside it: what the server does, seen from within.

The benchmarks start the server through this file with `--patch NAME[,NAME]`:

    python bench/serverpatch.py lagprobe serve --host 127.0.0.1 --port 0 ...

Every probe observes and changes nothing the server decides (the experiments that once
brought back old behaviour for A/B runs are gone with the fixes they measured; an A/B of
the server is two checkouts, as docs/performance.md says):
- gclog: print every garbage-collection pause over 5 ms to stderr (or $LEEKHA_STALL_LOG).
- stalls: a watchdog thread samples the main thread's stack whenever the reactor has not
  run a 2 ms heartbeat for over 10 ms, and prints each stall (length and the deepest
  frames seen): what blocks the loop, not what uses the CPU.
- lagprobe: bench/lagprobe.py (loop lateness, GC pauses, slow callbacks and timers) as
  JSON lines in $LEEKHA_STALL_LOG.
- cprofile: cProfile inside the server, from SIGUSR1 to SIGUSR2 (bench/load.py sends them at
  the window's ends), the stats written to $LEEKHA_PROFILE for `python -m pstats` or
  `bench/profsummary.py --pstats`: call counts and own time, which a sampler cannot give.
- none: no probe (the same start-up path, for a like-for-like comparison).

A probe that needs the reactor installs it first (the one `leekha serve` then reuses) and
asks to be started with it, so nothing of the server is replaced.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from leekha.server.domain.clock import Clock


def _when_running(start: Callable[[Any], None]) -> None:
    """Install the asyncio reactor now (leekha serve reuses it) and call `start(reactor)`
    once it runs."""
    from leekha.server.reactor import install_asyncio_reactor

    reactor = install_asyncio_reactor()
    reactor.callWhenRunning(start, reactor)


def gclog() -> None:
    """Report every garbage collection that pauses the process for more than 5 ms."""
    import gc
    import os
    import time

    started = [0.0]
    t0 = time.perf_counter()
    path = os.environ.get("LEEKHA_STALL_LOG")
    out = open(path, "a", buffering=1) if path else sys.stderr  # noqa: SIM115

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        ms = (time.perf_counter() - started[0]) * 1000
        if ms > 5:
            print(
                f"gc pause at {time.perf_counter() - t0:.2f} s gen{info['generation']} {ms:.1f} ms "
                f"collected={info['collected']} objects={len(gc.get_objects())}",
                file=out,
                flush=True,
            )

    gc.callbacks.append(callback)


def stalls() -> None:
    """Print each reactor stall over 10 ms with the main thread's stack during it."""
    import os
    import threading
    import time
    import traceback

    beat = [time.perf_counter()]
    t0 = beat[0]
    main = threading.main_thread().ident
    path = os.environ.get("LEEKHA_STALL_LOG")
    out = open(path, "a", buffering=1) if path else sys.stderr  # noqa: SIM115

    def heartbeat(clock: Clock) -> None:
        def tick() -> None:
            beat[0] = time.perf_counter()
            clock.callLater(0.002, tick)

        tick()

    def watch() -> None:
        seen: dict[str, int] = {}
        stalled_since = 0.0
        while True:
            time.sleep(0.002)
            lag = time.perf_counter() - beat[0]
            if lag > 0.010:
                stalled_since = stalled_since or beat[0]
                frame = sys._current_frames().get(main or 0)
                if frame is not None:
                    stack = traceback.extract_stack(frame)[-6:]
                    key = " < ".join(
                        f"{f.name}({f.filename.rsplit('/', 1)[-1]}:{f.lineno})"
                        for f in reversed(stack)
                    )
                    seen[key] = seen.get(key, 0) + 1
            elif stalled_since:
                ms = (time.perf_counter() - stalled_since) * 1000
                top = sorted(seen.items(), key=lambda kv: -kv[1])[:3]
                lines = "\n    ".join(f"{n}x {k}" for k, n in top)
                at = stalled_since - t0
                print(f"stall {ms:.0f} ms at {at:.2f} s\n    {lines}", file=out, flush=True)
                seen.clear()
                stalled_since = 0.0

    threading.Thread(target=watch, daemon=True).start()
    _when_running(heartbeat)


def lagprobe() -> None:
    """bench/lagprobe.py in the server: loop lateness, GC pauses and slow callbacks as JSON
    lines in $LEEKHA_STALL_LOG (or stderr)."""
    import os

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from lagprobe import LagProbe

    path = os.environ.get("LEEKHA_STALL_LOG")
    probe = LagProbe(out=open(path, "a", buffering=1) if path else sys.stderr)  # noqa: SIM115
    probe.time_twisted_timers()
    from leekha.server import checkpoint
    from leekha.server.domain import persistence

    probe.time_function(persistence.Store, "commit", "commit")
    probe.time_function(checkpoint, "checkpoint", "checkpoint", over_ms=0.0)
    _when_running(lambda reactor: probe.start(reactor.callLater))


def cprofile() -> None:
    """cProfile from SIGUSR1 to SIGUSR2; the stats go to $LEEKHA_PROFILE."""
    import cProfile
    import os
    import signal

    profile = cProfile.Profile()

    def begin(_sig: int, _frame: object) -> None:
        profile.enable()

    def end(_sig: int, _frame: object) -> None:
        profile.disable()
        profile.dump_stats(os.environ.get("LEEKHA_PROFILE", "server.pstats"))

    signal.signal(signal.SIGUSR1, begin)
    signal.signal(signal.SIGUSR2, end)


PATCHES: dict[str, Callable[[], None]] = {
    "cprofile": cprofile,
    "gclog": gclog,
    "stalls": stalls,
    "lagprobe": lagprobe,
    "none": lambda: None,
}


def main(argv: list[str]) -> int:
    name, rest = argv[0], argv[1:]
    for part in name.split(","):
        PATCHES[part]()
    from leekha.client.cli import main as cli_main

    return cli_main(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
