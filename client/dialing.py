"""Where a client session goes, how often it dials again, and its failures in words.

Shared by every role's session (client/session.py) and the commands that print why one
could not start (`dial_error`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from twisted.application.internet import backoffPolicy
from twisted.internet import defer, error
from twisted.python.failure import Failure

from leekha.client.i18n import _
from leekha.client.tokens import server_key
from leekha.client.trust import TrustError
from leekha.protocol.reactor import is_tls_error

__all__ = [
    "ConnectFailed",
    "Fatal",
    "RetryPolicy",
    "Target",
    "dial_error",
    "plain_reason",
    "retry_policy",
]

RetryPolicy = Callable[[int], float]


def retry_policy(
    first: float = 0.25, cap: float = 8.0, rng: random.Random | None = None
) -> RetryPolicy:
    """Reconnect delays doubling from `first` to `cap`, each up to a fifth of `first` longer
    so that a restarted server is not met by every client in the same instant."""
    spread = rng.random if rng is not None else random.random
    return backoffPolicy(
        initialDelay=first / 2, maxDelay=cap, factor=2.0, jitter=lambda: spread() * first / 5
    )


@dataclass(frozen=True)
class Target:
    """Where a session goes."""

    host: str
    port: int
    tls: bool = False
    #: The certificate fingerprint an invitation carried: the only one accepted.
    pin: str | None = None

    @property
    def server(self) -> str:
        return server_key(self.host, self.port)

    def __str__(self) -> str:
        return self.server


class ConnectFailed(Exception):
    """The session cannot start or go on; the message is meant for a person."""


def plain_reason(reason: BaseException | Failure | None) -> str:
    """A connection failure in words a player or an operator understands."""
    exc = reason.value if isinstance(reason, Failure) else reason
    if isinstance(exc, error.ConnectionRefusedError):
        return _("connection refused (is a Leekha server running there?)")
    if isinstance(exc, error.DNSLookupError):
        return _("unknown host name")
    if isinstance(exc, error.TimeoutError | defer.TimeoutError):
        return _("no answer (timed out)")
    if is_tls_error(exc):
        return _("the TLS handshake failed (is the server serving TLS? try without --tls)")
    if isinstance(exc, error.ConnectionDone):
        return _("the server closed the connection")
    if isinstance(exc, error.ConnectionLost):
        return _("the connection was lost")
    if isinstance(exc, error.NoRouteError):
        return _("no route to that host")
    text = str(exc).strip() if exc is not None else ""
    return text or _("the connection failed")


class Fatal(ConnectFailed):
    """A refusal that retrying cannot fix (refused hello, changed certificate)."""


def dial_error(exc: BaseException) -> str:
    """The one line a command prints when a session could not start."""
    return str(exc) if isinstance(exc, ConnectFailed | TrustError) else plain_reason(exc)
