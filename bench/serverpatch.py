"""Run `leekha serve` with an experimental server change applied at import time.

Benchmarks use it to measure a proposed server fix before the fix lands in server/:

    python bench/serverpatch.py nodelay serve --host 127.0.0.1 --port 0 ...

Patches:
- nodelay: set TCP_NODELAY on every accepted connection (Twisted leaves Nagle's algorithm
  on, so a second small write to a client waits for the client's delayed ACK, ~40 ms).
- gclog: print every garbage-collection pause over 5 ms to stderr.
- gcfreeze: gc.freeze() every 10 s and higher gen-0 threshold (a fix candidate).
- stalls: a watchdog thread samples the main thread's stack whenever the reactor has not
  run a 2 ms heartbeat for over 10 ms, and prints each stall (length and the deepest
  frames seen) to stderr or the file $LEEKHA_STALL_LOG: what blocks the loop, not what
  uses the CPU.
- lagprobe: bench/lagprobe.py (loop lateness, GC pauses, slow callbacks and timers) as
  JSON lines in $LEEKHA_STALL_LOG.
- sweepsoon: gctune's full collection of the frozen heap every 10 s whatever the
  memory growth (what one costs, with lagprobe).
- nogc: gc.disable() (and no gctune): how much of a latency tail is garbage collection.
- nodirect: every write goes through transport.write (Twisted buffers it, watches the
  socket for writability and sends on the next loop turn), as before the direct send.
- pingall: the keepalive pings every connection once per interval, talking or not, as
  before only idle peers were pinged.
- inlinecheckpoint: SQLite checkpoints the WAL inside COMMIT on the reactor thread (its
  default, 1000 pages), as before leekha.server.checkpoint moved it to the thread pool.
- none: no change (the same start-up path, for a like-for-like comparison).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from leekha.server.clock import Clock


def nodelay() -> None:
    from leekha.server import connection

    original = connection.LeekhaConnection.connectionMade

    def connection_made(self: Any) -> None:
        transport: Any = self.transport
        if transport is not None and hasattr(transport, "setTcpNoDelay"):
            transport.setTcpNoDelay(True)
        original(self)

    connection.LeekhaConnection.connectionMade = connection_made  # type: ignore[method-assign]


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


def gcfreeze() -> None:
    """Move everything alive into the permanent generation every 10 s and collect the
    young generations less often: the usual cure for long gen-2 pauses in big heaps."""
    import gc
    import threading

    gc.set_threshold(50_000, 20, 100)

    def freeze_forever() -> None:
        import time

        while True:
            time.sleep(10)
            gc.freeze()

    threading.Thread(target=freeze_forever, daemon=True).start()


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

    # The asyncio reactor must be installed before anything imports the global reactor.
    from leekha.server import reactor as installer

    install = installer.install_asyncio_reactor

    def install_and_watch() -> Any:
        reactor = install()
        reactor.callWhenRunning(heartbeat, reactor)
        return reactor

    installer.install_asyncio_reactor = install_and_watch  # type: ignore[assignment]
    threading.Thread(target=watch, daemon=True).start()


def lagprobe() -> None:
    """bench/lagprobe.py in the server: loop lateness, GC pauses and slow callbacks as JSON
    lines in $LEEKHA_STALL_LOG (or stderr)."""
    import os

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from lagprobe import LagProbe

    path = os.environ.get("LEEKHA_STALL_LOG")
    probe = LagProbe(out=open(path, "a", buffering=1) if path else sys.stderr)  # noqa: SIM115
    probe.time_twisted_timers()
    from leekha.server import checkpoint, persistence

    probe.time_function(persistence.Store, "commit", "commit")
    probe.time_function(checkpoint, "checkpoint", "checkpoint", over_ms=0.0)
    from leekha.server import reactor as installer

    install = installer.install_asyncio_reactor

    def install_and_probe() -> Any:
        reactor = install()
        reactor.callWhenRunning(probe.start, reactor.callLater)
        return reactor

    installer.install_asyncio_reactor = install_and_probe  # type: ignore[assignment]


def sweepsoon() -> None:
    """leekha.server.gctune's full collection of the frozen heap every 10th tick (10 s)
    whatever the memory growth, so that a short window shows what one costs."""
    from leekha.server import gctune

    tick = gctune.GcTuning.tick
    ticks = [0]

    def often(self: Any) -> None:
        ticks[0] += 1
        if ticks[0] % 10 == 0:
            self.least = 0.0  # as if memory per unit of load had grown past the share
        tick(self)

    gctune.GcTuning.tick = often  # type: ignore[method-assign]


def nogc() -> None:
    """No cyclic garbage collection at all: shows how much of a latency tail is GC."""
    import gc

    from leekha.server import gctune

    gc.disable()
    gctune.GcTuning.tick = lambda self: None  # type: ignore[method-assign]


def nodirect() -> None:
    from leekha.server import connection

    def write(self: Any, data: bytes) -> None:
        self.transport.write(data)

    connection.LeekhaConnection._write = write  # type: ignore[method-assign]


def pingall() -> None:
    from leekha.protocol import catalogue as M
    from leekha.server import connection

    original = connection.LeekhaConnection.keepalive

    def keepalive(self: Any, now: float) -> None:
        if now - self.last_heard < self.settings.ping_interval_s:
            self._ping_id = (self._ping_id + 1) % 2**31
            self.send(M.Ping(id=self._ping_id))
        original(self, now)

    connection.LeekhaConnection.keepalive = keepalive  # type: ignore[method-assign]


def inlinecheckpoint() -> None:
    from leekha.server import checkpoint, persistence

    persistence.Store.checkpoint_elsewhere = lambda self: None  # type: ignore[method-assign]
    checkpoint.Checkpointer.tick = lambda self: None  # type: ignore[method-assign]


PATCHES: dict[str, Callable[[], None]] = {
    "nodelay": nodelay,
    "gclog": gclog,
    "gcfreeze": gcfreeze,
    "stalls": stalls,
    "nogc": nogc,
    "lagprobe": lagprobe,
    "sweepsoon": sweepsoon,
    "nodirect": nodirect,
    "pingall": pingall,
    "inlinecheckpoint": inlinecheckpoint,
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
