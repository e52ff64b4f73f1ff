"""Run `leekha serve` with an experimental server change applied at import time.

Benchmarks use it to measure a proposed server fix before the fix lands in server/:

    python bench/serverpatch.py nodelay serve --host 127.0.0.1 --port 0 ...

Patches:
- nodelay: set TCP_NODELAY on every accepted connection (Twisted leaves Nagle's algorithm
  on, so a second small write to a client waits for the client's delayed ACK, ~40 ms).
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


PATCHES = {"nodelay": nodelay, "none": lambda: None}


def main(argv: list[str]) -> int:
    name, rest = argv[0], argv[1:]
    for part in name.split(","):
        PATCHES[part]()
    from leekha.client.cli import main as cli_main

    return cli_main(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
