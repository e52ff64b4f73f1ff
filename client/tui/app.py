"""Wires the model, the network session, the layout and the keys into one running app.

One event loop for everything: Twisted runs on its asyncio reactor and prompt_toolkit's
`Application.run_async()` runs on the same asyncio loop. So network callbacks and key
handlers never race (they run on one thread, one at a time), a network event simply folds
into the model and calls `app.invalidate()` to redraw, and `leekha play` can host its
server in the same process without threads. The alternative, two loops with a thread hop
for every message, buys nothing and costs locking and shutdown ordering.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from twisted.internet.defer import Deferred

from leekha import protocol as P
from leekha.client.exitcodes import INTERRUPTED
from leekha.client.i18n import _
from leekha.client.identity import Identity
from leekha.client.invite import page_of
from leekha.client.session import ClientSession, RetryPolicy, Target
from leekha.client.tokens import TokenStore
from leekha.client.trust import KnownHosts
from leekha.client.tui import model as M
from leekha.client.tui.keys import Actions, build_keys
from leekha.client.tui.layout import STYLE, Options, build_layout
from leekha.protocol.invite import Invite

if TYPE_CHECKING:
    from leekha.protocol.reactor import ReactorTime


class ClientApp:
    """A full-screen client for one server session."""

    def __init__(
        self,
        model: M.ClientModel,
        reactor: ReactorTime,
        host: str,
        port: int,
        *,
        opts: Options | None = None,
        input: Input | None = None,
        output: Output | None = None,
        bot_strategy: str = "random",
        tls: bool = False,
        pin: str | None = None,
        tokens: TokenStore | None = None,
        identity: Identity | None = None,
        known_hosts: KnownHosts | None = None,
        retry: RetryPolicy | None = None,
        refresh_interval: float | None = 0.5,
    ) -> None:
        self.model = model
        self.reactor = reactor
        self.session = ClientSession(
            reactor,
            Target(host, port, tls, pin),
            model.name,
            client=M.CLIENT_NAME,
            on_message=self._message,
            on_lost=self._lost,
            on_retry=self._retry,
            on_failed=self._failed,
            on_notice=self._notice,
            tokens=tokens,
            identity=identity,
            known_hosts=known_hosts,
            retry=retry,
        )
        model.wire(self._send, self.session.new_id, self.session.answered)
        model.server_label = model.server_label or f"{host}:{port}"
        model.social.invite_for = lambda table_id: Invite(
            host, port, table_id, None, tls, self.session.fingerprint
        )
        model.social.page_for = lambda: page_of(self.session)
        self.chat_buffer = Buffer(multiline=False)
        layout, self.frame = build_layout(
            model, opts or Options(ascii=model.ascii), self.chat_buffer
        )
        self.frame.on_frame = self._frame
        keys = build_keys(
            model,
            Actions(
                quit=self.quit,
                interrupt=self.interrupt,
                open_chat=self._open_chat,
                close_chat=self._close_chat,
                send_chat=self._send_chat,
                bot_strategy=bot_strategy,
            ),
        )
        self.app: Application[int] = Application(
            layout=layout,
            key_bindings=keys,
            style=STYLE,
            full_screen=True,
            input=input,
            output=output,
            refresh_interval=refresh_interval,
            mouse_support=False,
        )
        self.app.ttimeoutlen = 0.05
        self.table_drawn_at: float | None = None
        self._item_timer: asyncio.TimerHandle | None = None
        self._item_at: float | None = None  # the timeline's due time that timer is for
        # A key may end the timeline's current item, and the next one starts its own time.
        self.app.key_processor.after_key_press += lambda _kp: self._after_change()
        #: What the session said for the player (first TLS contact), also printed on exit.
        self.notices: list[str] = []
        self._watchers: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []

    # ---- hooks -------------------------------------------------------------------------
    def _message(self, msg: P.Message) -> None:
        self.model.apply(msg)
        self._changed()

    def _lost(self, why: str) -> None:
        self.model.connection_lost(why)
        self._changed()

    def _retry(self, attempt: int, delay: float) -> None:
        self.model.reconnect_scheduled(attempt, delay)
        self._changed()

    def _failed(self, why: str) -> None:
        self.model.connection_failed(why)
        self._changed()

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        self.model.say(text)
        self._changed()

    def _send(self, msg: P.Message) -> bool:
        if self.session.send(msg):
            return True
        self.model.say(_("not connected: that did not reach the server, try again"), error=True)
        return False

    def _frame(self, _n: int) -> None:
        if self.table_drawn_at is None and self.model.screen == M.TABLE and self.model.hand:
            self.table_drawn_at = time.perf_counter()
        self._check_watchers()

    def _changed(self) -> None:
        self.app.invalidate()
        self._check_watchers()
        self._after_change()

    def _after_change(self) -> None:
        """Ring the bell if the model asks, and wake up when the timeline's current item
        (a finished trick, a round's summary) is due to end."""
        m = self.model
        if m.alarm.ring:
            m.alarm.ring = False
            self.app.output.bell()
            self.app.output.flush()
        until = m.timeline.until
        if until is not None and until != self._item_at:
            # A key that ended an item early leaves its timer behind: the next item must
            # not wait for it (a round summary's would stall the next trick 4 s).
            if self._item_timer is not None:
                self._item_timer.cancel()
                self._item_timer = None
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            self._item_timer = loop.call_later(max(0.0, until - m.clock()), self._item_due)
            self._item_at = until

    def _item_due(self) -> None:
        self._item_timer = None
        self._item_at = None
        if self.model.tick():
            self._changed()
        elif self.model.timeline.until is not None:
            self._after_change()

    def _check_watchers(self) -> None:
        keep = []
        for pred, fut in self._watchers:
            if fut.done():
                continue
            if pred():
                fut.set_result(None)
            else:
                keep.append((pred, fut))
        self._watchers = keep

    def when(self, predicate: Callable[[], bool]) -> asyncio.Future[None]:
        """A future that resolves once `predicate()` holds after a message or a frame."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if predicate():
            fut.set_result(None)
        else:
            self._watchers.append((predicate, fut))
        return fut

    # ---- actions -----------------------------------------------------------------------
    def quit(self, code: int = 0) -> None:
        """End the screen; `run` returns `code`, the command's exit status."""
        if self.app.is_running and not self.app.future.done():  # type: ignore[union-attr]
            self.app.exit(result=code)

    def interrupt(self) -> None:
        """Ctrl-C, a key on the screen (the terminal sends no SIGINT in raw mode): ends
        with 130, as the command ends when interrupted anywhere else."""
        self.quit(INTERRUPTED)

    def _open_chat(self) -> None:
        self.model.chat_open = True
        self.chat_buffer.reset()
        self.app.layout.focus(self.chat_buffer)

    def _close_chat(self) -> None:
        self.model.chat_open = False
        self.app.layout.focus_last()

    def _send_chat(self) -> None:
        text = self.chat_buffer.text
        self.model.send_chat(text)
        self._close_chat()

    # ---- running -----------------------------------------------------------------------
    async def connect(self) -> P.Welcome:
        """Connect and handshake; raises session.ConnectFailed with a message for the player."""
        return await Deferred.asFuture(self.session.connect(), asyncio.get_running_loop())

    async def run(self) -> int:
        """Run the screen until the player quits; then hang up cleanly."""
        try:
            result = await self.app.run_async()
        finally:
            await Deferred.asFuture(self.session.close(), asyncio.get_running_loop())
        return int(result or 0)
