"""Running tournaments: the plan's games played at ordinary tables of the lobby.

Each planned game becomes a table with no host, seated by the server (server bots by
strategy, each client entrant by the session that entered it) and started with the
game's seed; when it ends, its record is an ordinary finished game and its result is
stored with the record's id in the same commit. A connection sits at one table at a
time, so a client entrant's games follow one another; games of server bots only run side
by side, up to `max_tournament_tables` for all tournaments together.

A client entrant that is not connected when its game is due is waited for `seat_grace_s`
(a blip or a restart is not a departure), then the fallback bot plays that whole game for
it; one that drops or goes silent during a game is played for by the table's timer and
then its stand-in, as at any table. Either way the table tells the runner of every move
the server made for that seat, and the standings count them. One seated at another table
when her game is due is called (`tournament_due`) and covered the same way after
`seat_grace_s`; one only watching a table is taken from it to her game. Nobody elsewhere
holds the other entrants' games.

About 500 lines, as one module on purpose: what is left here after `live` and
`requests` moved out is one state machine (games due, seating, waiting, results), and
each part reads and changes the same state; split further, that state would have to be
passed around between modules.
"""

from __future__ import annotations

from twisted.logger import Logger

from leekha.common.config import RulesConfig
from leekha.common.errors import Facts
from leekha.protocol import catalogue as M
from leekha.protocol import tournaments as T
from leekha.protocol.notices import NOTICES, english
from leekha.protocol.views import empty_seat
from leekha.server.domain.clock import Timer
from leekha.server.domain.lifecycle import PLAYING
from leekha.server.domain.seats import WIRE_NAME_MAX, Seat, stand_in_name
from leekha.server.domain.session import Session
from leekha.server.domain.table import Table
from leekha.server.domain.tablechat import SYSTEM_SENDER
from leekha.server.domain.tournament import plan as P
from leekha.server.domain.tournament.live import (
    FALLBACK,
    FINISHED,
    RUNNING,
    WAITING,
    Live,
    LobbyPort,
    Tournament,
    wire_state,
)
from leekha.server.domain.tournament.requests import TournamentRequests
from leekha.server.domain.tournament.standings import GameResult, order
from leekha.server.domain.tournament.store import Stored, TournamentStore

__all__ = ["FALLBACK", "TournamentRunner"]

log = Logger()


