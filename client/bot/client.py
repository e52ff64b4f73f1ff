"""One headless bot seat: a resumable protocol session driving a strategy.

`BotClient` finds (or creates) its table by name, sits, answers every decision with its
strategy, and never stalls. Its jobs live in one module each: the session, requests and
refusals (`client.bot.seat`), finding the table (`client.bot.lobby`), and playing
(`client.bot.moves`).
"""

from __future__ import annotations

from leekha.client.bot.lobby import LobbySteps
from leekha.client.bot.moves import MoveSteps
from leekha.client.bot.seat import CLIENT, BotOptions, EntryRefused, Note
from leekha.client.session import ConnectFailed

__all__ = ["CLIENT", "BotClient", "BotOptions", "ConnectFailed", "EntryRefused", "Note"]


class BotClient(LobbySteps, MoveSteps):
    """One seat. `done` fires with an exit code (0 = finished its games), or fails with
    ConnectFailed when the very first connection cannot be made; `seated` fires once the
    bot first sits at its table."""
