"""The terminal client's side of its `ClientCore`: the core it runs on, the way its requests
go out, and the core's state as the screens read it.

`ClientModel` (client/tui/model.py) is one of these and the screen's own state. The core
folds every server message and builds and tracks every request; here it is made, wired to
the app's session (`wire`, through `ClientCore.attach`), and read (`link`, `game`, `chats`,
`chat`; the lobby's tables through the model's `LobbyPick`, the tournaments through the
tournament box), never written: no module outside client/core folds a server message.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from leekha import protocol as P
from leekha.client.core.chat import Chats
from leekha.client.core.core import ClientCore
from leekha.client.core.link import Link
from leekha.client.core.table import TableState
from leekha.client.tui.replies import chat_words
from leekha.client.tui.shared import Sender
from leekha.protocol.connection import Pending


class OnCore:
    """A `ClientCore` with the terminal's words for chat lines (`card` names a card as this
    screen shows it), and the outbox its requests go to."""

    def __init__(self, clock: Callable[[], float], card: Callable[[int], str]) -> None:
        self.sender = Sender()
        #: What this client knows of its server, folded once per message (client/core).
        self.core = ClientCore(
            self.sender.hand_off,
            self.sender.new_id,
            clock=clock,
            chat_line=lambda msg: chat_words(msg, card),
        )
        #: How the player reached the server (an address, a LAN name), for the header: the
        #: screen's own, not the server's word.
        self.server_label = ""

    def wire(
        self,
        send: Callable[[P.Message], bool],
        new_id: Callable[[], int],
        answered: Callable[[P.Message], Pending | None],
    ) -> None:
        """The app's session: requests go to it (through the outbox), numbered by it, and a
        reply counts only when its connection says it answers a request sent on it. The
        core takes them itself (`ClientCore.attach`): its tracker is the one it was made
        with."""
        self.sender.on_send = send
        self.core.attach(self.sender.hand_off, new_id, answered)

    # ---- the core's state, read ----------------------------------------------------------
    @property
    def link(self) -> Link:
        return self.core.link

    @property
    def game(self) -> TableState:
        """Our table as the server told it."""
        return self.core.table

    @property
    def chats(self) -> Chats:
        """Chat lines by where they were said: a table's id, or None for the lobby."""
        return self.core.chats

    @property
    def chat(self) -> deque[tuple[str, str]]:
        """The chat lines of where we are (this table, or the lobby)."""
        return self.chats.at(self.core.table.table_id)

    # ---- requests out --------------------------------------------------------------------
    @property
    def outbox(self) -> list[P.Message]:
        return self.sender.outbox

    def take_outbox(self) -> list[P.Message]:
        return self.sender.take()
