"""The server's tournaments as this client last heard of them: the list it answered with
(`tournament_list`), and each tournament's state by id as it was answered or pushed
(`tournament_state`).

Folded by `ClientCore.receive` alone, so every role that shows tournaments (the terminal's
tournament box) reads one copy, and the screen keeps only what is its own: which one it
shows and where its cursor is. The maps are the server's (protocol/views.py); nothing
here works out a tournament's standings or progress for itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from leekha.protocol.views import Tournament, TournamentSummary


@dataclass
class Tournaments:
    #: The tournaments of the last list answered, newest first as the server sends them;
    #: None while none has been answered on this core.
    listing: list[TournamentSummary] | None = None
    #: The latest state of each tournament heard of (a reply or a push), by id.
    states: dict[int, Tournament] = field(default_factory=dict)

    def listed(self, tournaments: list[TournamentSummary]) -> None:
        self.listing = list(tournaments)

    def stated(self, tournament: Tournament) -> None:
        self.states[int(tournament["id"])] = tournament

    def state(self, tournament_id: int | None) -> Tournament | None:
        """The latest state of tournament `tournament_id` heard of; None if none was."""
        return None if tournament_id is None else self.states.get(tournament_id)
