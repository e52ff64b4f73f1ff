"""Tiers built on the exact endgame solver and the value network.

`search-eg` is `search` with each sampled world solved exactly (`endgame`) once the seat
holds `ENDGAME_TRICKS` cards or fewer, instead of rolled out with the heuristic. From
four cards on a solve costs 5 ms a world or more against 0.14 ms for the rollouts
(docs/bots.md), which would leave a 50 ms decision a handful of worlds, so it starts at
three.

`search-net` is `search-eg` whose pass is the network's (`net`): the heuristic's best
passes scored by the network in the seat's information state, in well under a
millisecond, where `search` spends a whole decision's budget rolling six of them out.

`search-prior` puts the network inside the card-play search (expert iteration's second
half): before any world is dealt the network scores every distinct move once (one batched
call, a fraction of a millisecond); the moves it scores more than `PRIOR_KEEP` points worse
than its best are not rolled out at all (its two best always are), and each move's mean
over the worlds is shrunk towards the network's value as if the network were
`PRIOR_WORLDS` more worlds. With few worlds (a short budget) the network steadies the
choice; with many the worlds decide. Near the end of a game the search scores the chance
to win, a scale the network was not trained on, so there it searches as `search` does.
Its pass is the network's, as `search-net`'s. The regret study of `bench/prior.py`
(docs/bots.md) measured these constants' neighbours (a prior of 2 to 8 worlds, keeping
moves within 1 to 6 points): worth a few worlds at 16 worlds and nothing measurable from
32 on, so none is tuned finer.
"""

from __future__ import annotations

from typing import Final, Unpack

from leekha.common import cards as C
from leekha.common.bots.base import register
from leekha.common.bots.features import position
from leekha.common.bots.net import NetStrategy, scores
from leekha.common.bots.search import Candidates, SearchStrategy
from leekha.common.bots.search1 import Budget
from leekha.common.bots.tracker import Tracker
from leekha.common.view import SeatView

ENDGAME_TRICKS: Final = 3
# The network's weight in a move's mean, in worlds, and how many points worse than its
# best move the network must score a move for the search to skip it.
PRIOR_WORLDS: Final = 8.0
PRIOR_KEEP: Final = 4.0


class EndgameSearch(SearchStrategy):
    name = "search-eg"
    endgame_tricks = ENDGAME_TRICKS


class MaxnEndgameSearch(EndgameSearch):
    name = "search-egn"
    endgame_maxn = True


class NetPassing(SearchStrategy):
    """A search whose pass and doubles are the network's (`net`), not searched: what
    `search-net` and `search-prior` share."""

    def __init__(self, seed: int = 0, **budget: Unpack[Budget]) -> None:
        super().__init__(seed, **budget)
        self.net = NetStrategy(seed)

    def _search_pass(self, view: SeatView) -> tuple[list[int], list[int]]:
        return self.net.choose_doubles(view), self.net.choose_pass(view)


class NetPassSearch(NetPassing, EndgameSearch):
    name = "search-net"


class PriorSearch(NetPassing):
    name = "search-prior"
    prior_worlds = PRIOR_WORLDS
    prior_keep = PRIOR_KEEP

    def _candidates(
        self, view: SeatView, tracker: Tracker, moves: list[int], near: bool
    ) -> Candidates:
        if near:
            return Candidates(len(moves), settle=self._settle(near))
        points = scores(self.net.network, position(view, tracker), [C.BIT[c] for c in moves])
        order = sorted(range(len(moves)), key=lambda i: points[i])
        floor = float(points[order[0]]) + self.prior_keep
        # The network's two best always stay: the worlds check its choice.
        alive = sorted(order[:2] + [i for i in order[2:] if points[i] <= floor])
        prior = [-float(p) for p in points]
        return Candidates(len(moves), alive, prior, self.prior_worlds, self._settle(near))


register("search-eg")(EndgameSearch)
register("search-prior")(PriorSearch)
register("search-net")(NetPassSearch)
register("search-egn")(MaxnEndgameSearch)
