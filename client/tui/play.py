"""`leekha play`: a game against bots with no setup at all.

It starts an embedded server on 127.0.0.1 (a free port) in this process and on this event
loop, creates a table, seats three bots of the best tier installed, starts, and opens the
table. Quitting stops the client, then the server. Finished games are kept in the user's
data folder (`play_data_dir`, its own folder so that a `leekha serve` sharing the machine
never restores these tables), where `leekha records` and `leekha replay` find them.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from leekha.client.i18n import _
from leekha.client.options import (
    STRATEGY_TIERS,
    add_ascii_argument,
    add_rules_arguments,
    default_help,
    default_name,
    in_range,
    no_terminal,
    strategy_help,
)
from leekha.common.bots import BUILTIN, LEVELS

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred

    from leekha.client.tokens import TokenStore
    from leekha.client.tui.app import ClientApp
    from leekha.protocol.reactor import Reactor

DEFAULT_BOT_DELAY_MS = 350
#: How long a finished trick stays on screen by default (any key goes on sooner).
TRICK_HOLD_S = 1.5
#: The longest `--trick-hold` taken: a trick held longer only makes the game wait.
TRICK_HOLD_MAX_S = 10.0


def best_bot() -> str:
    """The strongest bot tier (every one is built in: the list says, with no bot imported)."""
    return next((t for t in STRATEGY_TIERS if t in BUILTIN), "random")


class Held(Protocol):
    """A data folder's lock, held until released (server/datalock.py's)."""

    def release(self) -> None: ...


class LocalServer(Protocol):
    """The server `leekha play` started (server/app.py's RunningServer)."""

    @property
    def port(self) -> int: ...

    def stop(self) -> Coroutine[Deferred[object], object, None]: ...


class Local(Protocol):
    """What `leekha play` needs of a server on this machine: server/local.py, which the
    command line hands over as `args.local` (the TUI imports nothing of the server)."""

    def play_data_dir(self) -> Path: ...

    def hold(self, folder: Path) -> tuple[Held | None, int | None]: ...

    def start(
        self, reactor: Reactor, folder: Path, *, name: str, bot_think_ms: int, lock: Held | None
    ) -> Coroutine[Deferred[object], object, LocalServer]: ...

    def unfinished_round(self, folder: Path, token: str) -> int | None: ...

    def forget_unfinished(self, folder: Path) -> None: ...

    def kept_game(
        self, n: int, folder: Path | None = None
    ) -> tuple[dict[str, Any] | None, Path]: ...


def hold_folder(local: Local, folder: Path, stack: contextlib.ExitStack) -> Held | str:
    """Hold `folder` for this `leekha play` until `stack` closes, with the lock every
    server takes on its data folder (through `local`); the embedded server is started
    under it. A second `leekha play` (or a `leekha serve`) on the same folder gets the
    sentence to print instead: two servers must not write one database. The kernel lets
    go of the lock when its process dies, however it dies."""
    try:
        lock, pid = local.hold(folder)
    except OSError as exc:
        return _("leekha play: cannot use {folder}: {problem}").format(
            folder=folder, problem=exc.strerror or exc
        )
    if lock is not None:
        stack.callback(lock.release)
        return lock
    return _(
        "leekha play: another leekha play or server (process {pid}) is using {folder}; "
        "finish that game first, or play this one with --no-save or --data DIR"
    ).format(pid="?" if pid is None else pid, folder=folder)


def play_tokens(folder: Path) -> TokenStore:
    """The player's session token, kept in the play folder. Its server listens on a new
    port every time, so the token is kept under one key, whatever the port."""
    from leekha.client.tokens import TokenStore

    class PlayTokens(TokenStore):
        def get(self, server: str, name: str) -> str | None:
            return super().get(PLAY_KEY, name)

        def put(self, server: str, name: str, token: str) -> None:
            super().put(PLAY_KEY, name, token)

        def forget(self, server: str, name: str) -> None:
            super().forget(PLAY_KEY, name)

    return PlayTokens(folder / "session.json")


#: The one server key of `leekha play`'s token (see `play_tokens`).
PLAY_KEY = "leekha play"


def ask_resume(round_no: int) -> bool:
    """Ask on the terminal, before the screen opens; Enter means yes. No forgets the
    unfinished game for good, so only a no says no: anything else (a card's letter typed
    before the screen is up, a slip of the finger) asks again rather than lose the game."""
    # TRANSLATORS: the answers that mean yes to "Resume the game…? (Y/n)", lowercase,
    # separated by spaces (y and yes are always understood too).
    yes = ("", "y", "yes", *_("y yes").split())
    # TRANSLATORS: the answers that mean no to "Resume the game…? (Y/n)", lowercase,
    # separated by spaces (n and no are always understood too).
    no = ("n", "no", *_("n no").split())
    while True:
        try:
            answer = input(_("Resume the game in round {n}? (Y/n) ").format(n=round_no))
        except EOFError:
            return False
        answer = answer.strip().lower()
        if answer in yes:
            return True
        if answer in no:
            return False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(local=None)  # the command line hands over server/local.py
    add_rules_arguments(parser)
    add_screen_arguments(parser, _("your name at the table (default: your login name)"))
    parser.add_argument(
        "--strategy",
        default=None,
        metavar="STRATEGY",
        help=strategy_help(_(", or best (the strongest installed; the default)"))
        + _(" for the three bots"),
    )
    parser.add_argument(
        "--level",
        choices=LEVELS,
        default=None,
        help=_("how well the three bots play: easy, medium or hard (instead of --strategy)"),
    )
    parser.add_argument(
        "--bot-delay",
        type=in_range(0, 60_000),
        default=DEFAULT_BOT_DELAY_MS,
        metavar="MS",
        help=argparse.SUPPRESS,
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        metavar="DIR",
        help=_(
            "where your games are kept, for `leekha records` and `leekha replay` "
            "(default: the play folder in your user data folder)"
        ),
    )
    parser.add_argument(
        "--no-save", action="store_true", help=_("keep nothing: a throwaway folder for this game")
    )
    parser.add_argument("--report-drawn", default=None, metavar="FILE", help=argparse.SUPPRESS)
    parser.add_argument("--exit-when-drawn", action="store_true", help=argparse.SUPPRESS)


def add_screen_arguments(parser: argparse.ArgumentParser, name_help: str) -> None:
    """The player's name and table-screen preferences, shared by `leekha play` and
    `leekha join`."""
    parser.add_argument("--name", default=None, help=name_help)
    add_ascii_argument(parser)
    parser.add_argument(
        "--trick-hold",
        type=in_range(0, TRICK_HOLD_MAX_S, whole=False),
        default=TRICK_HOLD_S,
        metavar="SECONDS",
        help=default_help(_("how long a finished trick stays on screen; any key goes on sooner")),
    )
    parser.add_argument(
        "--bell", action="store_true", help=_("ring the terminal bell on your turn")
    )


def run(args: argparse.Namespace) -> int:
    from leekha.client.eventloop import run_on_reactor
    from leekha.client.options import rules_from_args

    try:
        rules_from_args(args)
        if args.level is not None and args.strategy is not None:
            raise ValueError(_("--level and --strategy both choose the bots: give one"))
        if args.strategy not in (None, "best", *BUILTIN):  # the embedded server's bots
            raise ValueError(
                _("unknown strategy {spec!r}: use one of {names}, or best").format(
                    spec=args.strategy, names=", ".join(BUILTIN)
                )
            )
    except ValueError as exc:
        print(_("leekha play: {problem}").format(problem=exc), file=sys.stderr)
        return 2
    if no_terminal("play"):
        return 1
    # Its own server on 127.0.0.1 only: no TLS, and none of TLS's start-up cost.
    return run_on_reactor(lambda reactor: play_main(reactor, args), tls=False)


async def play_main(
    reactor: Reactor,
    args: argparse.Namespace,
    *,
    ready: Callable[[ClientApp], None] | None = None,
    **io: Any,
) -> int:
    """The whole `leekha play` session; `io` passes input/output through and `ready` gets
    the ClientApp once connected (tests)."""
    from leekha.client.eventloop import twisted_await
    from leekha.client.prefs import FILE_NAME as PREFS_FILE
    from leekha.client.prefs import Prefs
    from leekha.client.tui.app import ClientApp
    from leekha.client.tui.model import AutoSetup, ClientModel, table_name_for

    local: Local = args.local

    strategy = getattr(args, "strategy", None)
    bot = getattr(args, "level", None) or (
        best_bot() if strategy in (None, "best") else str(strategy)
    )
    name = (args.name or default_name()).strip()[:24] or "you"
    overrides = dict(args.rule)
    with contextlib.ExitStack() as stack:
        lock: Held | None = None
        if args.no_save:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="leekha-play-")))
        else:
            folder = (args.data or local.play_data_dir()).expanduser()
            held = hold_folder(local, folder, stack)
            if isinstance(held, str):
                print(held, file=sys.stderr)
                return 1
            lock = held
            tokens = play_tokens(folder)
            token = tokens.get(PLAY_KEY, name)
            round_no = local.unfinished_round(folder, token) if token is not None else None
            if round_no is None or not ask_resume(round_no):
                local.forget_unfinished(folder)
                tokens.forget(PLAY_KEY, name)
            io.setdefault("tokens", tokens)
        started = local.start(
            reactor,
            folder,
            name="leekha play",
            bot_think_ms=max(0, int(args.bot_delay)),
            lock=lock,
        )
        server = await twisted_await(started)
        try:
            table = table_name_for(name, _("{name} vs bots"))
            auto = AutoSetup(
                name=table, preset=args.rules, overrides=overrides, bot=bot, kept=not args.no_save
            )
            model = ClientModel(
                name,
                auto=auto,
                ascii=args.ascii,
                trick_hold=max(0.0, args.trick_hold),
                bell=args.bell,
                # the screen as the player left it, kept with the games (--no-save: none)
                prefs=Prefs(None if args.no_save else folder / PREFS_FILE),
            )
            model.server_label = "leekha play"
            client = ClientApp(model, reactor, "127.0.0.1", server.port, bot_strategy=bot, **io)
            await client.connect()
            if ready is not None:
                ready(client)
            if args.report_drawn or args.exit_when_drawn:
                _when_drawn(client, args.report_drawn, args.exit_when_drawn)
            return await client.run()
        finally:
            await twisted_await(server.stop())


def _when_drawn(client: ClientApp, report: str | None, leave: bool) -> None:
    """Benchmark hooks: note the wall-clock time of the first drawn table, maybe quit."""
    fut = client.when(lambda: client.table_drawn_at is not None)

    def drawn(_f: object) -> None:
        if report:
            Path(report).write_text(f"{time.time():.6f}\n")
        if leave:
            client.quit()

    fut.add_done_callback(drawn)
