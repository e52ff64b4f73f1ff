"""The server's own exceptions: a refused request, and a database that refuses writes.

Handlers raise `Refused` for any client mistake; the connection turns it into an `error`
reply carrying the request id and keeps the connection open, so refusing is never a crash.
`StoreFailed` is the storage failing: the server stops (leekha.server.domain.outbox).
"""

from __future__ import annotations

from leekha.common.errors import CodedError, LeekhaError


class Refused(CodedError):
    """A request that had no effect; `code` is a stable wire error code, `rule` and `facts`
    the finer reason a 1.4 client words itself (leekha.protocol.notices)."""

    @classmethod
    def of(cls, exc: LeekhaError) -> Refused:
        """The refusal of an engine or rules error, its rule and facts kept."""
        return cls(exc.code, exc.message, rule=exc.rule, args=exc.facts)


class StoreFailed(Exception):
    """The database refused a write (disk full, read-only, I/O error, damage): the
    server stops writing and serving (fail-stop), so nobody is told of a move that was
    not stored. The message names the file and quotes SQLite."""

    def __init__(self, path: str, cause: Exception) -> None:
        self.path = path
        self.cause = cause
        super().__init__(f"the database {path} refused a write: {cause}")
