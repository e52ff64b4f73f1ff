"""The seat-view dict both clients keep between snapshots: the parts they must agree on.

A snapshot carries a whole `SeatView.to_dict()`; between snapshots the terminal client
(model.py) and the bot client (botview.py) fold events into that dict themselves. How a
new round starts and which Leekha cards the seat may still double are facts of the
protocol, not of either client, so they live here once. Pure: dicts and messages only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from leekha import protocol as P
from leekha.common.config import RulesConfig

#: The first protocol version whose `SeatView` and `your_turn` list `can_double`.
CAN_DOUBLE_SINCE = (1, 1)


def speaks(version: Sequence[int] | None, since: tuple[int, int]) -> bool:
    """Whether a negotiated version (welcome.version) includes what `since` added.

    A decoded 1.0 frame still has `can_double: []` (the decoder fills defaults), so the
    field's presence cannot tell "none left" from "not sent": the version has to.
    """
    return version is not None and tuple(version[:2]) >= since


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
    """
    out = empty_view(seat)
    if view is not None:
        out["totals"] = list(view.get("totals") or out["totals"])
        out["history"] = [list(r) for r in view.get("history") or []]
    out.update(round=msg.round, dealer=msg.dealer, hand=sorted(msg.hand), pass_to=msg.pass_to)
    return out


def doublable(
    view: dict[str, Any] | None,
    rules: RulesConfig,
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
