"""The replay viewer's key table: its bindings, its hint line and its help box from one set
of entries (the same `keytable.py` the game's screen uses)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from leekha.client.exitcodes import INTERRUPTED
from leekha.client.i18n import N_
from leekha.client.tui import keytable
from leekha.client.tui.keytable import Key
from leekha.client.tui.replay_model import ReplayModel


@dataclass(frozen=True)
class Seen:
    """What a condition reads: the replay, and whether its help box is open."""

    r: ReplayModel
    help: bool


@dataclass(frozen=True)
class Pressed:
    """What an intent gets: the replay, and how to end the viewer."""

    r: ReplayModel
    exit: Callable[[int], None]  # the viewer's exit status (130: Ctrl-C)


Intent = Callable[[Pressed], None]


def on(keys: str, intent: Intent) -> tuple[tuple[str, Intent], ...]:
    return tuple((key, intent) for key in keys.split())


def _step(move: Callable[[ReplayModel, int], object], n: int) -> Intent:
    def intent(p: Pressed) -> None:
        move(p.r, n)

    return intent


def _jump(n: int) -> Intent:
    def intent(p: Pressed) -> None:
        p.r.jump_round(n)

    return intent


def _toggle_help(p: Pressed) -> None:
    p.r.show_help = not p.r.show_help


def _close_help(p: Pressed) -> None:
    p.r.show_help = False


def _always(s: Seen) -> bool:
    return True


def _help_open(s: Seen) -> bool:
    return s.help


def _help_closed(s: Seen) -> bool:
    return not s.help


Entry = Key[Seen, Pressed]

# fmt: off
#: The viewer's keys, in the help box's order; a narrow hint line drops from the end of the
#: ranks (help stays), so quitting goes before the jumps.
REPLAY_KEYS: list[Entry] = [
    Entry("←→", on("right space l", _step(ReplayModel.step, 1))
          + on("left backspace h", _step(ReplayModel.step, -1)), _always, hint=N_("step"),
          help=N_("next / previous action"), rank=1, help_keys="→ ← space"),
    Entry("↑↓", on("down j", _step(ReplayModel.next_trick, 1))
          + on("up k", _step(ReplayModel.next_trick, -1)), _always, hint=N_("trick"),
          help=N_("next / previous trick"), rank=2, help_keys="↓ ↑"),
    Entry("n/p", on("n pagedown", _step(ReplayModel.round_step, 1))
          + on("p pageup", _step(ReplayModel.round_step, -1)), _always, hint=N_("round"),
          help=N_("next / previous round"), rank=3, help_keys="n p"),
    Entry("1-9", tuple((str(n), _jump(n)) for n in range(1, 10)), _always,
          hint=N_("round N"), help=N_("round N"), rank=5),
    Entry("g/G", on("home g", lambda p: p.r.home()) + on("end G", lambda p: p.r.end()), _always,
          hint=N_("start/end"), help=N_("start / end"), rank=6, help_keys="g G"),
    Entry("q", on("q", lambda p: p.exit(0)), _always, hint=N_("quit"), help=N_("quit"), rank=4,
          help_keys="q Esc"),
    Entry("Esc", on("escape", lambda p: p.exit(0)), _help_closed, silent="q's help row names it"),
    Entry("Esc", on("escape", _close_help), _help_open, hint=N_("close"), rank=0),
    Entry("Ctrl-C", on("c-c", lambda p: p.exit(INTERRUPTED)), _always, silent="quits at once"),
    Entry("?", on("?", _toggle_help), _always, hint=N_("help"), help=N_("this help"), rank=99),
]
# fmt: on


def hints(r: ReplayModel) -> list[tuple[str, str]]:
    return keytable.hints(REPLAY_KEYS, Seen(r, r.show_help))


def help_rows(r: ReplayModel) -> list[tuple[str, str]]:
    """The help box's rows: the keys of the viewer under the box."""
    return keytable.help_rows(REPLAY_KEYS, Seen(r, False))
