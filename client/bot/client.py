"""One headless bot seat: the session, the client core and the bot's policy, wired.

`BotClient` is the transport glue and nothing more: the resumable session (handshake,
resume after a drop, back-off: `client.session`'s, shared with the terminal client; the
first connection is not retried, so a bad address fails fast with a clear message) hands
each message to the `ClientCore`, whose changes go to the `BotPolicy`
(client/bot/policy.py); the policy's intents are sent through the core, its timers are
set on the reactor, and its `Seated`, `Stop` and `Fail` fire this seat's Deferreds. What
the seat decides, when it retries and how it never stalls are the policy's alone.
"""

from __future__ import annotations

import random

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from leekha import protocol as P
from leekha.client.bot.options import (
    BotOptions,
    Cancel,
    Effect,
    EntryRefused,
    Fail,
    Later,
    Seated,
    Stop,
)
from leekha.client.bot.policy import BotPolicy
from leekha.client.core.core import ClientCore
from leekha.client.session import ClientSession, ConnectFailed, Target, retry_policy
from leekha.common.bots.base import Strategy
from leekha.protocol.reactor import DelayedCall, ReactorTime

__all__ = ["CLIENT", "BotClient", "BotOptions", "ConnectFailed", "EntryRefused"]

log = Logger()

CLIENT = "leekha-bot 0.1"


class BotClient:
    """One seat. `done` fires with an exit code (0 = finished its games), or fails with
    ConnectFailed when the very first connection cannot be made; `seated` fires once the
    bot first sits at its table."""

    def __init__(
        self,
        reactor: ReactorTime,
        options: BotOptions,
        *,
        strategy: Strategy | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.reactor = reactor
        self.options = options
        self.rng = rng or random.Random(options.seed)
        self.done: defer.Deferred[int] = defer.Deferred()
        self.seated: defer.Deferred[None] = defer.Deferred()
        self.stopping = False
        self._name_tries = 0
        self._timers: dict[str, DelayedCall] = {}
        self.session = ClientSession(
            reactor,
            Target(options.host, options.port, options.tls),
            options.name,
            client=CLIENT,
            on_message=self._received,
            on_lost=self._lost,
            on_retry=self._retrying,
            on_failed=lambda why: self._fail(ConnectFailed(why)),
            on_refused=self._refused,
            retry=retry_policy(options.backoff_first, options.backoff_cap, self.rng),
            connect_timeout=options.connect_timeout,
            identity=options.identity,
        )
        self.core = ClientCore(
            self.session.send,
            self.session.new_id,
            answered=self.session.answered,
            clock=reactor.seconds,
        )
        self.policy = BotPolicy(options, self.core, strategy=strategy, rng=self.rng)

    @property
    def name(self) -> str:
        return self.policy.name

    # ---- public ------------------------------------------------------------------------
    def start(self) -> None:
        self.session.connect().addErrback(self._first_failed)

    def stop(self) -> defer.Deferred[int]:
        """Hang up for good (SIGINT/SIGTERM or finished); fires `done`."""
        if not self.stopping:
            self.stopping = True
            self._cancel_all()
            self.session.close().addBoth(lambda _: self._finish(0))
        return self.done

    def perform(self, effects: list[Effect]) -> None:
        """Carry out what the policy asked for, in order."""
        for effect in effects:
            if self.stopping:
                return
            match effect:
                case Later(timer, delay):
                    self._cancel(timer)
                    self._timers[timer] = self.reactor.callLater(max(0.0, delay), self._fire, timer)
                case Cancel(timer):
                    self._cancel(timer)
                case Seated():
                    if not self.seated.called:
                        self.seated.callback(None)
                case Stop():
                    self.stop()
                case Fail(error):
                    self._fail(error)
                case _:
                    self.core.request(effect)

    # ---- the policy's timers -----------------------------------------------------------
    def _fire(self, timer: str) -> None:
        self._timers.pop(timer, None)
        self.perform(self.policy.fired(timer))

    def _cancel(self, timer: str) -> None:
        call = self._timers.pop(timer, None)
        if call is not None and call.active():
            call.cancel()

    def _cancel_all(self) -> None:
        for timer in list(self._timers):
            self._cancel(timer)

    # ---- the session -------------------------------------------------------------------
    def _received(self, msg: P.Message) -> None:
        self.perform(self.policy.changed(self.core.receive(msg)))

    def _lost(self, why: str) -> None:
        self._cancel_all()
        self.perform(self.policy.changed(self.core.lost(why)))
        if not self.stopping:
            log.info("{bot}: connection lost ({why})", bot=self.name, why=why)

    def _first_failed(self, failure: Failure) -> None:
        if self.stopping:
            self._finish(0)
        else:
            exc = failure.value
            self._fail(exc if isinstance(exc, ConnectFailed) else ConnectFailed(str(exc)))

    def _retrying(self, attempt: int, delay: float) -> None:
        if attempt > self.options.max_retries:
            log.error(
                "{bot}: giving up after {n} reconnects", bot=self.name, n=self.options.max_retries
            )
            # Not from inside ClientService's own retry step: on the next turn.
            self.reactor.callLater(0, self._give_up)
            return
        log.info("{bot}: reconnecting in {delay:.2f}s", bot=self.name, delay=delay)

    def _give_up(self) -> None:
        self.stopping = True
        self._cancel_all()
        self.session.close().addBoth(lambda _: self._finish(1))

    def _refused(self, msg: P.Error) -> str | None:
        """A refused hello: try another name when ours is taken (not in a tournament,
        where the name is what makes us the entrant)."""
        if msg.code == "bad_name" and self._name_tries < 5 and self.options.tournament is None:
            self._name_tries += 1
            return f"{self.options.name}-{self.rng.randrange(1000, 10000)}"
        return None

    def _finish(self, code: int) -> None:
        self._cancel_all()
        if not self.done.called:
            self.done.callback(code)

    def _fail(self, exc: Exception) -> None:
        self.stopping = True
        self._cancel_all()
        self.session.close()
        if not self.done.called:
            self.done.errback(exc)
