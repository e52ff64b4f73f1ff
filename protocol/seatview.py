"""The seat view a client keeps between snapshots, folded from the game events.

A snapshot carries a whole `SeatView` (records.SEAT_VIEW) as a checked dict; `of_snapshot`
turns it into the engine's frozen `leekha.common.view.SeatView` once, at the codec's edge,
and from there every client (the terminal client, the bot client, a spectator) folds events
into that one typed value. How each event changes the view, how a new round starts and
which Leekha cards the seat may still double are facts of the protocol, not of any one
client, so they are stated here once. Pure: values and messages only; every function
returns a new view and leaves the old one as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from leekha.common.view import SeatView, TrickRecord

from . import catalogue as P
from .message import Message

__all__ = [
    "DoublingRules",
    "SeatView",
    "doublable",
    "empty_view",
    "fold_event",
    "new_round",
    "of_snapshot",
    "own_pass",
    "prompted",
]


class DoublingRules(Protocol):
    """The two rules facts `doublable` needs (common.config.RulesConfig has them)."""

    @property
    def doubling(self) -> bool: ...

    @property
    def leekha_cards(self) -> Sequence[int]: ...


def empty_view(seat: int | None) -> SeatView:
    """The view before the first deal (what a snapshot with `view: null` means)."""
    return SeatView(
        seat=seat,
        phase="pass",
        round=0,
        dealer=0,
        pass_to=None,
        turn=None,
        hand=[],
        passed=None,
        received=None,
        passes_done=[False] * 4,
        doubled=[],
        trick=[],
        leader=None,
        tricks=[],
        taken=[[], [], [], []],
        round_points=[0] * 4,
        totals=[0] * 4,
        legal=[],
        history=[],
        result=None,
        can_double=[],
    )


def of_snapshot(msg: P.Snapshot) -> SeatView | None:
    """The typed view a snapshot carries (None: no deal yet).

    The message's `view` is the wire's dict, already checked key by key against
    records.SEAT_VIEW by the codec; this is the one place a client turns it into a value.
    Its `seat` is the server's: null when the game shown was not this seat's to finish.
    """
    return None if msg.view is None else SeatView.from_dict(msg.view)


def new_round(view: SeatView | None, seat: int | None, msg: P.Dealt) -> SeatView:
    """The view after `dealt`: every per-round field fresh, the game's scores carried over.

    Only seat, totals and history survive a deal; the rest (tricks, passes, doubles, the
    result of a finished game before a rematch) belongs to the round or game that ended.
    Round 0 starts a new game (a rematch): nothing survives it but the seat.
    """
    out = empty_view(seat)
    if view is not None and msg.round > 0:
        out = replace(out, totals=list(view.totals), history=[list(r) for r in view.history])
    return replace(
        out, round=msg.round, dealer=msg.dealer, hand=sorted(msg.hand), pass_to=msg.pass_to
    )


def prompted(view: SeatView, msg: P.YourTurn, seat: int | None) -> SeatView:
    """The view once `your_turn` names the seat's choices: the server's list is the truth."""
    changes: dict[str, object] = {"phase": msg.phase, "legal": sorted(msg.legal)}
    if msg.phase == "pass":
        changes["can_double"] = sorted(msg.can_double)
    else:
        changes["turn"] = seat
    return replace(view, **changes)  # type: ignore[arg-type]


def own_pass(view: SeatView, cards: Sequence[int], seat: int | None) -> SeatView:
    """The view once the server accepted our pass, as the engine shows it: the cards are
    `passed` and our pass is done; they stay in the hand until the exchange."""
    done = list(view.passes_done)
    if seat is not None:
        done[seat] = True
    return replace(view, passed=sorted(cards), passes_done=done, legal=[])


def doublable(
    view: SeatView | None,
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
    if view is None or seat is None or view.phase != "pass":
        return []
    if view.passes_done[seat]:
        return []
    revealed = {c for c, _s in view.doubled}
    hand = set(view.hand)
    if server_lists:
        offered: Sequence[int] = view.can_double
    else:
        offered = list(rules.leekha_cards) if rules.doubling else []
    return [c for c in offered if c in hand and c not in revealed]


# ---- game events ---------------------------------------------------------------------
# Each returns the view after the event, as the engine's seat view would show it, without
# touching the old one. The clients add their own bookkeeping (prompts, screen state).


def _pass_done(v: SeatView, msg: P.PassDone, seat: int | None) -> SeatView:
    done = list(v.passes_done)
    done[msg.seat] = True
    return replace(v, passes_done=done, legal=[] if msg.seat == seat else v.legal)


def _double_revealed(v: SeatView, msg: P.DoubleRevealed) -> SeatView:
    doubled = [d for d in v.doubled if d[0] != msg.card] + [[msg.card, msg.seat]]
    return replace(v, doubled=sorted(doubled))


def _passed_received(v: SeatView, msg: P.PassedReceived) -> SeatView:
    gone = set(v.passed or [])
    lead = (v.dealer + 1) % 4
    return replace(
        v,
        phase="play",
        hand=sorted({c for c in v.hand if c not in gone} | set(msg.cards)),
        received=sorted(msg.cards),
        passes_done=[True] * 4,
        turn=lead,
        leader=lead,
        legal=[],
    )


def _card_played(v: SeatView, msg: P.CardPlayed, seat: int | None) -> SeatView:
    trick = [*v.trick, [msg.seat, msg.card]]
    mine = msg.seat == seat
    return replace(
        v,
        trick=trick,
        leader=msg.seat if not v.trick else v.leader,
        hand=[c for c in v.hand if c != msg.card] if mine else v.hand,
        legal=[] if mine else v.legal,
        # A full trick has no one to move until trick_taken names its winner.
        turn=(msg.seat + 1) % 4 if len(trick) < 4 else None,
    )


def _trick_taken(v: SeatView, msg: P.TrickTaken, points: Sequence[int]) -> SeatView:
    cards = [list(sc) for sc in msg.cards]
    record: TrickRecord = {
        "leader": cards[0][0],
        "cards": cards,
        "winner": msg.winner,
        "points": msg.points,
    }
    taken = [list(t) for t in v.taken]
    taken[msg.winner] = sorted(set(taken[msg.winner]) | {c for _s, c in cards if points[c]})
    round_points = list(v.round_points)
    round_points[msg.winner] += msg.points
    return replace(
        v,
        trick=[],
        tricks=[*v.tricks, record],
        taken=taken,
        round_points=round_points,
        turn=msg.winner,
        leader=msg.winner,
    )


def _round_scored(v: SeatView, msg: P.RoundScored) -> SeatView:
    return replace(
        v,
        history=[*v.history, list(msg.round_points)],
        totals=list(msg.totals),
        taken=[list(t) for t in msg.taken],
        turn=None,
        legal=[],
    )


def _game_over(v: SeatView, msg: P.GameOver) -> SeatView:
    return replace(
        v,
        phase="game_over",
        result={
            "winners": list(msg.winners),
            "losers": list(msg.losers),
            "totals": list(msg.totals),
            "reason": msg.reason,
            "tie_extended": msg.tie_extended,
            "stats": msg.stats,
        },
        turn=None,
        legal=[],
    )


def fold_event(view: SeatView, msg: Message, seat: int | None, points: Sequence[int]) -> SeatView:
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
