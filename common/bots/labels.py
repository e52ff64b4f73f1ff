"""Decisions labelled by the search, for training the network to imitate it (issue 39).

Expert iteration: the search (`search`, `search1`, any `Expert`) decides at some seats
of real games; at each of its decisions with a real choice we keep the seat's
information state, every candidate the search weighed, the search's value of each (its
mean over the sampled worlds, higher is better: minus the round's points, or the game's
utility once one round could end the game, `near`) and the candidate it chose. Passes
too: the pass search's options that share the chosen doubles.

Stored form, per decision (one row of `DECISION_FIELDS`) and per candidate (one row of
`CANDIDATE_FIELDS`): the position's 16 card planes as 52-bit masks in `uint64` (the bits
are the network's 0/1 inputs, packed; `features.expand` unpacks them) and its 33 numbers;
each candidate's mask and 16 numbers. About 600 bytes a decision with five candidates, so
a million decisions take some 600 MB in memory and far less compressed on disk. The
network's input for a candidate is exactly `features.encode(position, [candidate])`:
`inputs` rebuilds it with `features.expand`, one code path with inference.

Pure computation: `bench/distill.py` owns files, processes and clocks.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import numpy as np
from numpy.typing import NDArray

from leekha.common import cards as C
from leekha.common.bots.base import Strategy, play_out
from leekha.common.bots.features import (
    CANDIDATE,
    CANDIDATE_SCALARS,
    PLANES,
    POSITION_SCALARS,
    SCALARS,
    Floats,
    expand,
    position,
)
from leekha.common.bots.features import (
    candidate_scalars as _candidate_scalars,
)
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.config import RulesConfig
from leekha.common.game import Game
from leekha.common.view import SeatView

Arrays = dict[str, NDArray[Any]]

DECISION_FIELDS: Final = ("pos_masks", "pos_scalars", "choice", "near", "is_pass", "samples")
CANDIDATE_FIELDS: Final = ("cand_masks", "cand_scalars", "values")


@dataclass
class Decisions:
    """Labelled decisions as they are collected; `arrays` gives the stored form."""

    pos_masks: list[tuple[int, ...]] = field(default_factory=list)
    pos_scalars: list[tuple[float, ...]] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    choice: list[int] = field(default_factory=list)
    near: list[bool] = field(default_factory=list)
    is_pass: list[bool] = field(default_factory=list)
    samples: list[int] = field(default_factory=list)
    cand_masks: list[int] = field(default_factory=list)
    cand_scalars: list[tuple[float, ...]] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    games: int = 0
    rounds: int = 0

    def add(
        self,
        view: SeatView,
        candidates: list[int],
        values: list[float],
        choice: int,
        *,
        near: bool,
        is_pass: bool,
        samples: int,
    ) -> None:
        """One decision of `view`'s seat: candidate masks, the search's values, the index
        of its choice. Decisions with a value that is not finite are left out."""
        if len(candidates) < 2 or not all(math.isfinite(v) for v in values):
            return
        where = position(view)
        self.pos_masks.append(where.masks)
        self.pos_scalars.append(where.scalars)
        self.counts.append(len(candidates))
        self.choice.append(choice)
        self.near.append(near)
        self.is_pass.append(is_pass)
        self.samples.append(samples)
        self.cand_masks.extend(candidates)
        self.cand_scalars.extend(_candidate_scalars(where, m) for m in candidates)
        self.values.extend(values)

    def __len__(self) -> int:
        return len(self.counts)

    def arrays(self) -> Arrays:
        n = len(self.counts)
        start = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(self.counts, out=start[1:])
        return {
            "pos_masks": np.array(self.pos_masks, dtype=np.uint64).reshape(n, CANDIDATE),
            "pos_scalars": np.array(self.pos_scalars, dtype=np.float32).reshape(
                n, POSITION_SCALARS
            ),
            "start": start,
            "choice": np.array(self.choice, dtype=np.int16),
            "near": np.array(self.near, dtype=bool),
            "is_pass": np.array(self.is_pass, dtype=bool),
            "samples": np.array(self.samples, dtype=np.int32),
            "cand_masks": np.array(self.cand_masks, dtype=np.uint64),
            "cand_scalars": np.array(self.cand_scalars, dtype=np.float32).reshape(
                -1, CANDIDATE_SCALARS
            ),
            "values": np.array(self.values, dtype=np.float32),
        }


def concat(parts: Sequence[Arrays]) -> Arrays:
    """Several shards' arrays as one (the candidates' offsets carried on)."""
    if not parts:
        return Decisions().arrays()
    out = {k: np.concatenate([p[k] for p in parts]) for k in (*DECISION_FIELDS, *CANDIDATE_FIELDS)}
    starts = [parts[0]["start"][:1]]
    base = 0
    for p in parts:
        starts.append(p["start"][1:] + base)
        base += int(p["start"][-1])
    out["start"] = np.concatenate(starts)
    return out


def inputs(data: Arrays, idx: NDArray[np.intp]) -> tuple[Floats, NDArray[np.intp], NDArray[Any]]:
    """The network's input rows of every candidate of decisions `idx`, in order: (rows,
    owner, cand) where `owner[i]` is the position of row i in `idx` and `cand[i]` its
    candidate's index in `data`'s candidate arrays."""
    start = data["start"]
    counts = start[idx + 1] - start[idx]
    owner = np.repeat(np.arange(len(idx)), counts)
    first = np.repeat(start[idx], counts)
    offset = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    cand = first + offset
    masks = np.empty((len(cand), PLANES), dtype=np.uint64)
    masks[:, :CANDIDATE] = data["pos_masks"][idx][owner]
    masks[:, CANDIDATE] = data["cand_masks"][cand]
    scalars = np.empty((len(cand), SCALARS), dtype=np.float32)
    scalars[:, :POSITION_SCALARS] = data["pos_scalars"][idx][owner]
    scalars[:, POSITION_SCALARS:] = data["cand_scalars"][cand]
    return expand(masks, scalars), owner, cand


class Expert(Strategy, Protocol):
    """A strategy that reports its last search (`search1.Expert`'s `last_*`)."""

    last_moves: list[int]
    last_means: list[float]
    last_near: bool
    last_samples: int


class Labeller:
    """A seat played by `expert` whose searched decisions go to `out`; with chance
    `explore` it then plays a random legal card (or another of the searched passes)
    instead, so that the games reach positions the expert would not."""

    name = "labeller"

    def __init__(self, expert: Expert, out: Decisions, rng: random.Random, explore: float) -> None:
        self.expert = expert
        self.out = out
        self.rng = rng
        self.explore = explore

    def choose_doubles(self, view: SeatView) -> list[int]:
        # `decide` asks for the doubles first: the pass search runs here, so what it
        # leaves in `last_means` is this decision's, or nothing.
        self.expert.last_means = []
        return list(self.expert.choose_doubles(view))

    def choose_pass(self, view: SeatView) -> list[int]:
        expert = self.expert
        passed = list(expert.choose_pass(view))
        options: list[tuple[list[int], list[int]]] = getattr(expert, "last_options", [])
        if not expert.last_means or not options:
            return passed
        doubles = sorted(expert.choose_doubles(view))
        same = [i for i, (d, _) in enumerate(options) if sorted(d) == doubles]
        masks = [C.mask_of(options[i][1]) for i in same]
        values = [expert.last_means[i] for i in same]
        choice = masks.index(C.mask_of(passed))
        self.out.add(
            view,
            masks,
            values,
            choice,
            near=expert.last_near,
            is_pass=True,
            samples=expert.last_samples,
        )
        if self.rng.random() < self.explore:
            return list(options[self.rng.choice(same)][1])
        return passed

    def choose_play(self, view: SeatView) -> int:
        expert = self.expert
        card = expert.choose_play(view)
        # Only the moves the search rolled out have a value: an expert with a network
        # (`search-prior`) leaves out the moves it rules out, with no mean (-inf).
        pairs = zip(expert.last_moves, expert.last_means, strict=True)
        searched = [(m, v) for m, v in pairs if v > -math.inf]
        if len(searched) > 1:
            moves = [m for m, _ in searched]
            self.out.add(
                view,
                [C.BIT[m] for m in moves],
                [v for _, v in searched],
                moves.index(card),
                near=expert.last_near,
                is_pass=False,
                samples=expert.last_samples,
            )
        if self.rng.random() < self.explore:
            return self.rng.choice(view.legal)
        return int(card)


def label_games(
    expert: Callable[[int], Expert],
    deals: Sequence[tuple[RulesConfig, int]],
    seed: int,
    *,
    explore: float = 0.05,
    heuristic_share: float = 0.25,
    max_rounds: int = 60,
) -> Decisions:
    """Play one game per `(rules, deal seed)`, each seat the expert (`expert(seed)`
    builds one) or, with chance `heuristic_share`, the heuristic, at least one seat the
    expert; every decision the expert searches is labelled."""
    rng = random.Random(seed)
    out = Decisions()
    for config, deal_seed in deals:
        experts = [rng.random() >= heuristic_share for _ in range(4)]
        if not any(experts):
            experts[rng.randrange(4)] = True
        bots: list[Strategy] = [
            Labeller(expert(deal_seed * 4 + s), out, random.Random(rng.random()), explore)
            if experts[s]
            else HeuristicStrategy(deal_seed * 4 + s)
            for s in range(4)
        ]
        game = play_out(Game(config, deal_seed), bots, rounds=max_rounds)
        out.games += 1
        out.rounds += len(game.history)
    return out
