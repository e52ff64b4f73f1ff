"""Engine events as the wire messages one member of a table receives.

The engine says what happened (`leekha.common.events`); this module only translates, per
member: a seat gets its own hand and its own received cards, a spectator (seat None) gets
neither, and every public fact is the same for all. It never looks at the game state, so
what a client is told cannot drift from what the engine decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from leekha.common import events as E
from leekha.protocol import catalogue as M
from leekha.protocol.message import Message


def message(event: E.Event, seat: int | None, game_id: int | None = None) -> Message | None:
    """What the member in `seat` (None: a spectator) is told of `event`, if anything;
    `game_id`: the stored game's id, for `game_over`. Built `trusted`: the engine's
    events are the game's facts, already valid, so they are not checked again on the way
    out (the test suite checks every one: `leekha.protocol.message.verify_trusted`)."""
    match event:
        case E.Dealt():
            return M.Dealt.trusted(
                round=event.round,
                dealer=event.dealer,
                hand=event.hand(seat) if seat is not None else [],
                pass_to=event.pass_to[seat] if seat is not None else None,
            )
        case E.Passed():
            return M.PassDone.trusted(seat=event.seat)
        case E.PassesExchanged():
            if seat is None:
                return None
            cards, sender = event.for_seat(seat)
            return M.PassedReceived.trusted(cards=cards, from_seat=sender)
        case E.Doubled():
            return M.DoubleRevealed.trusted(seat=event.seat, card=event.card)
        case E.CardPlayed():
            return M.CardPlayed.trusted(seat=event.seat, card=event.card)
        case E.TrickTaken():
            trick = [[s, c] for s, c in event.cards]
            return M.TrickTaken.trusted(winner=event.winner, cards=trick, points=event.points)
        case E.RoundScored():
            return M.RoundScored.trusted(
                round=event.round,
                round_points=list(event.points),
                totals=list(event.totals),
                taken=event.taken_cards(),
                moon=event.moon,
                stopped=event.stopped,
                tie=event.tie,
            )
        case E.GameOver():
            o = event.outcome
            return M.GameOver.trusted(
                winners=list(o.winners),
                losers=list(o.losers),
                totals=list(o.totals),
                reason=o.reason,
                tie_extended=o.tie_extended,
                stats=[s.copy() for s in event.stats] if event.stats else None,
                game_id=game_id,
            )
    return None


#: Events whose message differs from seat to seat.
PRIVATE = (E.Dealt, E.PassesExchanged)


def messages(events: Iterable[E.Event], seat: int | None) -> list[Message]:
    """Every message the member in `seat` gets for `events`, in order."""
    return [m for m in (message(e, seat) for e in events) if m is not None]


def for_members(
    events: Sequence[E.Event], seats: Iterable[int | None], game_id: int | None = None
) -> dict[int | None, list[Message]]:
    """`messages` for each of `seats`, with one shared object per public message: the
    outbox encodes a message sent to several members once."""
    public = [None if isinstance(e, PRIVATE) else message(e, None, game_id) for e in events]
    if None not in public:  # nothing private (a card played): one list for everyone
        same = [m for m in public if m is not None]
        return dict.fromkeys(seats, same)
    out: dict[int | None, list[Message]] = {}
    for seat in seats:
        if seat in out:
            continue
        told = (
            p if p is not None else message(e, seat) for e, p in zip(events, public, strict=True)
        )
        out[seat] = [m for m in told if m is not None]
    return out
