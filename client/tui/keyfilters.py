"""What the client's key table is written in: the layers, the named conditions (ptpython's
filters) and the contexts its conditions and intents get.

Which keys are live follows one layer value: the chat line, a moment just past still on
screen (a finished trick, a round's summary: client/tui/timeline.py), or else the
model's `overlay` (the one the painter and Esc use), then the screen and the phase.
`Where` names that layer explicitly, so the help box can ask what is live under itself.
The `hint_*`-style predicates below say when a hint is worth its room on the bottom line;
they narrow a hint to a phase, never widen it past the binding's own condition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from leekha.client.i18n import N_
from leekha.client.tui import model as M
from leekha.client.tui.overlays import (
    CONNECTING,
    DOUBLE,
    GAME_OVER,
    INVITE,
    LOBBY,
    SUMMARY,
    TABLE,
    TOURNAMENTS,
)

# Layers over the overlays: the chat line takes every key, then a moment just past still
# on screen (client/tui/timeline.py).
CHAT = "chat"
HELD = "held"


@dataclass
class Actions:
    """What the keys can do beyond the model: app-level effects supplied by app.py."""

    quit: Callable[[], None]
    open_chat: Callable[[], None]
    close_chat: Callable[[], None]
    send_chat: Callable[[], None]
    bot_strategy: str = "random"
    #: Ctrl-C: quit at once, the command ending with 130 as an interrupted one does.
    interrupt: Callable[[], None] = lambda: None


@dataclass(frozen=True)
class Where:
    """What a condition reads: the model and the layer taken to be on top."""

    m: M.ClientModel
    top: str | None


@dataclass(frozen=True)
class Press:
    """What an intent gets: the model, the app's actions and the key's text; `again`
    hands the same key back to the bindings (after a held trick the key ended, it acts on
    the true state)."""

    m: M.ClientModel
    act: Actions
    data: str = ""
    again: Callable[[], None] = lambda: None


Intent = Callable[[Press], None]
Binds = tuple[tuple[str, Intent], ...]


def on(keys: str, intent: Intent) -> Binds:
    """`intent` on each key of `keys` (prompt_toolkit names, space-separated)."""
    return tuple((key, intent) for key in keys.split())


def layer(m: M.ClientModel) -> str | None:
    """The layer that owns the keys now."""
    if m.chat_open:
        return CHAT
    if m.holding:
        return HELD
    return m.overlay


def under_help(m: M.ClientModel) -> str | None:
    """The layer the help box describes: the one on top were the box closed."""
    return m.under_help


def do(fn: Callable[[M.ClientModel], object]) -> Callable[[Press], None]:
    """An intent that calls a model method."""

    def intent(p: Press) -> None:
        fn(p.m)

    return intent


# ---- named conditions (ptpython's filters), each of a `Where` ---------------------------
def always(w: Where) -> bool:
    return True


def box(name: str) -> Callable[[Where], bool]:
    return lambda w: w.top == name


def outside(w: Where) -> bool:
    """No box, or one that leaves the screen's keys live under it."""
    return w.top in (None, GAME_OVER, DOUBLE, SUMMARY)


def connected(w: Where) -> bool:
    return outside(w) and w.m.screen != CONNECTING


def lobby(w: Where) -> bool:
    return w.top is None and w.m.screen == LOBBY


def on_person(w: Where) -> bool:
    """The lobby's cursor is on a name under a table (Enter: their profile)."""
    return lobby(w) and w.m.lobby.chosen_person() is not None


def on_table_row(w: Where) -> bool:
    return lobby(w) and w.m.lobby.chosen_person() is None


def at_table(w: Where) -> bool:
    return outside(w) and w.m.screen == TABLE


def waiting(w: Where) -> bool:
    return at_table(w) and w.m.game.status_word == "waiting"


def in_hand(w: Where) -> bool:
    m = w.m
    return w.top is None and m.screen == TABLE and m.game.phase in ("pass", "play") and bool(m.hand)


def passing_hand(w: Where) -> bool:
    return in_hand(w) and w.m.game.phase == "pass"


def playing_hand(w: Where) -> bool:
    return in_hand(w) and w.m.game.phase == "play"


def following(w: Where) -> bool:
    t = w.m.boxes.tournaments
    return w.top == TOURNAMENTS and t is not None and t.following_one


def may_enter(w: Where) -> bool:
    """A followed tournament this client has not entered (e takes part once)."""
    t = w.m.boxes.tournaments
    return following(w) and t is not None and w.m.in_lobby.entered != t.following


def invite_password(w: Where) -> bool:
    b = w.m.boxes.invite_box
    return w.top == INVITE and b is not None and b.password is not None


# ---- when a hint is worth its room -------------------------------------------------------
def plain_table(w: Where) -> bool:
    return w.top is None and w.m.screen == TABLE


def my_pass(w: Where) -> bool:
    m = w.m
    return plain_table(w) and not m.game.autopiloted and m.game.phase == "pass" and m.my_turn


def my_play(w: Where) -> bool:
    m = w.m
    return plain_table(w) and not m.game.autopiloted and m.game.phase == "play" and m.my_turn


def idle(w: Where) -> bool:
    """At the table, neither waiting for players nor asked to pass or play."""
    return (
        plain_table(w) and w.m.game.status_word != "waiting" and not my_pass(w) and not my_play(w)
    )


def host(w: Where) -> bool:
    return w.m.game.is_host


def only(cond: Callable[[Where], bool], words: str) -> Callable[[Where], str | None]:
    """`words` while `cond` holds, else no hint."""
    return lambda w: words if cond(w) else None


def enter_hint(w: Where) -> str | None:
    if not plain_table(w):
        return None
    if w.m.game.autopiloted:
        return N_("take your seat back")
    if my_pass(w):
        return N_("pass")
    if my_play(w):
        return N_("lift, again to play")
    return None


def enter_help(w: Where) -> str | None:
    if w.m.game.autopiloted:
        return N_("take your seat back from the bot")
    if w.m.game.phase == "pass":
        return N_("pass the three chosen cards")
    return N_("lift a card; Enter again plays it")


def esc_hint(w: Where) -> str | None:
    return N_("clear") if my_pass(w) else N_("cancel") if my_play(w) else None
