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
from leekha.common.view import SeatView

LAYOUT: Final = 1

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
SCALARS: Final = 33
WIDTH: Final = PLANES * 52 + SCALARS

Floats = NDArray[np.float32]
Masks = NDArray[np.uint64]


class Position(NamedTuple):
    """One seat's information state: `PLANES - 1` card masks and `SCALARS` numbers."""

    masks: tuple[int, ...]
    scalars: tuple[float, ...]


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
    most = cached_rules(config, doubled).most
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
    return Position(masks, scalars)


def card_candidates(cards: list[int]) -> list[int]:
    """Candidate masks of single cards to play."""
    return [C.BIT[c] for c in cards]


def pass_candidates(passes: list[list[int]] | list[tuple[int, int, int]]) -> list[int]:
    """Candidate masks of passes (three cards each)."""
    return [C.mask_of(p) for p in passes]


def rows(position: Position, candidates: list[int]) -> tuple[Masks, Floats]:
    """The stored form of `position` with each candidate: masks (n, PLANES) and scalars
    (n, SCALARS)."""
    n = len(candidates)
    masks = np.empty((n, PLANES), dtype=np.uint64)
    masks[:, :CANDIDATE] = np.array(position.masks, dtype=np.uint64)
    masks[:, CANDIDATE] = np.array(candidates, dtype=np.uint64)
    scalars = np.empty((n, SCALARS), dtype=np.float32)
    scalars[:] = np.array(position.scalars, dtype=np.float32)
    return masks, scalars


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


def candidate_bits(candidates: list[int]) -> Floats:
    """The candidate plane of each candidate mask, (n, 52) of 0/1."""
    masks = np.array(candidates, dtype="<u8").reshape(-1, 1)
    bits = np.unpackbits(masks.view(np.uint8), axis=1, bitorder="little")[:, :52]
    return bits.astype(np.float32)
