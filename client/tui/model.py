"""The client's state: a pure state machine fed server messages and player intents.

Nothing here knows about terminals or sockets. Server messages go in through `apply`, key
presses arrive as intent methods (`move`, `enter`, `toggle`, ...), and requests to send come
out of `outbox` (and through `on_send` when the app wires one). Keeping it pure lets every
screen and state be tested by feeding messages, without a terminal or a server.

`ClientModel` is one `ClientCore` (client/core) and a small state of the screen's own. The
core folds every server message, once, into the link, the lobby, the table and the chats,
and builds and tracks every request (`core.request(intent)`); nothing here writes to those.
The screen's parts are each a small state of their own: the hand's choices (choices.py),
the table's and the lobby's actions (table_intents.py, lobby_intents.py), the social boxes
(social_intents.py), our clock (alarm.py), the reactions to the core's changes (replies.py,
game_replies.py), and the presentation timeline (timeline.py): what the screen still shows
of the moments just past (a finished trick, a round's summary) is an item there, drawn over
the true state that every key acts on. Its methods are the intents the keys call and the
few facts the screens read, each passed to the part that owns it.

Which overlay is on top is one derived value, `overlay`: the painter draws it, Esc closes
it, the keys and the hints follow it, so the four can never disagree.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.core import link as L
from leekha.client.core.changes import Change
from leekha.client.core.table import SeatStats
from leekha.client.i18n import _
from leekha.client.prefs import Prefs
from leekha.client.tui.alarm import Alarm
from leekha.client.tui.autosetup import AutoSetup
from leekha.client.tui.choices import Choices
from leekha.client.tui.forms import TARGET_MAX, TARGET_MIN
from leekha.client.tui.game_replies import GameReplies
from leekha.client.tui.lobby_intents import LobbyActions
from leekha.client.tui.lobby_pick import LobbyPick
from leekha.client.tui.on_core import OnCore
from leekha.client.tui.overlays import (
    BOT_LEVEL,
    BOT_LEVELS,
    CONNECTING,
    DOUBLE,
    FORM,
    GAME_OVER,
    HELP,
    INVITE,
    LOBBY,
    PASSWORD,
    PHRASES,
    PROFILE,
    SCORES,
    STATS,
    SUMMARY,
    TABLE,
    TOURNAMENTS,
    HelpBox,
    Overlays,
    RoundSummary,
    ScoresBox,
)
from leekha.client.tui.replies import SYSTEM_SENDER, Replies
from leekha.client.tui.shared import Names, Shared
from leekha.client.tui.social_intents import Social
from leekha.client.tui.status import StatusLine
from leekha.client.tui.table_intents import TableActions
from leekha.client.tui.timeline import Timeline
from leekha.client.tui.words import NAME_MAX, level_word, table_name_for

#: What the screens and the tests read here, wherever it is defined.
__all__ = [
    "BOT_LEVEL",
    "BOT_LEVELS",
    "CLIENT_NAME",
    "CONNECTING",
    "DOUBLE",
    "FAILED",
    "FORM",
    "GAME_OVER",
    "HELP",
    "INVITE",
    "LOBBY",
    "NAME_MAX",
    "OFFLINE",
    "ONLINE",
    "PASSWORD",
    "PHRASES",
    "PROFILE",
    "RECONNECTING",
    "SCORES",
    "STATS",
    "SUMMARY",
    "SYSTEM_SENDER",
    "TABLE",
    "TARGET_MAX",
    "TARGET_MIN",
    "TOURNAMENTS",
    "AutoSetup",
    "ClientModel",
    "RoundSummary",
    "SeatStats",
    "level_word",
    "table_name_for",
]

CLIENT_NAME = "leekha-tui"

# Connection states (re-exported for the screens and the tests)
OFFLINE, ONLINE, RECONNECTING, FAILED = L.OFFLINE, L.ONLINE, L.RECONNECTING, L.FAILED


class ClientModel(OnCore):
    """Everything the screens show, and every rule about what a key does."""

    def __init__(
        self,
        name: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        auto: AutoSetup | None = None,
        ascii: bool = False,
        trick_hold: float = 0.0,
        bell: bool = False,
        prefs: Prefs | None = None,
    ) -> None:
        self.clock = clock
        self.auto = auto
        super().__init__(clock, lambda card: self.names.card(card))
        self.boxes = Overlays()
        #: What the table screen still shows of the moments just past (timeline.py).
        self.timeline = Timeline(clock, trick_hold, self.boxes)
        self.chat_open = False
        self.quit_confirm = False
        self.line = StatusLine(self._scope)
        self.names = Names(self.core.table, ascii)
        self.shared = Shared(name, clock, self.core, self.boxes, self.line, self.sender, self.names)
        self.alarm = Alarm(clock, self.line, bell)
        self.choices = Choices(self.shared)
        self.at_table = TableActions(
            self.shared,
            lambda: self._react(self.core.released()),
            prefs if prefs is not None else Prefs(),
            self.timeline,
        )
        self.social = Social(self.shared)
        #: The lobby's tables (the core's) and the row and person chosen (the screen's).
        self.lobby = LobbyPick(self.core.lobby)
        self.in_lobby = LobbyActions(self.shared, self.lobby, self.social.open_profiles)
        choices, table, alarm, timeline = self.choices, self.at_table, self.alarm, self.timeline
        events = GameReplies(
            self.shared, choices=choices, table=table, alarm=alarm, timeline=timeline, auto=auto
        )
        self.replies = Replies(
            self.shared,
            game=events,
            choices=choices,
            table=table,
            lobby=self.in_lobby,
            social=self.social,
            alarm=alarm,
            timeline=timeline,
            auto=auto,
        )

    # ---- where we are ------------------------------------------------------------------
    @property
    def name(self) -> str:
        """Our name: the one we ask for, then the one the server welcomed us with."""
        return self.shared.name

    @name.setter
    def name(self, name: str) -> None:
        self.shared.name = name

    @property
    def ascii(self) -> bool:
        """A display preference the screens read: cards without suit symbols."""
        return self.names.ascii

    @ascii.setter
    def ascii(self, ascii: bool) -> None:
        self.names.ascii = ascii

    @property
    def screen(self) -> str:
        if self.game.table is not None:
            return TABLE
        if self.link.welcomed:
            return LOBBY
        return CONNECTING

    @property
    def overlay(self) -> str | None:
        """The overlay on top: painted last, closed by Esc, owner of the keys and hints."""
        return self._overlay(help_box=True)

    @property
    def under_help(self) -> str | None:
        """The overlay the help box covers, whose keys the help box lists."""
        return self._overlay(help_box=False)

    def _overlay(self, *, help_box: bool) -> str | None:
        return self.boxes.top(
            self.screen,
            waiting=self.game.status_word == "waiting",
            doubling=bool(self.choices.double_offer),
            over=self.game.phase == "game_over",
            trick_held=self.timeline.trick is not None,
            help_box=help_box,
        )

    @property
    def holding(self) -> bool:
        """Whether the screen shows a moment just past (a finished trick, a round's
        summary) for its time: any key goes on."""
        return self.timeline.current is not None

    @property
    def status(self) -> str:
        return self.line.text

    @property
    def status_error(self) -> bool:
        return self.line.error

    def say(self, text: str, *, error: bool = False, transient: bool = False) -> None:
        """Put `text` on the status line (client/tui/status.py says when it goes)."""
        self.line.say(text, error=error, transient=transient)

    def _scope(self) -> tuple[str, int | None, str]:
        return (self.screen, self.game.table_id, self.game.status_word)

    # ---- what the table screen reads -----------------------------------------------------
    @property
    def hand(self) -> list[int]:
        """The own hand in display order (what the cursor indexes)."""
        return self.choices.hand

    @property
    def my_turn(self) -> bool:
        return self.choices.my_turn

    def player_name(self, seat: int) -> str:
        return self.names.player(seat)

    def fmt(self, card: int) -> str:
        return self.names.card(card)

    # ---- the session (client/session.py) and the server's messages ------------------------
    def connection_lost(self, detail: str = "") -> None:
        self._react(self.core.lost(detail))  # its requests go with it
        self.choices.pass_sent = False

    def reconnect_scheduled(self, attempt: int, delay: float) -> None:
        self._react(self.core.lost(_("attempt {n}, next in {s:.0f}s").format(n=attempt, s=delay)))

    def connection_failed(self, detail: str) -> None:
        self.core.failed(detail)
        self.say(detail, error=True)

    def apply(self, msg: P.Message) -> list[Change]:
        """Hand one server message to the core, which folds it at once, and react to what
        it says changed (what the screen still shows of the moments before is the
        timeline's, timeline.py); the changes, for a test to read."""
        changes = self.replies.apply(msg)
        self._forget_stale_status()
        return changes

    def _react(self, changes: list[Change]) -> None:
        for change in changes:
            self.replies.react(change)
        self._forget_stale_status()

    def _forget_stale_status(self) -> None:
        """The state a status line described has changed: the line goes with it."""
        self.line.forget_stale()
        if self.at_table.leave_confirm and self.screen != TABLE:
            self.at_table.leave_confirm = False

    def key_release(self) -> bool:
        """A key while the screen shows a moment just past: it goes on to the next one (or
        to the true state); True when the key then acts on the true state (timeline.py)."""
        return self.timeline.key()

    def quick_seconds_left(self) -> int | None:
        """Seconds until the bots come to the waiting table quick play opened for us."""
        until = self.in_lobby.quick_until
        if until is None or self.game.view is not None or self.game.table is None:
            return None
        return max(0, math.ceil(until - self.clock()))

    def tick(self) -> bool:
        """End the timeline's items whose time is up, and warn once when a timer of ours
        is about to run out; True when the screen changed."""
        changed = self.alarm.warn(self.choices.my_turn) or self.quick_seconds_left() is not None
        return bool(self.timeline.due()) or changed

    # ---- keys that mean something everywhere ----------------------------------------------
    def escape(self) -> None:
        """Esc closes the overlay on top; with none, it backs out of the current choice."""
        top = self.overlay
        if self.quit_confirm or self.at_table.leave_confirm:
            self.quit_confirm = self.at_table.leave_confirm = False
            self.say("")
        elif top == STATS:
            self.in_lobby.close_stats()
        elif self.boxes.close(top):
            pass
        elif self.at_table.show_last:
            self.at_table.show_last = False
        else:
            self.choices.escape()

    def enter(self) -> None:
        """Enter: pick, then confirm. The first press lifts or stages, the second sends."""
        if self.overlay == SUMMARY:
            self.boxes.shut(RoundSummary)
            return
        if self.game.autopiloted:
            self.at_table.take_back()
            return
        v = self.game.view
        if v is None or not self.game.seated:
            return
        if v.phase == "pass":
            self.choices.enter_pass()
        elif v.phase == "play":
            self.choices.enter_play()
        elif v.phase == "game_over":
            self.at_table.rematch()

    def choose(self, index: int) -> None:
        """A letter key: jump to that card; in the play phase lift it (again: play it)."""
        if not 0 <= index < len(self.choices.hand):
            return
        if self.game.autopiloted:
            self.at_table.take_back()
            return
        self.choices.cursor = index
        if self.game.phase == "pass":
            self.choices.toggle()
        elif self.game.phase == "play":
            self.enter()

    def ask_quit(self) -> bool:
        """q: first press asks, second press quits. Returns True when quitting."""
        if self.quit_confirm:
            self.quit_confirm = False
            return True
        self.quit_confirm = True
        playing = self.game.seated and self.game.status_word == "playing"
        if playing and self.auto is not None:
            if self.auto.kept:
                self.say(_("press q again to quit; leekha play again resumes this game"))
            else:
                self.say(_("press q again to quit; this game is not kept (--no-save)"))
        elif playing:
            self.say(_("press q again to quit; your seat stays yours: join again to go on"))
        else:
            self.say(_("press q again to quit, Esc to stay"))
        return False

    def send_chat(self, text: str) -> None:
        text = text.strip()
        if text:
            self.shared.request(I.Chat(text[:300]))
        self.chat_open = False

    def toggle_help(self) -> None:
        self.boxes.toggle(HelpBox())

    def toggle_scores(self) -> None:
        self.boxes.toggle(ScoresBox())
