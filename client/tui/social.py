"""The terminal client's ways of reaching other people: the invitation box (one line a
friend pastes to land at this table), quick phrases (their words in the reader's
language, the picker) and what they paint.

Kept apart from the table's game state: none of it changes a game, and each piece is a
small state with its own painter, opened by one key and closed by Esc like every overlay
(`ClientModel.overlay` names it).
"""

from __future__ import annotations

from dataclasses import dataclass

from leekha.client.i18n import N_, _
from leekha.client.tui.canvas import Canvas
from leekha.protocol.invite import Invite
from leekha.protocol.people import PHRASES

#: Width of the invitation box: the line is broken into pieces this wide less the frame.
INVITE_WIDTH = 76


@dataclass
class InviteBox:
    """The invitation for the table on screen; `carry` says whether the line gives the
    password (the host decides, with one key)."""

    invite: Invite
    password: str | None = None
    carry: bool = False

    @property
    def shown(self) -> Invite:
        return Invite(
            self.invite.host,
            self.invite.port,
            self.invite.table_id,
            self.password if self.carry else None,
            self.invite.tls,
            self.invite.fingerprint,
        )

    def toggle(self) -> None:
        if self.password is not None:
            self.carry = not self.carry


def paint_invite(box: InviteBox, cv: Canvas) -> None:
    line = box.shown.line()
    inner = INVITE_WIDTH - 4
    pieces = [line[i : i + inner] for i in range(0, len(line), inner)]
    rows = len(pieces) + 5
    x, y = cv.box(INVITE_WIDTH, rows, _("invite a friend"))
    cv.put(x, y, _("Send this line; pasted in a terminal it lands at this table:"), "class:box")
    for i, piece in enumerate(pieces):
        cv.put(x, y + 1 + i, piece, "class:box class:lobby.head")
    row = y + 1 + len(pieces)
    if box.password is None:
        note = ""
    elif box.carry:
        note = _("p: leave the password out (it is in the line)")
    else:
        note = _("p: put the password in the line")
    cv.put(x, row, note, "class:box class:muted")
    cv.put(x, row + 1, _("It is also printed when you quit. Esc to close"), "class:box class:muted")


#: Each quick phrase's words (the wire carries only the code: protocol.people.PHRASES).
PHRASE_WORDS = {
    "hello": N_("hello!"),
    "good_luck": N_("good luck!"),
    "well_played": N_("well played!"),
    "thanks": N_("thanks!"),
    "sorry": N_("sorry!"),
    "hurry_up": N_("hurry up!"),
    "oops": N_("oops!"),
    "good_game": N_("good game!"),
}
#: Seconds a phrase stays beside its sender's seat.
BUBBLE_S = 6.0


def phrase_words(code: str) -> str:
    """A phrase in the reader's language; a code this client does not know, as it is."""
    words = PHRASE_WORDS.get(code)
    return _(words) if words is not None else code


def paint_phrases(cv: Canvas) -> None:
    x, y = cv.box(30, len(PHRASES) + 3, _("quick phrases"))
    for i, code in enumerate(PHRASES):
        cv.put(x, y + i, f"{i + 1}  {phrase_words(code)}", "class:box")
    cv.put(x, y + len(PHRASES), _("1-{n} to say it, Esc to close").format(n=len(PHRASES)),
           "class:box class:muted")  # fmt: skip
