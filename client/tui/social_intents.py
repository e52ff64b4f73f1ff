"""What the player does towards other people: open profiles, say a quick phrase, hand out
the table's invitation; and what of it stays on screen (a phrase beside its seat for a few
seconds, invitation lines to print after quitting).

None of it changes a game; client/tui/social.py has the boxes and their painters.
"""

from __future__ import annotations

from collections.abc import Callable

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.i18n import _
from leekha.client.tui.overlays import PhrasePicker
from leekha.client.tui.shared import Shared
from leekha.client.tui.social import BUBBLE_S, InviteBox, ProfileBox, phrase_words
from leekha.protocol import version as V
from leekha.protocol.invite import Invite
from leekha.protocol.message import to_dict


class Social:
    def __init__(self, shared: Shared) -> None:
        self.s = shared
        #: The last quick phrase of each seat and until when it shows beside the seat.
        self.said: dict[int, tuple[str, float]] = {}
        #: The invitation to a table by its id (the app knows the address and TLS).
        self.invite_for: Callable[[int], Invite | None] = lambda _tid: None
        #: The server's table page (the welcome's `web`), for the browser link.
        self.page_for: Callable[[], str | None] = lambda: None
        self.table_password: str | None = None  # what we sat down with, for the invitation
        #: Lines to print once the screen is gone (invitations shown), so they can be copied.
        self.keep: list[str] = []

    # ---- profiles ------------------------------------------------------------------------
    def open_profiles(self, names: list[str] | None = None) -> None:
        """Profiles of the people at this table (P), or of one name (Enter in statistics)."""
        if not self.s.link.speaks(V.PROFILES):
            self.s.say(_("this server keeps no profiles (protocol 1.4 needed)"), error=True)
            return
        if names is None:
            names = [str(p["name"]) for p in self.s.game.players if p["name"] and not p["is_bot"]]
        if not names:
            self.s.say(_("nobody here has a profile: bots have none"), error=True)
            return
        self.s.boxes.open(ProfileBox(names))
        if len(names) == 1:
            self.profile_show()

    def profile_move(self, step: int) -> None:
        if self.s.boxes.profile_box is not None:
            self.s.boxes.profile_box.move(step)

    def profile_show(self) -> None:
        box = self.s.boxes.profile_box
        if box is not None and box.asked is None and box.chosen is not None:
            box.asked = box.chosen
            self.s.request(I.GetProfile(box.chosen))

    def profile(self, msg: P.Profile) -> None:
        """The server's answer: shown when it is the profile the box still asks for."""
        box = self.s.boxes.profile_box
        if box and box.asked == msg.name:
            box.profile = to_dict(msg)

    # ---- quick phrases ---------------------------------------------------------------------
    def open_phrases(self) -> None:
        if not self.s.link.speaks(V.QUICK_PHRASES):
            self.s.say(_("this server has no quick phrases (protocol 1.4 needed)"), error=True)
            return
        self.s.boxes.open(PhrasePicker())

    def say_phrase(self, index: int) -> None:
        """Picker: say the phrase at `index` (0-based) and close the picker."""
        if self.s.boxes.phrase_picker and 0 <= index < len(P.PHRASES):
            self.s.boxes.shut(PhrasePicker)
            self.s.request(I.Phrase(P.PHRASES[index]))

    def bubble(self, seat: int) -> str | None:
        """The quick phrase showing beside `seat` now, in the reader's language."""
        said = self.said.get(seat)
        if said is None or self.s.clock() >= said[1]:
            return None
        return phrase_words(said[0])

    def phrase_said(self, msg: P.PhraseSaid) -> None:
        """Someone at this table said a phrase (the core keeps it in the chat): beside
        their seat for a while."""
        if msg.seat is not None:
            self.said[msg.seat] = (msg.code, self.s.clock() + BUBBLE_S)

    # ---- the invitation -----------------------------------------------------------------------
    def open_invite(self) -> None:
        """The invitation line for this table, in a box; kept to print after quitting."""
        here = self.s.here
        invite = self.invite_for(here) if here is not None else None
        if invite is None:
            self.s.say(_("no invitation: the address of this server is not known"), error=True)
            return
        self.s.boxes.open(InviteBox(invite, self.table_password, page=self.page_for()))
        self._keep_invite()

    def invite_toggle_password(self) -> None:
        if self.s.boxes.invite_box is not None:
            self.s.boxes.invite_box.toggle()
            self._keep_invite()

    def _keep_invite(self) -> None:
        assert self.s.boxes.invite_box is not None
        box = self.s.boxes.invite_box
        for line in (box.shown.line(), box.web):
            if line is not None and line not in self.keep:
                self.keep.append(line)

    def left(self) -> None:
        self.table_password = None
        self.said.clear()
