"""Whose decision is pending, the turn timers, and the `your_turn` prompts.

A decision is named by a key (phase, round, and in play the trick and card index), so a
timer or a late bot answer for a decision that has already been made is recognised and
dropped. A reconnect never earns extra time: the running deadline is kept.
"""

from __future__ import annotations

from collections.abc import Callable

from leekha.common.game import PASS, PLAY, Game
from leekha.protocol import catalogue as M
from leekha.server.domain.clock import Clock, Timer
from leekha.server.domain.seats import Seat

Key = tuple[str | int, ...]


def pending(game: Game | None, playing: bool) -> dict[int, Key]:
    """Seats that must decide now, each with the key naming that decision."""
    if game is None or not playing:
        return {}
    if game.phase == PASS:
        return {i: (PASS, game.round_no) for i in range(4) if game.passed[i] is None}
    if game.phase == PLAY and game.turn is not None:
        return {game.turn: (PLAY, game.round_no, len(game.tricks), len(game.trick))}
    return {}


def prompt_for(game: Game, i: int, left: float | None) -> M.YourTurn | None:
    """The `your_turn` for seat i, or None when it has nothing to choose."""
    legal = game.choosable(i)  # the view's `legal`, without building the whole view
    if not legal:
        return None
    phase = PASS if game.phase == PASS else PLAY
    # Sorted here: a card set goes out sorted, and `trusted` does not sort it.
    doubles = sorted(game.can_double(i)) if phase == PASS else []
    return M.YourTurn.trusted(phase=phase, legal=legal, deadline=left, can_double=doubles)


def count_timeout(seat: Seat, afk_limit: int) -> bool:
    """One more timeout in a row; True when the seat has just become AFK."""
    seat.timeouts += 1
    if seat.timeouts >= afk_limit and not seat.afk:
        seat.afk = True
        return True
    return False


class Turns:
    """The decision each seat was last prompted for, and its running timer."""

    def __init__(self, clock: Clock, expired: Callable[[int, Key], None]) -> None:
        self.clock = clock
        self.expired = expired
        self.decision: list[Key | None] = [None] * 4
        self._deadline: list[float | None] = [None] * 4
        self._timers: list[Timer | None] = [None] * 4

    def update(
        self,
        needs: dict[int, Key],
        human: Callable[[int], bool],
        limit: Callable[[Key], float | None],
    ) -> list[int]:
        """Follow the decisions now pending; returns the seats to prompt (timers armed)."""
        fresh = []
        for i in range(4):
            key = needs.get(i)
            if key == self.decision[i]:
                continue
            self.decision[i] = key
            self.cancel(i)
            if key is None or not human(i):
                continue
            seconds = limit(key)
            if seconds:
                self._deadline[i] = self.clock.seconds() + seconds
                self._timers[i] = self.clock.callLater(seconds, self._fire, i, key)
            fresh.append(i)
        return fresh

    def _fire(self, i: int, key: Key) -> None:
        self._timers[i] = None
        self._deadline[i] = None
        self.expired(i, key)

    def running(self, i: int) -> bool:
        return self._timers[i] is not None

    def forget(self, i: int) -> None:
        """Prompt seat i afresh at the next update (a new timer, a new `your_turn`)."""
        self.decision[i] = None

    def forget_all(self) -> None:
        self.decision = [None] * 4

    def deadline(self, i: int) -> float | None:
        """When seat i's running timer fires (server clock), None without one."""
        return self._deadline[i]

    def left(self, i: int) -> float | None:
        deadline = self._deadline[i]
        return None if deadline is None else max(0.0, deadline - self.clock.seconds())

    def cancel(self, i: int) -> None:
        call = self._timers[i]
        if call is not None and call.active():
            call.cancel()
        self._timers[i] = None
        self._deadline[i] = None

    def cancel_all(self) -> None:
        for i in range(4):
            self.cancel(i)
