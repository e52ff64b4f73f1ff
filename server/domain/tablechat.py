"""A table's chat: people's lines, their quick phrases and the server's own notices, kept
for later comers.

Every line is stored (the last CHAT_REPLAY of them survive a restart) and heard by every
member; whoever joins, watches or comes back is given the kept lines again. A quick phrase
is kept as a line too (its row: the speaker, the phrase's code and the speaker's seat), so
it comes back with the typed lines after a rejoin or a restart. The server's
notices carry a code and facts (leekha.protocol.notices) with English text for older
clients, and the line a timer played for someone goes to that seat alone.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from leekha.common import cards as C
from leekha.common.actions import Action, Pass
from leekha.common.errors import Facts
from leekha.protocol import catalogue as M
from leekha.protocol import people
from leekha.protocol.message import Message
from leekha.protocol.notices import NOTICES, english
from leekha.server.domain.persistence import Store

#: The `from` of the server's own lines in a table's chat; no player may take this name.
SYSTEM_SENDER = "*"
#: Table chat lines replayed to whoever joins or resumes.
CHAT_REPLAY = 50


class TableChat:
    """The chat of table `table_id`: `members` says who hears it, `send` delivers."""

    def __init__(
        self,
        table_id: int,
        store: Store,
        members: Callable[[], Iterable[tuple[str, int | None]]],
        send: Callable[[str, Message], None],
    ) -> None:
        self.table_id = table_id
        self.store = store
        self.members = members
        self.send = send
        self.log: deque[M.ChatMessage | people.PhraseSaid] = deque(maxlen=CHAT_REPLAY)

    def restore(self) -> None:
        """The kept lines of a table restored after a restart."""
        for row in self.store.load_chat(self.table_id):
            if row.code is not None and row.sender != SYSTEM_SENDER:  # a quick phrase
                seat = (row.args or {}).get("seat")
                if row.code in people.PHRASES:
                    self.log.append(
                        people.PhraseSaid(
                            sender=row.sender,
                            code=row.code,
                            seat=seat if isinstance(seat, int) else None,
                            table_id=self.table_id,
                        )
                    )
                continue
            line = M.ChatMessage(sender=row.sender, text=row.text, table_id=self.table_id)
            if row.code is not None:  # a notice: its code and facts, as it was said
                line = M.ChatMessage(
                    sender=row.sender,
                    text=row.text,
                    table_id=self.table_id,
                    code=row.code,
                    args=row.args or {},
                )
            self.log.append(line)

    def say(self, sender: str, text: str) -> None:
        """A line in the table's chat: everyone here hears it, and later comers too."""
        self._keep(M.ChatMessage(sender=sender, text=text, table_id=self.table_id))

    def notice(self, code: str, args: Facts) -> None:
        """One of the server's own lines: its code and facts, `text` the English."""
        text = english(NOTICES[code], args)
        self._keep(
            M.ChatMessage(
                sender=SYSTEM_SENDER, text=text, table_id=self.table_id, code=code, args=args
            )
        )

    def phrase(self, sender: str, code: str, seat: int | None) -> None:
        """A quick phrase (`phrase_said`): heard as a line is, and kept as one."""
        said = people.PhraseSaid(sender=sender, code=code, seat=seat, table_id=self.table_id)
        self.log.append(said)
        facts: Facts = {"seat": seat}
        self.store.add_chat(self.table_id, sender, code, CHAT_REPLAY, code=code, args=facts)
        for token, _ in self.members():  # a session older than 1.4 is not sent it
            self.send(token, said)

    def _keep(self, msg: M.ChatMessage) -> None:
        self.log.append(msg)
        self.store.add_chat(
            self.table_id, msg.sender, msg.text, CHAT_REPLAY, code=msg.code, args=msg.args
        )
        for token, _ in self.members():
            self.send(token, msg)

    def replay(self, token: str) -> None:
        """The kept lines, for someone who just joined, watched or came back."""
        for msg in self.log:
            self.send(token, msg)

    def timeout_line(self, action: Action) -> M.ChatMessage:
        """What a timer played for a seat: for that seat alone, and not kept."""
        args: Facts
        if isinstance(action, Pass):
            cards = sorted(action.cards)
            code, args = "timeout_passed", {"cards": cards}
            text = english(NOTICES[code], {"cards": C.format_cards(cards)})
        else:
            code, args = "timeout_played", {"card": action.card}
            text = english(NOTICES[code], {"card": C.format_card(action.card)})
        return M.ChatMessage(
            sender=SYSTEM_SENDER, text=text, table_id=self.table_id, code=code, args=args
        )
