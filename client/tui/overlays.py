"""Which box is over the screen: the one derived value the painter draws last, Esc closes,
and the keys and the hints follow, so the four can never disagree.

`Overlays` holds what each box shows while it is open (None or False: closed); `top` says
which open one is on top, given the screen and the table's state; `close` is Esc on it.
Only the terminal client has boxes: nothing here is a fact of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from leekha.client.tui.forms import CreateForm, PasswordPrompt
from leekha.client.tui.social import InviteBox, ProfileBox
from leekha.client.tui.tournament import TournamentScreen

# Screens
CONNECTING = "connecting"
LOBBY = "lobby"
TABLE = "table"

# Overlays, the one on top first (see Overlays.top)
HELP = "help"
STATS = "stats"
TOURNAMENTS = "tournaments"
PASSWORD = "password"
FORM = "form"
SCORES = "scores"
SUMMARY = "summary"
DOUBLE = "double"
GAME_OVER = "game_over"
BOT_LEVEL = "bot_level"
INVITE = "invite"
PHRASES = "phrases"
PROFILE = "profile"

#: The levels a host picks for a bot seat: strategy names, as `leekha play --level`.
BOT_LEVELS = ("easy", "medium", "hard")


@dataclass
class RoundSummary:
    """One round's result as the summary box shows it (the replay builds these too)."""

    round: int
    round_points: list[int]
    totals: list[int]
    taken: list[list[int]]
    doubled: list[int] = field(default_factory=list)  # cards that scored double
    note: str = ""  # why the round or the game went as it did (golden goal, a tie)
    tie: bool = False  # the note says a tie made play go on


@dataclass
class Overlays:
    """Every box's contents while it is open."""

    show_help: bool = False
    phrase_picker: bool = False
    profile_box: ProfileBox | None = None
    stats_open: bool = False
    stats: list[dict[str, Any]] | None = None  # None = asked, no answer yet
    stats_cursor: int = 0  # the row of the statistics Enter opens
    tournaments: TournamentScreen | None = None
    password_prompt: PasswordPrompt | None = None
    form: CreateForm | None = None
    invite_box: InviteBox | None = None
    bot_level: int | None = None  # the level picked in the open bot picker
    show_scores: bool = False
    summary: RoundSummary | None = None

    def top(
        self,
        screen: str,
        *,
        waiting: bool,
        doubling: bool,
        over: bool,
        trick_held: bool = False,
        help_box: bool = True,
    ) -> str | None:
        """The box on top on `screen`; at a table, `waiting` (not started), `doubling` (a
        Leekha card may be revealed) and `over` (the game has ended) open theirs. While
        `trick_held` (a finished trick is still on screen, client/tui/timeline.py), the
        boxes of what came after it (the round's summary, the doubling prompt, the game's
        end) wait behind it. Without `help_box`, the box the help box covers (the one
        whose keys it lists)."""
        if self.show_help and help_box:
            return HELP
        if self.phrase_picker and screen != CONNECTING:
            return PHRASES
        if self.profile_box is not None and screen != CONNECTING:
            return PROFILE
        if screen == LOBBY:
            if self.stats_open:
                return STATS
            if self.tournaments is not None:
                return TOURNAMENTS
            if self.password_prompt is not None:
                return PASSWORD
            if self.form is not None:
                return FORM
        elif screen == TABLE:
            if self.invite_box is not None:
                return INVITE
            if self.bot_level is not None and waiting:
                return BOT_LEVEL
            if self.show_scores:
                return SCORES
            if trick_held:
                return None
            if self.summary is not None:
                return SUMMARY
            if doubling:
                return DOUBLE
            if over:
                return GAME_OVER
        return None

    def close(self, top: str | None) -> bool:
        """Esc on the box `top`: it closes, or goes back a step inside it. False when
        `top` is no box Esc closes here (the statistics close with their request, the
        doubling prompt and the game's end wait for an answer)."""
        if top == HELP:
            self.show_help = False
        elif top == TOURNAMENTS:
            if self.tournaments is None or self.tournaments.back():
                self.tournaments = None
        elif top == PASSWORD:
            self.password_prompt = None
        elif top == FORM:
            self.form = None
        elif top == SCORES:
            self.show_scores = False
        elif top == BOT_LEVEL:
            self.bot_level = None
        elif top == INVITE:
            self.invite_box = None
        elif top == PHRASES:
            self.phrase_picker = False
        elif top == PROFILE:
            if self.profile_box is None or self.profile_box.back():
                self.profile_box = None
        elif top == SUMMARY:
            self.summary = None
        else:
            return False
        return True

    def left_table(self) -> None:
        """The table's boxes go with the table."""
        self.summary = None
        self.show_scores = False
        self.bot_level = None
        self.invite_box = None
        self.profile_box = None
