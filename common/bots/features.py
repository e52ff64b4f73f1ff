"""A seat's information state as numbers, for the value network (`net`).

Everything comes from the `SeatView` and what the seat's `Tracker` deduces from it, so
the network can know no more than the seat. Seats are relative: plane "left" is the seat
after us, whatever our seat number, so one network serves all four seats.

A position is kept as card masks and a few scalars (`Position`), and expanded to the
network's input only when scored: the training buffer stores millions of positions, and
52 bits a plane are 52 floats only in the minibatch. The candidate (a card to play, or
the three cards of a pass) is the last plane, so scoring the moves of one position
copies one row and sets one plane.

Layout version `LAYOUT` names this order of planes and scalars; the weights file records
the layout it was trained on, and `net` refuses weights of another layout.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
from numpy.typing import NDArray

from leekha.common import cards as C
from leekha.common.bots.base import view_config
from leekha.common.bots.heuristic import cached_rules
from leekha.common.bots.tracker import Tracker
from leekha.common.bots.values import in_reach
from leekha.common.config import RulesConfig
from leekha.common.game import PASS
from leekha.common.scoring import led_high
from leekha.common.view import SeatView

LAYOUT: Final = 2

# Planes, each 52 cards: hand; played this round by me, left, across, right; on the table
# now by left, across, right; known to be held by left, across, right (our pass until
# played, revealed doubles); received in the pass; proven absent from left, across, right
# (voids, the void rule, talbees, undercut); doubled; the candidate.
HAND: Final = 0
PLAYED: Final = 1
TABLE: Final = 5
KNOWN: Final = 8
RECEIVED: Final = 11
ABSENT: Final = 12
DOUBLED: Final = 15
CANDIDATE: Final = 16
PLANES: Final = 17
# Numbers of the position (33), then of the candidate (`CANDIDATE_SCALARS`): what an MLP
# would need very many games to work out from the card planes (does the card take the
# trick, surely; how many unseen cards lie below it), so that a few thousand games of
# self-play are enough to learn from.
POSITION_SCALARS: Final = 33
CANDIDATE_SCALARS: Final = 16
SCALARS: Final = POSITION_SCALARS + CANDIDATE_SCALARS
WIDTH: Final = PLANES * 52 + SCALARS
# The input rows a candidate sets: its plane and its numbers.
CANDIDATE_ROWS: Final = (
    *range(CANDIDATE * 52, CANDIDATE * 52 + 52),
    *range(WIDTH - CANDIDATE_SCALARS, WIDTH),
)

Floats = NDArray[np.float32]
Masks = NDArray[np.uint64]


class Position(NamedTuple):
    """One seat's information state: `PLANES - 1` card masks, `POSITION_SCALARS` numbers,
    and what the candidates' numbers are worked out from."""

    masks: tuple[int, ...]
    scalars: tuple[float, ...]
    led: int  # the suit led to this trick, -1 when we lead
    high: int  # the highest card of the led suit on the table, -1 when we lead
    table_points: int
    unseen: int
    hand: int
    points: tuple[int, ...]  # each card's points this round (doubles counted)
    leekha_of_suit: tuple[int, ...]


def rules_scalars(config: RulesConfig) -> list[float]:
    """The rule options that change how a round plays or what it is worth (14 numbers)."""
    return [
        float(config.partnership == "off"),
        float(config.partnership == "combined"),
        float(config.partnership == "individual_bust"),
        float(config.game_end == "golden_goal"),
        float(config.club_leekha),
        float(config.doubling),
        float(config.talbees),
        float(config.undercut),
        float(config.pass_ban),
        float(config.moon_penalty > 0),
        float(config.undercut_ceiling == "leekha_rank"),
        float(config.void_rule == "any_leekha"),
        float(config.void_rule == "queen_only"),
        float(config.void_rule == "free"),
    ]


def position(view: SeatView, tracker: Tracker | None = None) -> Position:
    """The information state of `view`'s seat (`tracker`: that seat's, if already built)."""
    me = view.seat
    if me is None:
        raise ValueError("the network needs a seat's view, not a spectator's")
    tracker = tracker or Tracker(view)
    config = view_config(view)
    played = [0, 0, 0, 0]
    for t in view.tricks:
        for s, c in t["cards"]:
            played[(s - me) % 4] |= C.BIT[c]
    table = [0, 0, 0, 0]
    for s, c in view.trick:
        table[(s - me) % 4] |= C.BIT[c]
        played[(s - me) % 4] |= C.BIT[c]
    others = [(me + r) % 4 for r in (1, 2, 3)]
    unseen = tracker.unseen
    doubled = C.mask_of(c for c, _ in view.doubled)
    masks = (
        tracker.hand,
        *played,
        *(table[r] for r in (1, 2, 3)),
        *(tracker.known[s] & ~tracker.hand for s in others),
        C.mask_of(view.received or ()),
        *(tracker.absent[s] & unseen for s in others),
        doubled,
    )
    target = float(config.target)
    totals = [view.totals[s] for s in (me, *others)]
    points = [view.round_points[s] for s in (me, *others)]
    offset = ((view.pass_to if view.pass_to is not None else me + 1) - me) % 4
    rules = cached_rules(config, doubled)
    most = rules.most
    in_trick = len(view.trick)
    scalars = (
        float(view.phase == PASS),
        *(p / 13.0 for p in points),
        *(t / target for t in totals),
        (target - max(totals)) / target,
        float(in_reach(config, view.totals, most)),
        tracker.hand.bit_count() / 13.0,
        *(float(in_trick == k) for k in range(4)),
        *(float(offset == k) for k in (1, 2, 3)),
        *rules_scalars(config),
    )
    trick = view.trick
    led = C.SUIT_OF[trick[0][1]] if trick else -1
    high = led_high([(s, c) for s, c in trick]) if trick else -1
    on_table = sum(rules.points[c] for _, c in trick)
    return Position(
        masks,
        scalars,
        led,
        high,
        on_table,
        unseen,
        tracker.hand,
        rules.points,
        rules.leekha_of_suit,
    )


