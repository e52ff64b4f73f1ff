"""Installing Twisted's asyncio reactor, the one event loop every leekha command runs on.

It must happen before anything imports `twisted.internet.reactor`, so commands call this
first and import their Twisted-using modules afterwards. The installer lives with the
command line's event loop (`leekha.client.eventloop.install_reactor`), which every command
starts from; the server's commands and benches take it from here.
"""

from __future__ import annotations

from leekha.client.eventloop import install_reactor as install_asyncio_reactor

__all__ = ["install_asyncio_reactor"]
