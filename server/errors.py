"""The one exception a request handler raises to refuse a client's request.

Handlers raise `Refused` for any client mistake; the connection turns it into an `error`
reply carrying the request id and keeps the connection open, so refusing is never a crash.
"""

from __future__ import annotations


class Refused(Exception):
    """A request that had no effect; `code` is a stable wire error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
