"""Tiers built on the exact endgame solver and the value network.

`search-eg` is `search` with each sampled world solved exactly (`endgame`) once the seat
holds `ENDGAME_TRICKS` cards or fewer, instead of rolled out with the heuristic. From
four cards on a solve costs 5 ms a world or more against 0.14 ms for the rollouts
(docs/bots.md), which would leave a 50 ms decision a handful of worlds, so it starts at
three.
"""

from __future__ import annotations

from typing import Final

from leekha.common.bots.base import register
from leekha.common.bots.search import SearchStrategy

ENDGAME_TRICKS: Final = 3


class EndgameSearch(SearchStrategy):
    name = "search-eg"
    endgame_tricks = ENDGAME_TRICKS


register("search-eg")(EndgameSearch)
