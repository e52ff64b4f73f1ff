"""A key table: each entry says which keys it binds, when they are live, what they call,
and how the hint line and the help box name them, so those three can never disagree.

This is ptpython's way with key bindings (named filters, one table per mode) taken one step
further: the words shown for a key sit in the same entry as its binding, and the hints and
the help rows are read off the entries that are live, with the same condition that guards
the binding. An entry's words are message ids (marked with `N_()`), translated here when
they are shown. The table itself is `keymap.py`'s (the client) or the replay viewer's.

`W` is what a condition reads (the model and the layer on top); `P` is what an intent gets
(that, plus the app's actions and the key pressed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from leekha.client.i18n import _

W = TypeVar("W")
P = TypeVar("P")

#: Words for a key: a message id, one chosen by the state (None: nothing shown), or none.
Words = str | Callable[[W], str | None] | None


@dataclass(frozen=True)
class Key(Generic[W, P]):
    """One thing the keys do. `binds` pairs prompt_toolkit key names with the intent each
    calls; all are live while `when` holds. `shown` names the keys on the hint line and
    `help_keys` (default: the same) in the help box's key column; both go through the
    catalogue too ("any key" has words). `hint` and `help` are the words; a hint goes on
    the bottom line by `rank` (lowest first). An entry with neither says in `silent` why a
    person needs no word for it (typing into a field)."""

    shown: str
    binds: tuple[tuple[str, Callable[[P], None]], ...]
    when: Callable[[W], bool]
    hint: Words[W] = None
    help: Words[W] = None
    rank: int = 50
    help_keys: str | None = None
    silent: str = ""

    def words(self, which: Words[W], where: W) -> str | None:
        text = which(where) if callable(which) else which
        return _(text) if text else None


def bind(
    keys: Sequence[str], intent: Callable[[P], None]
) -> tuple[tuple[str, Callable[[P], None]], ...]:
    """The same intent on each of `keys`."""
    return tuple((key, intent) for key in keys)


class Handler(Generic[W, P]):
    """A binding's handler; it keeps its entry, so a test can tell which entry is live."""

    def __init__(
        self, entry: Key[W, P], intent: Callable[[P], None], press: Callable[[KeyPressEvent], P]
    ):
        self.entry = entry
        self.intent = intent
        self.press = press

    def __call__(self, event: KeyPressEvent) -> None:
        self.intent(self.press(event))


def register(
    kb: KeyBindings,
    table: Sequence[Key[W, P]],
    where: Callable[[], W],
    press: Callable[[KeyPressEvent], P],
) -> KeyBindings:
    """Bind every key of `table` to `kb`, each live while its entry's condition holds for
    `where()` (asked afresh at every key press)."""
    for entry in table:
        live = Condition(lambda entry=entry: entry.when(where()))  # type: ignore[misc]
        for key, intent in entry.binds:
            kb.add(key, filter=live)(Handler(entry, intent, press))
    return kb


def hints(table: Sequence[Key[W, P]], where: W) -> list[tuple[str, str]]:
    """The hints of the live entries that have one, by rank (the table's order breaks ties)."""
    found = []
    for i, entry in enumerate(table):
        if entry.when(where):
            label = entry.words(entry.hint, where)
            if label is not None:
                found.append((entry.rank, i, _(entry.shown), label))
    return [(shown, label) for _r, _i, shown, label in sorted(found)]


def help_rows(table: Sequence[Key[W, P]], where: W) -> list[tuple[str, str]]:
    """The help box's rows, (keys, what they do), for the live entries, in the table's order."""
    rows = []
    for entry in table:
        if entry.when(where):
            text = entry.words(entry.help, where)
            if text is not None:
                rows.append((_(entry.help_keys or entry.shown), text))
    return rows
