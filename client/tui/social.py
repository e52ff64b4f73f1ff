"""The terminal client's ways of reaching other people: the invitation box (one line a
friend pastes to land at this table), quick phrases (their words in the reader's
language, the picker), players' profiles, and what they paint.

Kept apart from the table's game state: none of it changes a game, and each piece is a
small state with its own painter, opened by one key and closed by Esc like every overlay
(`ClientModel.overlay` names it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from prompt_toolkit.utils import get_cwidth

from leekha.client import rtl
from leekha.client.i18n import N_, _, ngettext
from leekha.client.tui.canvas import Canvas, fit, fit_all, wrap
from leekha.client.tui.words import bot_name
from leekha.protocol.invite import Invite, web_link
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
    #: The server's table page (the welcome's `web`); None: it serves none.
    page: str | None = None

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

    @property
    def web(self) -> str | None:
        """The same invitation for a browser, or None without a page."""
        if self.page is None:
            return None
        return web_link(self.page, self.invite.table_id, self.password if self.carry else None)

    def toggle(self) -> None:
        if self.password is not None:
            self.carry = not self.carry


def paint_invite(box: InviteBox, cv: Canvas) -> None:
    line = box.shown.line()
    width = min(INVITE_WIDTH, cv.width)
    inner = width - 4
    # The line is the point of the box: every character of it, broken at the box's edge.
    head = "class:box class:lobby.head"
    rows = [(line[i : i + inner], head) for i in range(0, len(line), inner)]
    link = box.web
    if link is not None:  # the same invitation for a guest with only a browser
        rows += [(text, "class:box") for text in wrap(_("or open in a browser:"), inner)]
        rows += [(link[i : i + inner], head) for i in range(0, len(link), inner)]
    if box.password is None:
        note = ""
    elif box.carry:
        note = _("p: leave the password out (it is in the line)")
    else:
        note = _("p: put the password in the line")
    ask = wrap(_("Send this line; pasted in a terminal it lands at this table:"), inner)
    foot = [*(wrap(note, inner) if note else [""]),
            *wrap(_("It is also printed when you quit. Esc to close"), inner)]  # fmt: skip
    x, y = cv.box(width, len(ask) + len(rows) + len(foot) + 3, _("invite a friend"))
    for i, text in enumerate(ask):
        cv.line(x, y + i, inner, text, "class:box")
    y += len(ask)
    for i, (piece, style) in enumerate(rows):
        cv.put(x, y + i, piece, style)
    for i, text in enumerate(foot, start=y + len(rows)):
        cv.line(x, i, inner, text, "class:box class:muted")


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
    rows = [f"{i + 1}  {phrase_words(code)}" for i, code in enumerate(PHRASES)]
    footer = _("1-{n} to say it, Esc to close").format(n=len(PHRASES))
    inner = max(26, *(get_cwidth(r) for r in [*rows, footer]))  # the box fits its words
    x, y = cv.box(inner + 4, len(PHRASES) + 3, _("quick phrases"))
    for i, row in enumerate(rows):
        cv.line(x, y + i, inner, row, "class:box")
    cv.line(x, y + len(PHRASES), inner, footer, "class:box class:muted")


@dataclass
class ProfileBox:
    """Whose profile to show: the names to choose from, and the server's answer for the
    one chosen (None while asked, or while the list is shown)."""

    names: list[str]
    cursor: int = 0
    asked: str | None = None
    profile: dict[str, Any] | None = None

    def move(self, step: int) -> None:
        if self.asked is None and self.names:
            self.cursor = max(0, min(self.cursor + step, len(self.names) - 1))

    @property
    def chosen(self) -> str | None:
        return self.names[self.cursor] if self.names else None

    def back(self) -> bool:
        """Esc: from a profile back to the list (or close, with one name only); True = close."""
        if self.asked is not None and len(self.names) > 1:
            self.asked = self.profile = None
            return False
        return True


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def paint_profile(box: ProfileBox, cv: Canvas) -> None:
    width = min(cv.width, 70)
    inner = width - 4
    if box.asked is None:
        x, y = cv.box(40, len(box.names) + 3, _("whose profile?"))
        for i, name in enumerate(box.names):
            style = "class:box class:cursorrow" if i == box.cursor else "class:box"
            cv.put(x, y + i, fit(name, 36), style)
        cv.put(x, y + len(box.names), _("Enter to show, Esc to close"), "class:box class:muted")
        return
    p = box.profile
    recent = p["recent"] if p is not None else []
    x, y = cv.box(width, len(recent) + 7, _("player: {name}").format(name=box.asked))
    if p is None:
        cv.put(x, y, _("asking the server…"), "class:box class:muted")
        return
    s = p["stats"]
    if s is None:
        cv.put(x, y, _("no finished games on this server"), "class:box")
    else:
        mu, sigma = s.get("rating"), s.get("rating_sigma")
        rating = f"{mu:.1f} ±{3 * sigma:.1f}" if mu is not None and sigma else _("guest")
        cv.put(x, y, _("rating {rating}").format(rating=rating), "class:box")
        line = ngettext(
            "{games} game, {wins} won, {avg:.1f} points a round",
            "{games} games, {wins} won, {avg:.1f} points a round",
            s["games"],
        ).format(games=s["games"], wins=s["wins"], avg=s["avg_points_per_round"])
        cv.put(x, y + 1, fit(line, inner), "class:box")
    cv.put(x, y + 2, _("latest games:") if recent else "", "class:box class:muted")
    for i, g in enumerate(recent):
        mark = "✓" if g["won"] else "·"
        pts = _("{n} pts").format(n=g["points"])
        head = f"{mark} {_when(g['finished'])} {fit(str(g['table']), 14):<14} {pts:>7}  "
        others = [bot_name(n, j) for j, n in enumerate(g["players"]) if j != g["seat"] and n]
        room = inner - get_cwidth(head) - 2 * max(0, len(others) - 1)
        names = rtl.join_isolated(fit_all(others, room), ", ")
        cv.put(x, y + 3 + i, fit(head + names, inner), "class:box")
    cv.put(x, y + 3 + len(recent), _("✓ won · Esc back"), "class:box class:muted")
