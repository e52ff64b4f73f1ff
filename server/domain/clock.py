"""Structural types for the injected clock.

Twisted's zope interfaces confuse mypy (no zope plugin here), so the server types its
clock with these Protocols; a reactor and `twisted.internet.task.Clock` both satisfy them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    def active(self) -> bool: ...

    def cancel(self) -> None: ...


class Clock(Protocol):
    def seconds(self) -> float: ...

    def callLater(self, delay: float, callable: Callable[..., object], *args: object) -> Timer: ...
