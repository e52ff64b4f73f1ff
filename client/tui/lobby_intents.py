"""What the player does in the lobby: join or watch a table (asking its password first),
create one with the form, quick play, everyone's statistics and the tournaments.

Each intent asks the server; the table arrives as the server's snapshot (the replies), so
nothing here changes where we are. A feature the server does not speak is said so at once.
"""

from __future__ import annotations

from collections.abc import Callable

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.i18n import _
from leekha.client.tui.forms import CreateForm, PasswordPrompt
from leekha.client.tui.lobby_pick import LobbyPick
from leekha.client.tui.overlays import StatsBox
from leekha.client.tui.shared import Shared
from leekha.client.tui.tournament import TournamentScreen
from leekha.client.tui.words import table_name_for
from leekha.protocol import version as V


class LobbyActions:
    def __init__(
        self, shared: Shared, lobby: LobbyPick, profiles: Callable[[list[str]], None]
    ) -> None:
        self.s = shared
        self.lobby = lobby
        self._profiles = profiles  # opens the profile box of these names
        #: An invitation's table, joined once welcomed: (table id, password or None).
        self.invited: tuple[int, str | None] | None = None
        #: What quick play asks for (Q in the lobby; `leekha join --quick` at once); its
        #: id is replaced by a fresh one each time.
        self.quick = P.QuickPlay(id=0)
        self.quick_now = False
        #: When the bots come to the table quick play opened for us (our clock), while it
        #: waits for people: the waiting room counts down to it.
        self.quick_until: float | None = None
        #: The tournament we entered: its games seat us unasked, with the bell and a notice.
        self.entered: int | None = None

    # ---- tables --------------------------------------------------------------------------
    def enter(self) -> None:
        """Enter in the lobby: the profile of the name chosen under a table, else join."""
        name = self.lobby.chosen_person()
        if name is not None:
            self._profiles([name])
        else:
            self.join_selected()

    def join_selected(self, *, spectate: bool = False) -> None:
        table = self.lobby.selected()
        if table is None:
            self.s.say(_("no table to join: press n to create one"))
            return
        if table.get("has_password"):
            self.s.boxes.open(PasswordPrompt(int(table["id"]), spectate=spectate))
            return
        self.join(int(table["id"]), None, spectate)

    def join(self, table_id: int, password: str | None, spectate: bool) -> None:
        if spectate:
            self.s.request(I.Spectate(table_id, password))
        else:
            self.s.request(I.JoinTable(table_id, password))

    def password_type(self, text: str) -> None:
        if self.s.boxes.password_prompt is not None:
            self.s.boxes.password_prompt.type(text)

    def password_backspace(self) -> None:
        if self.s.boxes.password_prompt is not None:
            self.s.boxes.password_prompt.backspace()

    def password_submit(self) -> None:
        prompt = self.s.boxes.password_prompt
        self.s.boxes.shut(PasswordPrompt)
        if prompt is not None:
            self.join(prompt.table_id, prompt.typed or None, prompt.spectate)

    def refresh(self) -> None:
        self.s.request(I.ListTables())

    def start_quick(self) -> None:
        """Lobby: one request, and the server seats us (or opens a table bots complete)."""
        if not self.s.link.speaks(V.QUICK_PLAY):
            self.s.say(_("this server has no quick play (protocol 1.4 needed)"), error=True)
            return
        q = self.quick
        self.s.request(I.QuickPlay(q.preset, dict(q.overrides), q.bot, q.wait_s))
        self.s.say(_("quick play: finding you a seat…"), transient=True)

    # ---- the create form -------------------------------------------------------------------
    def open_form(self) -> None:
        self.s.boxes.open(CreateForm(name=table_name_for(self.s.name, _("{name}'s table"))))

    def form_move(self, step: int) -> None:
        if self.s.boxes.form is not None:
            self.s.boxes.form.move(step)

    def form_change(self, step: int) -> None:
        if self.s.boxes.form is not None:
            self.s.boxes.form.change(step)

    def form_backspace(self) -> None:
        if self.s.boxes.form is not None:
            self.s.boxes.form.backspace()

    def form_type(self, text: str) -> None:
        problem = self.s.boxes.form.type(text) if self.s.boxes.form is not None else None
        if problem is not None:
            self.s.say(problem, error=True)

    def form_submit(self) -> None:
        f = self.s.boxes.form
        if f is None:
            return
        problem = f.problem()
        if problem is not None:
            self.s.say(problem, error=True)
            return
        self.s.boxes.shut(CreateForm)
        # A server before 1.2 knows no `counting_aid`: it is asked for only where it means
        # something.
        counting = f.counting_aid or not self.s.link.speaks(V.COUNTING_AID)
        self.s.request(
            I.CreateTable(
                f.name.strip(),
                f.preset,
                {} if f.target is None else {"target": f.target},
                f.password or None,
                f.pass_timer,
                f.turn_timer,
                counting,
            )
        )

    # ---- statistics --------------------------------------------------------------------------
    def open_stats(self) -> None:
        """Ask for everyone's statistics and show them as they arrive."""
        if not self.s.link.speaks(V.STATS):
            self.s.say(_("this server keeps no statistics (protocol 1.0)"), error=True)
            return
        self.s.boxes.open(StatsBox())
        self.s.request(I.GetStats())

    def close_stats(self) -> None:
        self.s.boxes.shut(StatsBox)
        # A late reply must not reopen or refill the overlay.
        self.s.core.requests.drop(lambda asked: isinstance(asked.note, I.GetStats))

    def stats_move(self, step: int) -> None:
        box = self.s.boxes.get(StatsBox)
        if box is not None:
            box.move(step)

    def stats_profile(self) -> None:
        """Enter on a name in the statistics: that player's profile."""
        rows = self.s.boxes.stats or []
        if 0 <= self.s.boxes.stats_cursor < len(rows):
            self._profiles([str(rows[self.s.boxes.stats_cursor]["name"])])

    # ---- tournaments ---------------------------------------------------------------------------
    def open_tournaments(self) -> None:
        """The server's tournaments; Enter follows one, Enter on a table watches."""
        if not self.s.link.speaks(V.TOURNAMENTS):
            self.s.say(_("this server does not run tournaments (protocol 1.3 needed)"), error=True)
            return
        screen = TournamentScreen(self.s.request, self.s.core.tournaments, clock=self.s.clock)
        self.s.boxes.open(screen)
        screen.open()

    def tournament_move(self, step: int) -> None:
        if self.s.boxes.tournaments is not None:
            self.s.boxes.tournaments.move(step)

    def tournament_refresh(self) -> None:
        if self.s.boxes.tournaments is not None:
            self.s.boxes.tournaments.refresh()

    def tournament_join(self) -> None:
        """e on a followed tournament: take part as the entrant of our name."""
        screen = self.s.boxes.tournaments
        if screen is not None and screen.following is not None:
            self.s.request(I.EnterTournament(screen.following))

    def tournament_enter(self) -> None:
        screen = self.s.boxes.tournaments
        table_id = screen.enter() if screen is not None else None
        if table_id is not None:
            self.s.boxes.shut(TournamentScreen)
            self.join(table_id, None, spectate=True)