def candidate_scalars(where: Position, candidate: int) -> tuple[float, ...]:
    """The candidate's numbers: for a card, whether it follows, takes the trick (now, or
    surely), ducks, its points and rank and the unseen cards around it; for a pass, its
    points, the suits it empties and the cards above a Leekha it sends."""
    if candidate & (candidate - 1):
        return _pass_scalars(where, candidate)
    c = candidate.bit_length() - 1
    suit = C.SUIT_OF[c]
    led, high = where.led, where.high
    follows = led >= 0 and suit == led
    takes = led < 0 or (follows and c > high)
    in_suit = where.unseen & C.SUIT_MASK[suit]
    above = (in_suit & C.ABOVE[c]).bit_count()
    below = (in_suit & C.BELOW[c]).bit_count()
    return (
        1.0,
        float(follows),
        float(led < 0),
        float(takes),
        float(takes and above == 0),
        float(not takes),
        where.points[c] / 13.0,
        float(where.leekha_of_suit[suit] == c),
        (c % 13) / 12.0,
        below / 12.0,
        above / 12.0,
        ((where.hand & C.SUIT_MASK[suit]).bit_count() - 1) / 12.0,
        where.table_points / 13.0,
        0.0,
        0.0,
        0.0,
    )


def _pass_scalars(where: Position, sent: int) -> tuple[float, ...]:
    rest = where.hand & ~sent
    emptied = sum(1 for m in C.SUIT_MASK if where.hand & m and not rest & m)
    high = 0
    for c in C.cards_of(sent):
        lk = where.leekha_of_suit[C.SUIT_OF[c]]
        if lk >= 0 and c > lk:
            high += 1
    pts = sum(where.points[c] for c in C.cards_of(sent))
    return (0.0,) * 13 + (pts / 23.0, emptied / 4.0, high / 3.0)


def rows(position: Position, candidates: list[int]) -> tuple[Masks, Floats]:
    """The stored form of `position` with each candidate: masks (n, PLANES) and scalars
    (n, SCALARS)."""
    n = len(candidates)
    masks = np.empty((n, PLANES), dtype=np.uint64)
    masks[:, :CANDIDATE] = np.array(position.masks, dtype=np.uint64)
    masks[:, CANDIDATE] = np.array(candidates, dtype=np.uint64)
    scalars = np.empty((n, SCALARS), dtype=np.float32)
    scalars[:, :POSITION_SCALARS] = np.array(position.scalars, dtype=np.float32)
    scalars[:, POSITION_SCALARS:] = [
        candidate_scalars(position, m) if m else _NO_CANDIDATE for m in candidates
    ]
    return masks, scalars


_NO_CANDIDATE: Final = (0.0,) * CANDIDATE_SCALARS


def expand(masks: Masks, scalars: Floats) -> Floats:
    """The network's input for stored rows: each mask's 52 bits as 0/1, then the scalars."""
    n = masks.shape[0]
    bits = np.unpackbits(
        np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(n, PLANES, 8),
        axis=2,
        bitorder="little",
    )[:, :, :52]
    out = np.empty((n, WIDTH), dtype=np.float32)
    out[:, : PLANES * 52] = bits.reshape(n, PLANES * 52)
    out[:, PLANES * 52 :] = scalars
    return out


def encode(position: Position, candidates: list[int]) -> Floats:
    """The network's input rows for each candidate of one position."""
    return expand(*rows(position, candidates))


def candidate_inputs(positions: list[Position], candidates: list[int]) -> Floats:
    """The inputs each candidate sets (`CANDIDATE_ROWS`): its plane's 52 bits and its
    numbers, (n, 52 + CANDIDATE_SCALARS); candidate i belongs to `positions[i]`."""
    masks = np.array(candidates, dtype="<u8").reshape(-1, 1)
    bits = np.unpackbits(masks.view(np.uint8), axis=1, bitorder="little")[:, :52]
    out = np.empty((len(candidates), 52 + CANDIDATE_SCALARS), dtype=np.float32)
    out[:, :52] = bits
    out[:, 52:] = [candidate_scalars(p, m) for p, m in zip(positions, candidates)]
    return out
