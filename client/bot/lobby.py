"""How a bot seat finds its table: a tournament's, one of a name, or one it creates.

The lobby half of `client.bot.client.BotClient`: enter the tournament, or list the tables
and join the lowest-numbered open one of the wanted name, create it when it is still
absent after a second look, and leave a table it sits at alone for a while (two bots that
created the same name at once). Snapshots and seat updates land here too: they say where
the bot sits and when its table can start.
"""

from __future__ import annotations

from leekha import protocol as P
from leekha.client.bot.seat import BotSeat, EntryRefused, Note, log
from leekha.client.bot.view import OVER


class LobbySteps(BotSeat):
    """The lobby steps of a bot seat."""

    def _enter_lobby(self) -> None:
        o = self.options
        if o.tournament is not None:
            # Entering again (after a reconnect) is harmless: the server keeps us as the
            # entrant, and seats us when our next game begins.
            enter = P.EnterTournament(id=self._new_id(), tournament_id=o.tournament)
            self._send(enter, Note("enter"))
        elif o.create is not None and not self.created:
            self._create(o.create)
        else:
            self._send(P.ListTables(id=self._new_id()), Note("list"))

    def _create(self, name: str) -> None:
        o = self.options
        msg = P.CreateTable(
            id=self._new_id(),
            name=name,
            preset=o.preset,
            overrides=dict(o.overrides),
            password=o.password,
        )
        self._send(msg, Note("create"))

    def _on_table_list(self, msg: P.TableList) -> None:
        note = self._take(msg)
        if note.kind != "list" or self.table_id is not None:
            return
        wanted = self.options.table or self.options.create
        named = sorted((t for t in msg.tables if t["name"] == wanted), key=lambda t: t["id"])
        open_ = [
            t
            for t in named
            if t["status"] == "waiting"
            and any(s["name"] is None for s in t["seats"])
            and (not t["has_password"] or self.options.password is not None)
        ]
        if open_:
            join = P.JoinSeat(
                id=self._new_id(), table_id=open_[0]["id"], password=self.options.password
            )
            self._send(join, Note("join"))
        elif any(t["has_password"] for t in named) and self.options.password is None:
            self._fail(EntryRefused(f"table {wanted!r} has a password: give it with --password"))
        elif named or note.confirm:
            if not named:
                self._create(str(wanted))
            else:
                if not self._said_busy:
                    self._said_busy = True
                    log.info("{bot}: table {name!r} is busy; waiting", bot=self.name, name=wanted)
                self._later("lobby", 2.0, self._enter_lobby)
        else:
            # Absent: look once more after a random pause, so bots started together do
            # not all create a table of the same name.
            delay = self.rng.random() * self.options.create_jitter_s
            self._later(
                "lobby",
                delay,
                lambda: self._send(P.ListTables(id=self._new_id()), Note("list", confirm=True)),
            )

    def _on_table_update(self, msg: P.TableUpdate) -> None:
        return

    def _on_tournament_state(self, msg: P.TournamentState) -> None:
        t = msg.tournament
        if self._take(msg).kind == "enter" and not self.seated.called:
            log.info(
                "{bot}: entered tournament {id} {name!r}; waiting to be seated",
                bot=self.name,
                id=t["id"],
                name=t["name"],
            )
            self.seated.callback(None)
        if t["status"] == "finished" and self.table_id is None:
            log.info("{bot}: tournament {id} finished", bot=self.name, id=t["id"])
            self.stop()

    def _on_snapshot(self, msg: P.Snapshot) -> None:
        if self._resume_probe is not None:
            self._resume_probe = None
        was_over = self.tracker.view.phase == OVER
        was_playing = self.status == "playing" and not was_over
        self.tracker.apply(msg)
        if self.options.tournament is not None and self.table_id != msg.table["id"]:
            log.info("{bot}: seated for a tournament game at table {t}", bot=self.name,
                     t=msg.table["id"])  # fmt: skip
        self.table_id = int(msg.table["id"])
        self.status = str(msg.table["status"])
        seat = msg.your_seat
        self.occupied = [p["name"] is not None for p in msg.players]
        self.is_host = seat is not None and bool(msg.players[seat].get("is_host"))
        if seat is None:
            log.warn("{bot}: not seated at table {t}; leaving", bot=self.name, t=self.table_id)
            self.table_id = None  # a seatless snapshot must not stop the lobby's lookup
            return
        if not self.seated.called:
            # Seats are counted from 1 wherever a person reads them, logs included.
            log.info("{bot}: seat {seat} at table {t}", bot=self.name, seat=seat + 1,
                     t=self.table_id)  # fmt: skip
            if self.is_host:
                self.created = True
            self.seated.callback(None)
        if was_playing and self.tracker.view.phase == OVER:
            self._game_over()  # the game ended while we were away
            return
        self._maybe_start()
        self._lonely_check()
        if self.tracker.my_move():
            self._think()

    def _on_seat_update(self, msg: P.SeatUpdate) -> None:
        if msg.table_id != self.table_id:
            return
        self.occupied[msg.seat] = msg.player.get("name") is not None
        self._maybe_start()
        self._lonely_check()

    def _maybe_start(self) -> None:
        # After a game, rematch votes (not `start`) begin the next one.
        if self.is_host and self.status == "waiting" and all(self.occupied):
            self._send(P.Start(id=self._new_id()), Note("start"))

    def _lonely_check(self) -> None:
        """A table creator alone for a while leaves and looks the name up again.

        Two bots that create the same name at once each end up alone; the others join
        the lowest id, so the creator of the other one rejoins there. Harmless otherwise
        (an empty table is simply made again), and the pause doubles each time so a bot
        waiting long for company does not churn. A bot that was told to create its table
        (`--create`) never leaves it: it hosts, and an invitation to it stays good.
        """
        if (
            self.is_host
            and self.options.table is not None
            and self.options.create is None  # `--create`: it hosts, and waits for people
            and self.status == "waiting"
            and sum(self.occupied) == 1
        ):
            if "lonely" not in self._timers:
                delay = min(60.0, self.options.lonely_s * 2**self._lonely_count)
                self._later("lonely", delay, self._lonely)
        else:
            self._cancel("lonely")

    def _lonely(self) -> None:
        if self.status == "waiting" and sum(self.occupied) == 1 and self.table_id is not None:
            self._lonely_count += 1
            # Said, not debug: a person watching the log sees why the table's number changes.
            log.info(
                "{bot}: alone at table {t}; leaving it to look for {name!r} again",
                bot=self.name,
                t=self.table_id,
                name=self.options.table,
            )
            self._send(P.Leave(id=self._new_id()), Note("leave"))
            self.table_id = None
            self.is_host = False
            self._enter_lobby()
