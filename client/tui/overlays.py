"""Which box is over the screen: a stack of the boxes that are open, the last on top, so
the painter draws it last, Esc closes it, and the keys and the hints follow it; the four
can never disagree.

A box is an object of its own kind (the new-table form, a profile, the round's summary...);
the part that owns it opens it (`open`: on top, or in its place with new contents when it
is open already) and closes it (`shut`); everyone else reads it (`get`, or the named
properties). `top` says which open box is on top on the screen we are on: a lobby box is
not shown at a table, nor a table's in the lobby. Under every open box, the table's own
state shows two boxes nobody opens: the doubling prompt and the game's end. Only the
terminal client has boxes: nothing here is a fact of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from leekha.client.tui.forms import CreateForm, PasswordPrompt
from leekha.client.tui.social import InviteBox, ProfileBox
from leekha.client.tui.tournament import TournamentScreen

# Screens
CONNECTING = "connecting"
LOBBY = "lobby"
TABLE = "table"

# Overlays
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
class HelpBox:
    """The keys of the box under it, or of the screen."""


@dataclass
class ScoresBox:
    """The score sheet of the game so far."""


@dataclass
class PhrasePicker:
    """The quick phrases to say at the table or in the lobby."""


@dataclass
class StatsBox:
    """The players' statistics, asked of the server; Enter opens the row's profile."""

    rows: list[dict[str, Any]] | None = None  # None = asked, no answer yet
    cursor: int = 0

    def move(self, step: int) -> None:
        self.cursor = max(0, min(self.cursor + step, len(self.rows or []) - 1))


@dataclass
class BotLevelBox:
    """The host's choice of the level of the bot to add (an index into `BOT_LEVELS`)."""

    level: int

    def move(self, step: int) -> None:
        self.level = min(max(self.level + step, 0), len(BOT_LEVELS) - 1)


Box = (
    HelpBox
    | PhrasePicker
    | ProfileBox
    | StatsBox
    | TournamentScreen
    | PasswordPrompt
    | CreateForm
    | InviteBox
    | BotLevelBox
    | ScoresBox
    | RoundSummary
)

#: Each kind of box: its name, and the screen it shows on (None: any but the connecting one).
_KINDS: dict[type, tuple[str, str | None]] = {
    HelpBox: (HELP, None),
    PhrasePicker: (PHRASES, None),
    ProfileBox: (PROFILE, None),
    StatsBox: (STATS, LOBBY),
    TournamentScreen: (TOURNAMENTS, LOBBY),
    PasswordPrompt: (PASSWORD, LOBBY),
    CreateForm: (FORM, LOBBY),
    InviteBox: (INVITE, TABLE),
    BotLevelBox: (BOT_LEVEL, TABLE),
    ScoresBox: (SCORES, TABLE),
    RoundSummary: (SUMMARY, TABLE),
}

#: The boxes that belong to a table and go with it.
_TABLE_BOXES = (RoundSummary, ScoresBox, BotLevelBox, InviteBox, ProfileBox)

B = TypeVar("B")


class Overlays:
    """The open boxes, the last opened on top, each with what it shows."""

    def __init__(self) -> None:
        self._stack: list[Box] = []

    # ---- the parts that own a box open and close it ----------------------------------------
    def open(self, box: Box) -> None:
        """`box` on top; one of its kind already open keeps its place with these contents."""
        for i, old in enumerate(self._stack):
            if type(old) is type(box):
                self._stack[i] = box
                return
        self._stack.append(box)

    def shut(self, kind: type[Box]) -> None:
        """Close the box of `kind`, if one is open."""
        self._stack = [box for box in self._stack if not isinstance(box, kind)]

    def shut_box(self, box: Box) -> None:
        """Close this very box if it is still open (not one that replaced it since)."""
        self._stack = [open_ for open_ in self._stack if open_ is not box]

    def toggle(self, box: Box) -> None:
        """Open `box`, or close the one of its kind that is open."""
        if self.get(type(box)) is None:
            self.open(box)
        else:
            self.shut(type(box))

    def left_table(self) -> None:
        """The table's boxes go with the table."""
        self._stack = [box for box in self._stack if not isinstance(box, _TABLE_BOXES)]

    # ---- everyone reads them -------------------------------------------------------------
    def get(self, kind: type[B]) -> B | None:
        for box in self._stack:
            if isinstance(box, kind):
                return box
        return None

    @property
    def show_help(self) -> bool:
        return self.get(HelpBox) is not None

    @property
    def show_scores(self) -> bool:
        return self.get(ScoresBox) is not None

    @property
    def phrase_picker(self) -> bool:
        return self.get(PhrasePicker) is not None

    @property
    def stats_open(self) -> bool:
        return self.get(StatsBox) is not None

    @property
    def stats(self) -> list[dict[str, Any]] | None:
        box = self.get(StatsBox)
        return None if box is None else box.rows

    @property
    def stats_cursor(self) -> int:
        box = self.get(StatsBox)
        return 0 if box is None else box.cursor

    @property
    def bot_level(self) -> int | None:
        box = self.get(BotLevelBox)
        return None if box is None else box.level

    @property
    def profile_box(self) -> ProfileBox | None:
        return self.get(ProfileBox)

    @property
    def tournaments(self) -> TournamentScreen | None:
        return self.get(TournamentScreen)

    @property
    def password_prompt(self) -> PasswordPrompt | None:
        return self.get(PasswordPrompt)

    @property
    def form(self) -> CreateForm | None:
        return self.get(CreateForm)

    @property
    def invite_box(self) -> InviteBox | None:
        return self.get(InviteBox)

    @property
    def summary(self) -> RoundSummary | None:
        return self.get(RoundSummary)

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
        """The box on top on `screen`: the last opened of those shown there. At a table,
        the bot picker shows only while `waiting` (not started); under the open boxes,
        `doubling` (a Leekha card may be revealed) and `over` (the game has ended) show
        theirs. While `trick_held` (a finished trick is still on screen,
        client/tui/timeline.py), the boxes of what came after it (the round's summary, the
        doubling prompt, the game's end) wait behind it. Without `help_box`, the box the
        help box covers (the one whose keys it lists)."""
        for box in reversed(self._stack):
            name, where = _KINDS[type(box)]
            if name == HELP and not help_box:
                continue
            if name == HELP or (screen != CONNECTING and where in (None, screen)):
                if name == BOT_LEVEL and not waiting:
                    continue
                if name == SUMMARY and trick_held:
                    continue
                return name
        if screen != TABLE or trick_held:
            return None
        if doubling:
            return DOUBLE
        if over:
            return GAME_OVER
        return None

    def close(self, top: str | None) -> bool:
        """Esc on the box `top`: it closes, or goes back a step inside it. False when
        `top` is no box Esc closes here (the statistics close with their request, the
        doubling prompt and the game's end wait for an answer)."""
        kinds = {name: kind for kind, (name, _where) in _KINDS.items()}
        if top is None or top not in kinds or top == STATS:
            return False
        box = self.get(kinds[top])
        if isinstance(box, TournamentScreen | ProfileBox) and not box.back():
            return True  # a step back inside it
        self.shut(kinds[top])
        return True
