"""Run `leekha serve` with an experimental server change applied at import time.

Benchmarks use it to measure a proposed server fix before the fix lands in server/:

    python bench/serverpatch.py nodelay serve --host 127.0.0.1 --port 0 ...

Patches:
- nodelay: set TCP_NODELAY on every accepted connection (Twisted leaves Nagle's algorithm
  on, so a second small write to a client waits for the client's delayed ACK, ~40 ms).
- gclog: print every garbage-collection pause over 5 ms to stderr.
- gcfreeze: gc.freeze() every 10 s and higher gen-0 threshold (a fix candidate).
- none: no change (the same start-up path, for a like-for-like comparison).
"""

from __future__ import annotations

import sys
from typing import Any


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
    import time

    started = [0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        ms = (time.perf_counter() - started[0]) * 1000
        if ms > 5:
            print(
                f"gc pause gen{info['generation']} {ms:.1f} ms "
                f"collected={info['collected']} objects={len(gc.get_objects())}",
                file=sys.stderr,
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


PATCHES = {
    "nodelay": nodelay,
    "gclog": gclog,
    "gcfreeze": gcfreeze,
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
