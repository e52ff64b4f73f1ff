"""Installing Twisted's asyncio reactor, the one event loop every leekha command runs on.

It must happen before anything imports `twisted.internet.reactor`, so commands call this
first and import their Twisted-using modules afterwards; never at import time, so tests
and library users keep control of their own reactor.
"""

from __future__ import annotations

import sys
from typing import Any


def install_asyncio_reactor() -> Any:
    """Install (or reuse) Twisted's asyncio reactor on a fresh loop and return it."""
    import asyncio

    if "twisted.internet.reactor" not in sys.modules:
        from twisted.internet import asyncioreactor

        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        asyncioreactor.install(loop)  # type: ignore[no-untyped-call]
    from twisted.internet import reactor

    return reactor
