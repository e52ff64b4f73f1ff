"""Tiers built on the exact endgame solver and the value network.

`search-eg` is `search` with each sampled world solved exactly (`endgame`) once the seat
holds `ENDGAME_TRICKS` cards or fewer, instead of rolled out with the heuristic. From
four cards on a solve costs 5 ms a world or more against 0.14 ms for the rollouts
(docs/bots.md), which would leave a 50 ms decision a handful of worlds, so it starts at
three.

`search-net` is `search-eg` whose pass is the network's (`net`): the heuristic's best
passes scored by the network in the seat's information state, in well under a
millisecond, where `search` spends a whole decision's budget rolling six of them out.
"""

from __future__ import annotations

from typing import Final, Unpack

from leekha.common.bots.base import register
from leekha.common.bots.net import NetStrategy
from leekha.common.bots.search import SearchStrategy
from leekha.common.bots.search1 import Budget
from leekha.common.view import SeatView

ENDGAME_TRICKS: Final = 3


class EndgameSearch(SearchStrategy):
    name = "search-eg"
    endgame_tricks = ENDGAME_TRICKS


class MaxnEndgameSearch(EndgameSearch):
    name = "search-egn"
    endgame_maxn = True


class NetPassSearch(EndgameSearch):
    name = "search-net"

    def __init__(self, seed: int = 0, **budget: Unpack[Budget]) -> None:
        super().__init__(seed, **budget)
        self.net = NetStrategy(seed)

    def _search_pass(self, view: SeatView) -> tuple[list[int], list[int]]:
        return self.net.choose_doubles(view), self.net.choose_pass(view)


register("search-eg")(EndgameSearch)
register("search-net")(NetPassSearch)
register("search-egn")(MaxnEndgameSearch)
