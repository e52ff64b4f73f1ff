"""The seat view a client keeps between snapshots, folded from the game events.

A snapshot carries a whole `SeatView` (records.SEAT_VIEW); between snapshots every client
folds events into that dict. How each event changes the view, how a new round starts and
which Leekha cards the seat may still double are facts of the protocol, not of any one
client, so they are stated here once. Pure: dicts and messages only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from . import catalogue as P
from .message import Message

__all__ = ["DoublingRules", "doublable", "empty_view", "fold_event", "new_round"]


class DoublingRules(Protocol):
    """The two rules facts `doublable` needs (common.config.RulesConfig has them)."""

    @property
    def doubling(self) -> bool: ...

    @property
    def leekha_cards(self) -> Sequence[int]: ...


def empty_view(seat: int | None) -> dict[str, Any]:
    """The view before the first deal (what a snapshot with `view: null` means)."""
    return {
        "seat": seat,
        "phase": "pass",
        "round": 0,
        "dealer": 0,
        "pass_to": None,
        "turn": None,
        "hand": [],
        "passed": None,
        "received": None,
        "passes_done": [False] * 4,
        "doubled": [],
        "trick": [],
        "leader": None,
        "tricks": [],
        "taken": [[], [], [], []],
        "round_points": [0] * 4,
        "totals": [0] * 4,
        "legal": [],
        "history": [],
        "result": None,
        "can_double": [],
    }


def new_round(view: dict[str, Any] | None, seat: int | None, msg: P.Dealt) -> dict[str, Any]:
    """The view after `dealt`: every per-round key fresh, the game's scores carried over.

    Only seat, totals and history survive a deal; the rest (tricks, passes, doubles, the
    result of a finished game before a rematch) belongs to the round or game that ended.
    Round 0 starts a new game (a rematch): nothing survives it but the seat.
    """
    out = empty_view(seat)
    if view is not None and msg.round > 0:
        out["totals"] = list(view.get("totals") or out["totals"])
        out["history"] = [list(r) for r in view.get("history") or []]
    out.update(round=msg.round, dealer=msg.dealer, hand=sorted(msg.hand), pass_to=msg.pass_to)
    return out


def doublable(
    view: dict[str, Any] | None,
    rules: DoublingRules,
    seat: int | None,
    *,
    server_lists: bool,
) -> list[int]:
    """Leekha cards `seat` may still reveal with `declare_double`.

    With `server_lists` (a 1.1 server) the server's own `can_double` list is the answer,
    less cards revealed or passed since it was sent; a 1.0 server sends no list, so the
    engine's rule is applied to our view instead: doubling on, pass phase, not yet passed,
    a Leekha card in hand that is not revealed yet.
    """
    if view is None or seat is None or view.get("phase") != "pass":
        return []
    if view["passes_done"][seat]:
        return []
    revealed = {c for c, _s in view.get("doubled") or []}
    hand = set(view.get("hand") or [])
    if server_lists:
        offered = view.get("can_double") or []
    else:
        offered = list(rules.leekha_cards) if rules.doubling else []
    return [c for c in offered if c in hand and c not in revealed]


# ---- game events ---------------------------------------------------------------------
# Each returns the view after the event, as the engine's seat view would show it, without
# touching the old dict. The clients add their own bookkeeping (prompts, screen state).


def _pass_done(v: dict[str, Any], msg: P.PassDone, seat: int | None) -> dict[str, Any]:
    done = list(v["passes_done"])
    done[msg.seat] = True
    return v | {"passes_done": done, "legal": [] if msg.seat == seat else v["legal"]}


def _double_revealed(v: dict[str, Any], msg: P.DoubleRevealed) -> dict[str, Any]:
    doubled = [d for d in v["doubled"] if d[0] != msg.card] + [[msg.card, msg.seat]]
    return v | {"doubled": sorted(doubled)}


def _passed_received(v: dict[str, Any], msg: P.PassedReceived) -> dict[str, Any]:
    gone = set(v["passed"] or [])
    lead = (v["dealer"] + 1) % 4
    return v | {
        "phase": "play",
        "hand": sorted({c for c in v["hand"] if c not in gone} | set(msg.cards)),
        "received": sorted(msg.cards),
        "passes_done": [True] * 4,
        "turn": lead,
        "leader": lead,
        "legal": [],
    }


def _card_played(v: dict[str, Any], msg: P.CardPlayed, seat: int | None) -> dict[str, Any]:
    trick = [*v["trick"], [msg.seat, msg.card]]
    changes: dict[str, Any] = {"trick": trick}
    if not v["trick"]:
        changes["leader"] = msg.seat
    if msg.seat == seat:
        changes["hand"] = [c for c in v["hand"] if c != msg.card]
        changes["legal"] = []
    # A full trick has no one to move until trick_taken names its winner.
    changes["turn"] = (msg.seat + 1) % 4 if len(trick) < 4 else None
    return v | changes


def _trick_taken(v: dict[str, Any], msg: P.TrickTaken, points: Sequence[int]) -> dict[str, Any]:
    cards = [list(sc) for sc in msg.cards]
    record = {"leader": cards[0][0], "cards": cards, "winner": msg.winner, "points": msg.points}
    taken = [list(t) for t in v["taken"]]
    taken[msg.winner] = sorted(set(taken[msg.winner]) | {c for _s, c in cards if points[c]})
    round_points = list(v["round_points"])
    round_points[msg.winner] += msg.points
    return v | {
        "trick": [],
        "tricks": [*v["tricks"], record],
        "taken": taken,
        "round_points": round_points,
        "turn": msg.winner,
        "leader": msg.winner,
    }


def _round_scored(v: dict[str, Any], msg: P.RoundScored) -> dict[str, Any]:
    return v | {
        "history": [*v["history"], list(msg.round_points)],
        "totals": list(msg.totals),
        "taken": [list(t) for t in msg.taken],
        "turn": None,
        "legal": [],
    }


def _game_over(v: dict[str, Any], msg: P.GameOver) -> dict[str, Any]:
    result = {
        "winners": list(msg.winners),
        "losers": list(msg.losers),
        "totals": list(msg.totals),
        "reason": msg.reason,
        "tie_extended": msg.tie_extended,
        "stats": msg.stats,
    }
    return v | {"phase": "game_over", "result": result, "turn": None, "legal": []}


def fold_event(
    view: dict[str, Any], msg: Message, seat: int | None, points: Sequence[int]
) -> dict[str, Any]:
    """The seat view after a game event; `view` itself for any other message."""
    match msg:
        case P.PassDone():
            return _pass_done(view, msg, seat)
        case P.DoubleRevealed():
            return _double_revealed(view, msg)
        case P.PassedReceived():
            return _passed_received(view, msg)
        case P.CardPlayed():
            return _card_played(view, msg, seat)
        case P.TrickTaken():
            return _trick_taken(view, msg, points)
        case P.RoundScored():
            return _round_scored(view, msg)
        case P.GameOver():
            return _game_over(view, msg)
    return view
