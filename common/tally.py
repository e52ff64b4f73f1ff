"""Every seat's statistics of one game, folded from the engine's own events.

The game-over box, a finished table's view and the records all show these figures, so
they are counted once, here, from what the engine said happened (`TrickTaken`,
`RoundScored`), never by a client that may have missed events while it was away.
"""

from __future__ import annotations

from collections.abc import Iterable

from leekha.common.events import Event, RoundScored, SeatStats, TrickTaken

__all__ = ["SeatStats", "Tally"]


class Tally:
    """Tricks taken, Leekha cards taken, moons shot and points per round, per seat."""

    __slots__ = ("leekhas", "moons", "rounds", "tricks")

    def __init__(self) -> None:
        self.tricks = [0, 0, 0, 0]
        self.leekhas = [0, 0, 0, 0]
        self.moons = [0, 0, 0, 0]
        self.rounds: list[list[int]] = [[], [], [], []]

    def fold(self, events: Iterable[Event]) -> None:
        for event in events:
            if isinstance(event, TrickTaken):
                self.tricks[event.winner] += 1
                self.leekhas[event.winner] += len(event.leekha)
            elif isinstance(event, RoundScored):
                if event.moon is not None:
                    self.moons[event.moon] += 1
                for seat in range(4):
                    self.rounds[seat].append(event.points[seat])

    def to_list(self) -> list[SeatStats]:
        """The wire's per-seat statistics (protocol 1.4 `SeatStats`)."""
        return [
            {
                "tricks": self.tricks[s],
                "leekhas": self.leekhas[s],
                "moons": self.moons[s],
                "rounds": list(self.rounds[s]),
            }
            for s in range(4)
        ]
