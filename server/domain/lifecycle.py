"""A table's lifecycle: waiting, playing, finished, and every transition between them.

Everything that moves a table from one state to another, or refuses to, is decided here
(docs/protocol.md §7, "Table lifecycle"), so that no sequence of joins, leaves, drops and
votes can jam a table: a table that is not playing can always be started by its host once
four seats are filled, and every member can always leave.

    waiting  --start (host, four seats)-------------------> playing
    finished --start (host, four seats)-------------------> playing
    finished --rematch (the last seated person's vote)----> playing
    playing  --game_over----------------------------------> finished

Seat changes never change the state: a seat given up mid-game passes to a stand-in bot,
and a seat freed after a game leaves the table finished (the result stays on screen) until
the next game starts. Pure: no clock, no messages.
"""

from __future__ import annotations

from typing import Final, Literal

from leekha.common.errors import Facts
from leekha.protocol.views import TableStatus

#: A table's state, as its summary shows it.
Status = TableStatus

WAITING: Final = "waiting"
PLAYING: Final = "playing"
FINISHED: Final = "finished"
STATES: Final[tuple[Status, ...]] = (WAITING, PLAYING, FINISHED)

Event = Literal["start", "rematch", "game_over"]

TRANSITIONS: dict[tuple[Status, Event], Status] = {
    (WAITING, "start"): PLAYING,
    (FINISHED, "start"): PLAYING,
    (FINISHED, "rematch"): PLAYING,
    (PLAYING, "game_over"): FINISHED,
}

#: Why an event is refused in a state: the `not_ready` refusal's rule
#: (leekha.protocol.notices.RULES words each).
_WRONG_STATE: dict[tuple[Status, Event], str] = {
    (PLAYING, "start"): "game_running",
    (PLAYING, "rematch"): "game_still_running",
    (WAITING, "rematch"): "no_game_yet",
}


def status_of(text: str) -> Status:
    """A state read back from storage; ValueError when the text names none (a damaged row)."""
    for status in STATES:
        if status == text:
            return status
    raise ValueError(f"not a table state: {text!r}")


def refusal(status: Status, event: Event, empty: list[int]) -> tuple[str, Facts] | None:
    """Why `event` cannot happen now, as (rule, its facts), or None if it may (given the
    empty seats)."""
    if (status, event) not in TRANSITIONS:
        rule = _WRONG_STATE.get((status, event))
        if rule is None:
            return "wrong_state", {"event": event, "status": status}
        return rule, {}
    if event in ("start", "rematch") and empty:
        return "seats_empty", {"seats": list(empty)}
    return None


def leaving_gives_seat_to_bot(status: Status) -> bool:
    """A person giving up a seat mid-game hands it to a stand-in bot; otherwise it is freed."""
    return status == PLAYING


def next_state(status: Status, event: Event) -> Status:
    """The state after `event` (the caller has checked `refusal`)."""
    return TRANSITIONS[(status, event)]


def keeps_absent_seat(status: Status) -> bool:
    """While a game runs an absent person keeps their seat (a bot plays it); outside a game
    nobody waits for them past the grace period."""
    return status == PLAYING
