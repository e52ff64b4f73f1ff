"""Server bots: the seats a bot plays, stand-ins for absent players, and timed-out turns.

A bot decides from a frozen seat view, maybe on a thread (`TableOptions.think`), so a slow
search never stalls the reactor; its answer is used only if the same decision is still
pending when it arrives. How it is run is the adapter's (leekha.server.app puts it on the
reactor's thread pool): the autopilot only hands over the decision and two callbacks.
Whatever goes wrong (the strategy raises, its answer is refused) ends in one fallback
policy, `fallback`: some legal move for the seat, so a table never waits on a broken bot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Protocol

from twisted.logger import Logger

from leekha.common.bots.base import Strategy, decide, make_strategy
from leekha.common.game import Game
from leekha.common.view import seat_view
from leekha.server.domain.clock import Clock, Timer
from leekha.server.domain.errors import StoreFailed
from leekha.server.domain.seats import DEFAULT_BOT, Seat
from leekha.server.domain.turns import Key

log = Logger()

Actions = list[dict[str, object]]
#: A bot's answer, and what its strategy raised instead.
Done = Callable[[Actions], None]
Failed = Callable[[BaseException], None]
#: Runs a bot's decision and calls exactly one of `done` and `failed` with the outcome,
#: now or later but on the reactor's thread: the server passes a thread-pool runner so a
#: slow strategy (search) never stalls the reactor, tests the inline default.
Think = Callable[[Callable[[], Actions], Done, Failed], None]
#: The strategy of the one fallback policy: any legal move.
FALLBACK = "random"


def think_inline(decide_now: Callable[[], Actions], done: Done, failed: Failed) -> None:
    try:
        actions = decide_now()
    except Exception as exc:
        failed(exc)
        return
    done(actions)


def build_strategy(name: str, seed: int) -> Strategy:
    """A registered strategy, falling back to `random` while a tier is not available."""
    try:
        return make_strategy(name, seed)
    except ValueError:
        return make_strategy(FALLBACK, seed)


class Driver(Protocol):
    """What the autopilot needs from its table."""

    id: int
    closed: bool
    game: Game | None

    def seat(self, i: int) -> Seat | None: ...

    def needs(self) -> dict[int, Key]: ...

    def commit(self, action: Mapping[str, object]) -> None: ...

    def after_change(self) -> None: ...

    def server_moved(self, i: int, actions: Actions, why: str) -> None: ...


class Autopilot:
    def __init__(self, table: Driver, clock: Clock, delay_s: float, think: Think) -> None:
        self.table = table
        self.clock = clock
        self.delay_s = delay_s
        self.think = think
        self.seed = 0
        self._strategies: dict[tuple[int, str], Strategy] = {}
        self._call: Timer | None = None
        self._thinking = False

    def new_game(self, seed: int) -> None:
        self.seed = seed
        self._strategies.clear()

    def stop(self) -> None:
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None

    def _strategy(self, i: int, name: str) -> Strategy:
        key = (i, name)
        if key not in self._strategies:
            self._strategies[key] = build_strategy(name, self.seed + i)
        return self._strategies[key]

    def _bot_played(self, i: int) -> bool:
        """Seat i is played by the server (a bot, or a person's stand-in)."""
        seat = self.table.seat(i)
        return seat is not None and seat.autopilot

    def _bot_turn(self, i: int, key: Key | None = None) -> bool:
        """Seat i is bot-played and must decide now (the decision `key`, if given)."""
        needs = self.table.needs()
        return (
            not self.table.closed
            and self._bot_played(i)
            and i in needs
            and (key is None or needs[i] == key)
        )

    def wake(self, needs: Mapping[int, Key] | None = None) -> None:
        """Schedule the next bot decision if a bot-played seat must act and none is under way.
        `needs`: the decisions pending now, when the caller has just worked them out."""
        if self._call is not None or self._thinking:
            return
        table = self.table
        if table.closed:
            return
        if needs is None:
            needs = table.needs()
        # `_bot_turn(i)` for each seat of `needs`, without working `needs` out again.
        for i in needs:
            if self._bot_played(i):
                self._call = self.clock.callLater(self.delay_s, self._step)
                return

    def _step(self) -> None:
        """Let the first bot-played seat that must act decide, maybe off the reactor."""
        self._call = None
        game = self.table.game
        if self.table.closed or game is None:
            return
        for i, key in self.table.needs().items():
            seat = self.table.seat(i)
            if seat is None or not seat.autopilot:
                continue
            strategy = self._strategy(i, seat.strategy if seat.is_bot else DEFAULT_BOT)
            view = seat_view(game, i)  # a frozen copy: safe to read from a thread
            self._thinking = True
            self.think(
                partial(decide, strategy, view),
                partial(self._decided, i=i, key=key, doubles=seat.is_bot),
                partial(self._failed, i=i, key=key, doubles=seat.is_bot),
            )
            return
        self.table.after_change()

    def _decided(self, actions: Actions, i: int, key: Key, doubles: bool) -> None:
        self._thinking = False
        if self._bot_turn(i, key):  # else the player took the seat back, or the table closed
            self.apply(i, actions, doubles=doubles, why="bot")
        self.table.after_change()

    def _failed(self, error: BaseException, i: int, key: Key, doubles: bool) -> None:
        self._thinking = False
        # twisted.logger's `failure` logs the exception being handled, with its traceback,
        # so the error is raised once more here rather than wrapped in a Failure (which
        # would import twisted.python into the domain).
        try:
            raise error
        except BaseException:
            log.failure("table {table}: bot failed", table=self.table.id)
        if self._bot_turn(i, key):
            self.apply(i, None, doubles=doubles, why="bot")
        self.table.after_change()

    def play_now(self, i: int, why: str) -> None:
        """Decide at once for a human's seat (a timeout): the default bot, no doubling."""
        game = self.table.game
        assert game is not None
        try:
            actions: Actions | None = decide(self._strategy(i, DEFAULT_BOT), seat_view(game, i))
        except Exception:
            log.failure("table {table}: bot failed", table=self.table.id)
            actions = None
        self.apply(i, actions, doubles=False, why=why)

    def fallback(self, i: int) -> Actions:
        """The one fallback policy: some legal move for seat i, from a fresh view."""
        game = self.table.game
        assert game is not None
        return [
            dict(a) for a in decide(build_strategy(FALLBACK, game.seed + i), seat_view(game, i))
        ]

    def apply(self, i: int, actions: Actions | None, *, doubles: bool, why: str) -> None:
        """Commit a bot's actions for seat i; if there are none or one is refused, the
        fallback's. `actions` None means the strategy failed to answer."""
        done: Actions = []
        try:
            try:
                if actions is None:
                    raise LookupError("no decision")
                for action in actions:
                    if doubles or action["kind"] != "double":
                        self.table.commit(action)
                        done.append(dict(action))
            except StoreFailed:
                raise
            except Exception as exc:
                log.warn(
                    "table {table} seat {seat}: bot move not usable ({why}); playing a legal one",
                    table=self.table.id,
                    seat=i,
                    why=getattr(exc, "code", type(exc).__name__),
                )
                for action in self.fallback(i):
                    self.table.commit(action)
                    done.append(action)
        except StoreFailed:
            return  # logged once; the server fail-stops (leekha.server.domain.outbox)
        except Exception:
            log.failure("table {table}: fallback move failed", table=self.table.id)
        if done:
            self.table.server_moved(i, done, why)