class TournamentRunner:
    """Every tournament of one server: its games started, watched and ended, and a
    restart; the requests about them are `TournamentRequests`'."""

    def __init__(self, lobby: LobbyPort) -> None:
        self.lobby = lobby
        self.clock = lobby.clock
        self.settings = lobby.settings
        self.store = TournamentStore(lobby.store)
        self.tournaments: dict[int, Tournament] = {}
        #: Table id -> (tournament id, game number) of every live game.
        self._tables: dict[int, tuple[int, int]] = {}
        #: Session token -> the tournament it follows (gets `tournament_state` pushes of).
        self.following: dict[str, int] = {}
        self._poke: Timer | None = None
        #: Tables whose game just ended, let go on the next turn (see `game_finished`).
        self._ending: dict[int, Timer] = {}
        self._stopped = False
        #: When each entrant's session lost its connection (or, if it never had one since
        #: this process started, the start): it is waited for `seat_grace_s` from then.
        self._started = self.clock.seconds()
        self._gone: dict[str, float] = {}
        #: (token, tournament id) -> when that entrant was found at another table as a
        #: game of hers was due, and called over (see `_called_since`).
        self._called: dict[tuple[str, int], float] = {}
        #: The sessions that entered a tournament (only their drops are remembered).
        self.entered: set[str] = set()
        self._wake: Timer | None = None
        self._wake_at = 0.0
        self.requests = TournamentRequests(self)

    # ---- requests (leekha.server.domain.tournament.requests) -----------------------------------
    def create(
        self, session: Session, msg: T.CreateTournament, address: str = ""
    ) -> T.TournamentState:
        return self.requests.create(session, msg, address)

    def cancel_request(
        self, session: Session, msg: T.CancelTournament, address: str, operator: bool
    ) -> T.TournamentState:
        return self.requests.cancel(session, msg, address, operator)

    def list(self, msg: T.ListTournaments) -> T.TournamentList:
        return self.requests.list(msg)

    def follow(self, session: Session, msg: T.GetTournament) -> T.TournamentState:
        return self.requests.follow(session, msg)

    def enter(self, session: Session, msg: T.EnterTournament) -> T.TournamentState:
        return self.requests.enter(session, msg)

    # ---- the state on the wire ---------------------------------------------------------
    def _session_of(self, t: Tournament, index: int) -> Session | None:
        token = t.t.tokens.get(index)
        return self.lobby.sessions.get(token) if token is not None else None

    def _present(self, t: Tournament, e: P.Entrant) -> bool:
        if e.name is None:
            return True
        session = self._session_of(t, e.index)
        return session is not None and session.peer is not None

    def state(self, t: Tournament, re: int | None = None) -> T.TournamentState:
        return wire_state(t, self._present, self.clock.seconds(), re)

    def _push(self, t: Tournament) -> None:
        """The new state to the tournament's followers that are in the lobby."""
        msg: T.TournamentState | None = None
        for token, followed in list(self.following.items()):
            if followed != t.id:
                continue
            session = self.lobby.sessions.get(token)
            if session is None:
                del self.following[token]
            elif session.peer is not None and session.table_id is None:
                msg = msg or self.state(t)
                session.send(msg)

    # ---- scheduling --------------------------------------------------------------------
    def poke(self) -> None:
        """Look for games to start on the next reactor turn (once, however often asked)."""
        if self._poke is not None or self.lobby.closing or self._stopped:
            return
        if all(t.t.status == FINISHED for t in self.tournaments.values()):
            return
        self._poke = self.clock.callLater(0, self._schedule)

    def shutdown(self) -> None:
        """Start nothing more (the server stops, or a test crashes it)."""
        self._stopped = True
        for timer in [self._poke, self._wake, *self._ending.values()]:
            if timer is not None and timer.active():
                timer.cancel()
        self._poke = None
        self._wake = None
        self._ending.clear()

    def peer_changed(self, session: Session) -> None:
        """A session connected or lost its connection: an entrant's games may start."""
        if session.token not in self.entered:
            return
        if session.peer is None:
            self._gone[session.token] = self.clock.seconds()
        else:
            self._gone.pop(session.token, None)
        self.poke()

    def _poke_in(self, delay: float) -> None:
        """Look again once an absent entrant's grace, or an entry wait, is over (the
        sooner of those asked for)."""
        due = self.clock.seconds() + delay
        if self._wake is not None and self._wake.active():
            if self._wake_at <= due:
                return
            self._wake.cancel()
        self._wake_at = due
        self._wake = self.clock.callLater(delay, self._woken)

    def _woken(self) -> None:
        self._wake = None
        self.poke()

    def _live_count(self) -> int:
        return len(self._tables)

    def _schedule(self) -> None:
        self._poke = None
        if self.lobby.closing or self._stopped:
            return
        for t in sorted(self.tournaments.values(), key=lambda t: t.id):
            if t.t.status == WAITING:
                self._waited(t)
            if t.t.status != RUNNING:
                continue
            try:
                self._advance(t)
            except Exception:
                log.failure("tournament {id}: scheduling failed", id=t.id)

    def _waited(self, t: Tournament) -> None:
        """Begin a tournament at its start time, or, without one, when its entrants have
        not all entered in `tournament_entry_wait_s`: a name that never comes must not
        hold it, nor its place among `max_tournaments`, for good. Whoever is not here by
        then is waited for `seat_grace_s` more at each game, then the fallback plays."""
        due = t.t.starts_at
        if due is None:
            due = t.since + self.settings.tournament_entry_wait_s
        wait = due - self.clock.seconds()
        if wait > 0:
            self._poke_in(wait)
            return
        running = sum(1 for o in self.tournaments.values() if o.t.status == RUNNING)
        if running >= self.settings.max_tournaments:
            if not t.queued:  # begins when a running one ends (`_after_game` looks again)
                t.queued = True
                t.note("queued")
                self._push(t)
            return
        absent = [e.label for e in t.t.entrants if e.name is not None and e.index not in t.t.tokens]
        self.set_status(t, RUNNING)
        if t.t.starts_at is not None:
            t.note("start_time")
        if absent:
            t.note("not_entered", names=[name[:WIRE_NAME_MAX] for name in absent])
        self._push(t)

    def _advance(self, t: Tournament) -> None:
        pending = t.pending()
        if not pending and not t.live:
            self._next_stage(t)
            pending = t.pending()
            if not pending:
                self._finish(t)
                return
        for game in pending:
            if self._live_count() >= self.settings.max_tournament_tables:
                return
            seated = self._seatable(t, game)
            if seated is not None:
                self._start(t, game, seated)

    def _seatable(self, t: Tournament, game: P.PlannedGame) -> dict[int, Session | None] | None:
        """The session of each client entrant's seat (None: away past its grace, the
        fallback plays), or None when the game must wait: an entrant is at a table now,
        or dropped less than `seat_grace_s` ago (a restart or a blip, not a departure)."""
        out: dict[int, Session | None] = {}
        now = self.clock.seconds()
        for seat, index in enumerate(game.seats):
            if t.t.entrants[index].name is None:
                continue
            session = self._session_of(t, index)
            if self._at_own_game(t, session):
                return None  # its games follow one another: this one after that one
            since = self._called_since(t, game, session)
            if since is not None:  # playing or watching elsewhere: called, then covered
                wait = since + self.settings.seat_grace_s - now
                if wait > 0:
                    self._poke_in(wait)
                    return None
                out[seat] = None
                continue
            if session is not None and session.peer is not None:
                out[seat] = session
                continue
            token = t.t.tokens.get(index)
            since = self._gone.get(token, self._started) if token is not None else self._started
            since = max(since, t.t.starts_at or since)  # away before the start: from then
            wait = since + self.settings.seat_grace_s - now
            if wait > 0:
                self._poke_in(wait)
                return None
            out[seat] = None
        return out

    def _where(self, session: Session | None) -> Table | None:
        """The table the session sits at (None: in the lobby, or only watching one)."""
        if session is None or session.table_id is None:
            return None
        table = self.lobby.tables.get(session.table_id)
        return table if table is not None and table.seat_of(session.token) is not None else None

    def _at_own_game(self, t: Tournament, session: Session | None) -> bool:
        """Whether the session still sits at a game of this tournament."""
        table = self._where(session)
        return table is not None and table.tournament == t.id

    def _called_since(
        self, t: Tournament, game: P.PlannedGame, session: Session | None
    ) -> float | None:
        """When the entrant's session was first found seated at another table as a game
        of hers (`game`) was due; None when it sits at none. Such a person is called once,
        with the `tournament_due` notice, and waited for `seat_grace_s` from then, never
        longer: her absence must not hold the games' other entrants. One who only
        watches a table is not asked: she is taken from it to her game."""
        if session is None:
            return None
        key = (session.token, t.id)
        if self._where(session) is None:
            self._called.pop(key, None)  # back: called again if she goes elsewhere again
            return None
        since = self._called.get(key)
        if since is None:
            since = self._called[key] = self.clock.seconds()
            args: Facts = {
                "name": t.t.name[:WIRE_NAME_MAX],
                "game": P.counted(game.number),
                "grace": round(self.settings.seat_grace_s),
            }
            session.send(
                M.ChatMessage(
                    sender=SYSTEM_SENDER,
                    text=english(NOTICES["tournament_due"], args),
                    table_id=session.table_id,
                    code="tournament_due",
                    args=args,
                )
            )
        return since

    def _table_name(self, t: Tournament, game: P.PlannedGame) -> str:
        tail = f" #{P.counted(game.number)}"
        return t.t.name[: WIRE_NAME_MAX - len(tail)] + tail

    def _start(
        self, t: Tournament, game: P.PlannedGame, sessions: dict[int, Session | None]
    ) -> None:
        timer = t.t.move_timer_s
        rules = RulesConfig.from_dict(t.t.rules)  # the stored tournament's
        table = self.lobby.open_table(self._table_name(t, game), t.t.preset, rules, (timer, timer))
        table.tournament = t.id
        table.watcher = self
        seats: list[Seat] = []
        away: list[tuple[int, str]] = []
        for seat, index in enumerate(game.seats):
            e = t.t.entrants[index]
            session = sessions.get(seat)
            if e.strategy is not None:
                seats.append(Seat(e.label, None, e.strategy, connected=True))
            elif session is not None:
                if session.table_id is not None:  # watching a table: her game comes first
                    self.lobby.leave(session)
                seats.append(Seat(session.name, session.token, connected=True))
                self.lobby.seated(session, table)
            else:
                seats.append(Seat(stand_in_name(e.label), None, FALLBACK, connected=True))
                away.append((seat, e.label))
                t.note("away", game=P.counted(game.number), name=e.label[:WIRE_NAME_MAX])
        clients = [t.t.entrants[i].name is not None for i in game.seats]
        t.live[game.number] = Live(game, table, clients, [0, 0, 0, 0])
        self._tables[table.id] = (t.id, game.number)
        self.store.started(t.id, game.number, table.id)
        table.run(seats, game.seed)
        for seat, label in away:  # everyone at the table hears why a bot plays that seat
            table.notice("tournament_away", name=label[:WIRE_NAME_MAX], seat=seat)
        log.info(
            "tournament {id}: game {n} at table {table}", id=t.id, n=game.number, table=table.id
        )
        self._push(t)

    def _next_stage(self, t: Tournament) -> None:
        """Plan the next Swiss stage once every game of the last one has finished."""
        if t.t.format != P.SWISS or not t.t.games:
            return
        stage = max(g.stage for g in t.t.games) + 1
        if stage >= (t.t.stages or 0):
            return
        field = order(t.t.entrants, t.t.results.values())
        games = P.swiss_stage(field, stage, t.t.deals, t.t.seed, P.meetings(t.t.games))
        self.store.add_games(t.id, games)
        t.t.games.extend(games)
        t.note("stage_drawn", stage=P.counted(stage), stages=t.t.stages)

    def cancel(self, t: Tournament, by: str) -> None:
        """End `t` now: its live games stop (their tables close, the players go back to
        the lobby) and nothing more of it is played."""
        for live in list(t.live.values()):
            del t.live[live.game.number]
            self._tables.pop(live.table.id, None)
            timer = self._ending.pop(live.table.id, None)
            if timer is not None and timer.active():
                timer.cancel()
            self.store.started(t.id, live.game.number, None)
            if not live.table.closed:
                live.table.close()
        self.set_status(t, FINISHED)
        t.note("cancelled", name=by[:WIRE_NAME_MAX])
        log.info("tournament {id} cancelled by {by}", id=t.id, by=by)
        self._push(t)
        self.poke()

    def _finish(self, t: Tournament) -> None:
        self.set_status(t, FINISHED)
        t.note("finished")
        log.info("tournament {id} finished", id=t.id)
        self._push(t)

    def set_status(self, t: Tournament, status: str) -> None:
        t.t.status = status
        self.store.set_status(t.id, status)

    # ---- the tables' watcher -----------------------------------------------------------
    def _live(self, table: Table) -> tuple[Tournament, Live] | None:
        where = self._tables.get(table.id)
        t = self.tournaments.get(where[0]) if where is not None else None
        live = t.live.get(where[1]) if t is not None and where is not None else None
        return (t, live) if t is not None and live is not None else None

    def server_moved(self, table: Table, seat: int, moves: int) -> None:
        found = self._live(table)
        if found is None or not found[1].clients[seat]:
            return
        t, live = found
        live.moves[seat] += moves
        if live.result is not None and table.game is not None:
            # The game's last move ended it before the table told us it was ours.
            self._store_result(t, live.finished(table.game, live.result.record_id or 0))
        else:
            self.store.moved(t.id, live.game.number, live.moves)

    def game_finished(self, table: Table, game_id: int) -> None:
        """Inside the table's game end: store the result in the record's commit; seats
        are given back on the next turn, after everyone has heard `game_over`."""
        found = self._live(table)
        game = table.game
        if found is None or game is None or game.outcome is None:
            return
        t, live = found
        self._store_result(t, live.finished(game, game_id))
        self._ending[table.id] = self.clock.callLater(0, self._after_game, t, live)

    def _store_result(self, t: Tournament, result: GameResult) -> None:
        self.store.finished(t.id, result)
        t.t.results[result.game.number] = result

    def _after_game(self, t: Tournament, live: Live) -> None:
        self._ending.pop(live.table.id, None)
        del t.live[live.game.number]
        del self._tables[live.table.id]
        for seat, moves in enumerate(live.moves):
            if moves:
                label = t.t.entrants[live.game.seats[seat]].label[:WIRE_NAME_MAX]
                t.note("fallback_moves", game=P.counted(live.game.number), moves=moves, name=label)
        self._release(live.table)
        self._push(t)
        self.poke()

    def _release(self, table: Table) -> None:
        """Take the table's players back to the lobby and close it once nobody watches."""
        for i, seat in enumerate(table.seats):
            if table.closed:
                return
            if seat is None or seat.token is None:
                continue
            session = self.lobby.sessions.get(seat.token)
            self.lobby.release(seat.token, table)
            table.leave(seat.token)
            if session is not None:
                empty = empty_seat()
                session.send(M.SeatUpdate(table_id=table.id, seat=i, player=empty))
        if not table.closed and table.room.deserted():
            table.close()

    def table_closed(self, table: Table) -> None:
        """A table closed under a game that had not ended (it should not happen): the
        game is played again from its start."""
        found = self._live(table)
        if found is None or found[1].result is not None:
            return
        t, live = found
        del t.live[live.game.number]
        del self._tables[table.id]
        self.store.started(t.id, live.game.number, None)
        t.note("replayed", game=P.counted(live.game.number))
        self.poke()

    # ---- restart -----------------------------------------------------------------------
    def restore(self) -> int:
        """Bring back every stored tournament: finished games are kept, live ones
        re-attach to their restored tables, the rest are played again."""
        for stored in self.store.load_all():
            try:
                self._restore(stored)
            except Exception:
                log.failure("cannot restore tournament {id}; leaving it out", id=stored.id)
        self.poke()
        return len(self.tournaments)

    def _restore(self, stored: Stored) -> None:
        t = self.tournaments[stored.id] = Tournament(stored, self.clock.seconds())
        for token in stored.tokens.values():
            self.following.setdefault(token, t.id)
            self.entered.add(token)
        for number, table_id in list(stored.tables.items()):
            table = self.lobby.tables.get(table_id)
            game = next((g for g in stored.games if g.number == number), None)
            if game is not None and table is not None and table.status == PLAYING:
                table.tournament = t.id
                table.watcher = self
                clients = [stored.entrants[i].name is not None for i in game.seats]
                moves = stored.moves.get(number, [0, 0, 0, 0])
                t.live[number] = Live(game, table, clients, moves)
                self._tables[table.id] = (t.id, number)
                continue
            del stored.tables[number]
            self.store.started(t.id, number, None)
            if table is not None:
                table.close()
        for table_id in stored.done_tables:
            table = self.lobby.tables.get(table_id)
            if table is not None and table.tournament is None:
                table.close()
