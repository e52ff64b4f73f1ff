"""The lobby's forms: the new-table form and the password prompt, edited in place by keys.

A form only collects what the player typed and says what is wrong with it; the model
sends the request once the form has no problem left (the server still decides).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from leekha.client.i18n import _
from leekha.client.tui.words import NAME_MAX
from leekha.common.config import PRESETS

#: A timer's choices in the new-table form; 0 is off (the wire's untimed: null would be
#: the server's default, which may be a timer).
PASS_TIMERS = (0, 30, 60, 120)
TURN_TIMERS = (0, 15, 30, 60)
TARGETS = (None, 11, 31, 51, 101, 151, 201)
TARGET_MIN, TARGET_MAX = 1, 10000
PASSWORD_MAX = 64

T = TypeVar("T")


def _cycle(options: tuple[T, ...], value: T, step: int) -> T:
    i = options.index(value) if value in options else 0
    return options[(i + step) % len(options)]


@dataclass
class CreateForm:
    """The create-table dialog; fields are edited in place by intents."""

    name: str = "Table"
    preset: str = "classic"
    target_text: str = ""  # digits as typed; "" = the preset's target
    password: str = ""
    pass_timer: int = 60
    turn_timer: int = 30
    counting_aid: bool = True
    row: int = 0

    ROWS = (
        "name",
        "preset",
        "target",
        "password",
        "pass_timer",
        "turn_timer",
        "counting_aid",
        "create",
    )

    @property
    def field(self) -> str:
        return self.ROWS[self.row]

    @property
    def text_field(self) -> bool:
        return self.field in ("name", "password", "target")

    @property
    def target(self) -> int | None:
        """The typed target when it is a number in range; None for the preset's (or bad)."""
        text = self.target_text
        if text.isdigit() and TARGET_MIN <= int(text) <= TARGET_MAX:
            return int(text)
        return None

    def target_problem(self) -> str | None:
        """Why the typed target cannot be sent (None when it is empty or fine)."""
        if self.target_text and self.target is None:
            return _("the target must be a number from {lo} to {hi}").format(
                lo=TARGET_MIN, hi=TARGET_MAX
            )
        return None

    def move(self, step: int) -> None:
        self.row = (self.row + step) % len(self.ROWS)

    def change(self, step: int) -> None:
        """← or →: the next choice of the field (text fields have none)."""
        if self.field == "preset":
            self.preset = _cycle(tuple(PRESETS), self.preset, step)
        elif self.field == "target":
            chosen = _cycle(TARGETS, self.target, step)
            self.target_text = "" if chosen is None else str(chosen)
        elif self.field == "pass_timer":
            self.pass_timer = _cycle(PASS_TIMERS, self.pass_timer, step)
        elif self.field == "turn_timer":
            self.turn_timer = _cycle(TURN_TIMERS, self.turn_timer, step)
        elif self.field == "counting_aid":
            self.counting_aid = not self.counting_aid

    def type(self, text: str) -> str | None:
        """Typed text into the field; what is wrong with it, when it cannot go there."""
        if not self.text_field:
            return None
        if self.field == "name":
            self.name = (self.name + text)[:NAME_MAX]
        elif self.field == "target":
            if not text.isdigit():
                return _("the target is a number ({lo} to {hi})").format(
                    lo=TARGET_MIN, hi=TARGET_MAX
                )
            self.target_text = (self.target_text + text).lstrip("0")[: len(str(TARGET_MAX))]
        else:
            self.password = (self.password + text)[:PASSWORD_MAX]
        return None

    def backspace(self) -> None:
        if self.field == "name":
            self.name = self.name[:-1]
        elif self.field == "target":
            self.target_text = self.target_text[:-1]
        elif self.field == "password":
            self.password = self.password[:-1]

    def problem(self) -> str | None:
        """Why the form cannot be sent yet (the cursor goes to the field at fault)."""
        if not self.name.strip():
            return _("the table needs a name")
        problem = self.target_problem()
        if problem is not None:
            self.row = self.ROWS.index("target")
        return problem


@dataclass
class PasswordPrompt:
    """The password a protected table asks for, typed before joining or watching it."""

    table_id: int
    typed: str = ""
    spectate: bool = False
    #: Why the box opened by itself: the server refused a join without a password (an
    #: invitation that does not carry it) or with a wrong one; "" when the player asked.
    why: str = ""

    def type(self, text: str) -> None:
        self.typed += text

    def backspace(self) -> None:
        self.typed = self.typed[:-1]
