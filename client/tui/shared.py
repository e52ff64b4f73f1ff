"""What every part of the terminal client's state shares: the requests going out, and the
few collaborators each part is handed instead of reaching into one big model.

Each part (the hand's choices, the table's actions, the lobby's, the social boxes, the
replies) keeps its own state and gets a `Shared` at birth: the table as the server told it,
the link (both the core's, client/core, read only), the boxes, the status line, the way
requests go out and the words for seats and cards. None of these is a part's own: they are
the places the parts meet.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from leekha import protocol as P
from leekha.client.core.core import ClientCore
from leekha.client.core.intents import DecisionKey, Intent
from leekha.client.core.link import Link
from leekha.client.core.table import TableState
from leekha.client.i18n import _
from leekha.client.tui.overlays import Overlays
from leekha.client.tui.status import StatusLine
from leekha.client.tui.words import bot_name
from leekha.common import cards as C


class Sender:
    """Where requests go out: the outbox (what the tests read) and the session when the app
    wires one. The core (client/core) builds, numbers and tracks each request; this is only
    its way out."""

    def __init__(self) -> None:
        self.outbox: list[P.Message] = []
        #: Hands a request to the session; False when it could not go (the link is down).
        self.on_send: Callable[[P.Message], bool] | None = None
        #: Request ids until the app attaches its session's to the core (`OnCore.wire`),
        #: whose ids never repeat across links.
        self.new_id: Callable[[], int] = itertools.count(1).__next__

    def hand_off(self, msg: P.Message) -> bool:
        """The request goes out (to the outbox, and to the session when wired)."""
        self.outbox.append(msg)
        return self.on_send(msg) if self.on_send is not None else True

    def take(self) -> list[P.Message]:
        out, self.outbox = self.outbox, []
        return out


class Names:
    """How seats and cards read on this screen (`ascii`: no suit symbols)."""

    def __init__(self, game: TableState, ascii: bool) -> None:
        self.game = game
        self.ascii = ascii

    def player(self, seat: int) -> str:
        name = self.game.player_name(seat)
        if name is None:
            return _("seat {n}").format(n=seat + 1)
        players = self.game.players
        bot = 0 <= seat < len(players) and players[seat].get("is_bot")
        if bot and players[seat].get("name") == name:  # a bot the server named
            return bot_name(name, seat, players[seat].get("strategy"))
        return name

    def card(self, card: int) -> str:
        return C.format_card(card, ascii=self.ascii)

    def cards(self, cards: Iterable[int]) -> str:
        return C.format_cards(C.display_order(cards), ascii=self.ascii)


@dataclass
class Shared:
    """The places the parts meet; `name` is ours, as the server last welcomed us. The
    core's state (the table, the link) is read here, never written: only the core folds."""

    name: str
    clock: Callable[[], float]
    core: ClientCore
    boxes: Overlays
    line: StatusLine
    sender: Sender
    names: Names

    def say(self, text: str, *, error: bool = False, transient: bool = False) -> None:
        """Put `text` on the status line (client/tui/status.py says when it goes)."""
        self.line.say(text, error=error, transient=transient)

    @property
    def game(self) -> TableState:
        """Our table as the server told it (the core's)."""
        return self.core.table

    @property
    def link(self) -> Link:
        return self.core.link

    def request(self, intent: Intent) -> P.Message | None:
        """Ask the server for `intent` (the core builds and tracks the request); None when
        the link is down."""
        return self.core.request(intent)

    def decision(self) -> DecisionKey:
        """The decision a move of ours answers (the one in front of our seat now)."""
        return self.core.decision() or (-1, "", 0, 0)

    @property
    def here(self) -> int | None:
        """The table we are at (None: the lobby)."""
        return self.game.table_id
