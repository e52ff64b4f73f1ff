"""Self-play games in lock-step, for Deep Monte-Carlo training of the value network.

Many games move together so that the network scores every waiting decision of every game
in one call (NumPy's cost is per call, not per row). Each decision is a sample: the
information state with the chosen move (`features.rows`), and as its target the points
the seat, or its team, took in that round, as `Game` scored it. That is the Monte-Carlo
return DouZero learns from; no bootstrapping, so no target network is needed.

The games are real `Game`s and the decisions are made from real `SeatView`s: what the
network learns from is exactly what it is later asked about. With chance `explore` a
seat plays a random legal card (or a random one of the candidate passes); a seat may be
the heuristic instead of the network (`heuristic_share`), so the network meets other
play than its own, and before there is a network every seat is the heuristic.

Pure computation: the training command (`bench/train.py`) owns files and clocks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from leekha.common import cards as C
from leekha.common.bots.base import view_config
from leekha.common.bots.features import (
    PLANES,
    POSITION_SCALARS,
    SCALARS,
    Floats,
    Masks,
    Position,
    candidate_inputs,
    expand,
    position,
    rows,
)
from leekha.common.bots.heuristic import HeuristicStrategy, ranked_passes, safe_doubles
from leekha.common.bots.net import PASS_CANDIDATES, Network
from leekha.common.bots.tracker import Tracker
from leekha.common.config import RulesConfig
from leekha.common.game import OVER, PASS, Game
from leekha.common.view import SeatView, SeatViews

MAX_ROUNDS: Final = 60


@dataclass
class Batch:
    """Samples: stored rows and their targets."""

    masks: list[Masks] = field(default_factory=list)
    scalars: list[Floats] = field(default_factory=list)
    targets: list[float] = field(default_factory=list)

    def arrays(self) -> tuple[Masks, Floats, Floats]:
        if not self.masks:
            return (
                np.zeros((0, PLANES), np.uint64),
                np.zeros((0, SCALARS), np.float32),
                np.zeros(0, np.float32),
            )
        return (
            np.concatenate(self.masks),
            np.concatenate(self.scalars),
            np.array(self.targets, dtype=np.float32),
        )


@dataclass
class _Table:
    game: Game
    views: SeatViews
    net_seats: list[bool]
    heuristic: HeuristicStrategy
    out: Batch
    trackers: dict[int, Tracker] = field(default_factory=dict)
    pending: list[tuple[int, Masks, Floats]] = field(default_factory=list)
    rounds: int = 0


@dataclass
class _Request:
    table: _Table
    seat: int
    view: SeatView
    where: Position
    options: list[list[int]]  # each a card list: one card, or a pass's three
    doubles: list[int]


def self_play(
    network: Network | None,
    deals: Sequence[tuple[RulesConfig, int]],
    seed: int,
    *,
    explore: float = 0.05,
    heuristic_share: float = 0.25,
    max_rounds: int = MAX_ROUNDS,
) -> Batch:
    """Play one game per `(rules, deal seed)` to its end, all in lock-step; the samples."""
    rng = random.Random(seed)
    tables: list[_Table] = []
    out = Batch()
    for config, deal_seed in deals:
        game = Game(config, deal_seed)
        net_seats = [network is not None and rng.random() >= heuristic_share for _ in range(4)]
        heuristic = HeuristicStrategy(deal_seed)
        tables.append(_Table(game, SeatViews(game), net_seats, heuristic, out))
    live = list(tables)
    while live:
        requests: list[_Request] = []
        for table in live:
            requests.extend(_requests(table))
        _decide(network, requests, rng, explore)
        for req in requests:
            _apply(req)
        live = [t for t in live if t.game.phase != OVER and t.rounds < max_rounds]
    return out


def _requests(table: _Table) -> list[_Request]:
    """The decisions this table waits for (forced plays are made on the way)."""
    game = table.game
    while game.phase != OVER:
        if game.phase == PASS:
            return [_pass_request(table, s) for s in range(4) if game.passed[s] is None]
        seat = game.turn
        assert seat is not None
        legal = game.legal_mask(seat)
        if legal & (legal - 1):
            view = table.views.view(seat)
            where = position(view, _tracker(table, view, seat))
            return [_Request(table, seat, view, where, [[c] for c in view.legal], [])]
        _play(table, seat, legal.bit_length() - 1)
    return []


def _pass_request(table: _Table, seat: int) -> _Request:
    view = table.views.view(seat)
    config = view_config(view)
    hand = view.hand_mask
    doubles = safe_doubles(config, hand, list(view.can_double)) if view.can_double else []
    keep = C.mask_of(doubles) | C.mask_of(c for c, s in view.doubled if s == seat)
    options = [list(p) for p in ranked_passes(config, hand, keep, PASS_CANDIDATES)]
    where = position(view, _tracker(table, view, seat))
    return _Request(table, seat, view, where, options, doubles)


def _tracker(table: _Table, view: SeatView, seat: int) -> Tracker:
    tracker = Tracker(view, since=table.trackers.get(seat))
    table.trackers[seat] = tracker
    return tracker


def _decide(
    network: Network | None, requests: list[_Request], rng: random.Random, explore: float
) -> None:
    """Put each request's choice first in its options: the network's lowest score for its
    seats (all scored in one call), the heuristic's for the others, random on exploration."""
    scored: list[_Request] = []
    for req in requests:
        if rng.random() < explore:
            k = rng.randrange(len(req.options))
        elif network is not None and req.table.net_seats[req.seat]:
            scored.append(req)
            continue
        elif len(req.options[0]) == 3:
            k = 0  # the heuristic's own pass ranks first
        else:
            k = req.options.index([req.table.heuristic.choose_play(req.view)])
        req.options.insert(0, req.options.pop(k))
    if not scored or network is None:
        return
    base_masks = np.array([(*req.where.masks, 0) for req in scored], dtype=np.uint64)
    base_scalars = np.zeros((len(scored), SCALARS), dtype=np.float32)
    base_scalars[:, :POSITION_SCALARS] = [req.where.scalars for req in scored]
    owner = np.repeat(np.arange(len(scored)), [len(req.options) for req in scored])
    cands = candidate_inputs(
        [req.where for req in scored for _ in req.options],
        [C.mask_of(o) for req in scored for o in req.options],
    )
    values = network.score(expand(base_masks, base_scalars), owner, cands)
    i = 0
    for req in scored:
        n = len(req.options)
        k = int(np.argmin(values[i : i + n]))
        i += n
        req.options.insert(0, req.options.pop(k))


def _apply(req: _Request) -> None:
    table = req.table
    game = table.game
    choice = req.options[0]
    masks, scalars = rows(req.where, [C.mask_of(choice)])
    table.pending.append((req.seat, masks, scalars))
    if len(choice) == 3:
        for c in req.doubles:
            if c in game.can_double(req.seat):
                game.double(req.seat, c)
        game.pass_cards(req.seat, choice)
        return
    _play(table, req.seat, choice[0])


def _play(table: _Table, seat: int, card: int) -> None:
    """Play a card; at the end of a round the round's decisions get their targets."""
    game = table.game
    before = len(game.history)
    game.play(seat, card)
    if len(game.history) == before:
        return
    table.rounds += 1
    table.trackers.clear()
    scores = game.history[-1]
    out = table.out
    for s, masks, scalars in table.pending:
        out.masks.append(masks)
        out.scalars.append(scalars)
        out.targets.append(float(own_points(game.config, scores, s)))
    table.pending.clear()


def own_points(config: RulesConfig, scores: Sequence[int], seat: int) -> int:
    """What the network predicts: the seat's round points, with a partner's added."""
    return scores[seat] + (scores[seat ^ 2] if config.partnership != "off" else 0)
