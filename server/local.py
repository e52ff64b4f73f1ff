"""The one door from a program on this machine into the server: no network in between.

`leekha play` runs a server in its own process and keeps its games in a folder of its own;
`leekha replay` reads a game that folder kept; `leekha tournament status ID` and `export`
read a tournament from a server's data folder. The client imports nothing from
`leekha.server` (an import-linter contract, `client-no-server`): the command line
(`leekha.client.cli`, the composition root) hands this module to those commands as
`args.local`, and they call only what is here, through the `Local` protocols of
`leekha.client.tui.play` and `leekha.client.tournament.database`.
"""

from __future__ import annotations

from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from leekha.common.config import RulesConfig
from leekha.common.errors import LeekhaError
from leekha.common.game import replay
from leekha.protocol.views import ExportDoc
from leekha.server.datalock import DataDirInUse, DataLock
from leekha.server.domain.lifecycle import PLAYING
from leekha.server.domain.persistence import Store, db_path
from leekha.server.domain.session import token_id
from leekha.server.records_cli import play_data_dir
from leekha.server.settings import default_data_dir

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred

    from leekha.protocol.reactor import Reactor
    from leekha.server.app import RunningServer
    from leekha.server.reactor import ServerReactor

__all__ = [
    "forget_unfinished", "hold", "kept_game", "kept_tournament", "play_data_dir", "start",
    "unfinished_round",
]  # fmt: skip


def hold(folder: Path) -> tuple[DataLock | None, int | None]:
    """Take `folder`'s lock, the one every server takes on its data folder
    (leekha.server.datalock), before `leekha play` reads or forgets the game kept there;
    its embedded server then starts under it (`start(..., lock=)`), so one lock keeps a
    second `leekha play` and a `leekha serve` alike out of the folder. (lock, None) when
    taken; (None, pid of the holder, None if unknown) when another process has it; an
    OSError when the folder cannot be made or opened."""
    try:
        return DataLock(folder).acquire(), None
    except DataDirInUse as exc:
        return None, exc.pid


def start(
    reactor: Reactor,
    folder: Path,
    *,
    name: str,
    bot_think_ms: int,
    lock: object = None,
) -> Coroutine[Deferred[object], object, RunningServer]:
    """A server on 127.0.0.1 for one player, its database in `folder`: a Deferred that
    fires with the running server (`.port`, `.stop()`). `lock`: `hold(folder)`'s, which
    the server keeps until it stops (typed `object` here because the client knows it
    only as something to release). `reactor`: the process's one running Twisted reactor,
    which the client types only as far as it uses it; it has all that the server uses."""
    from leekha.server.app import local_settings, start_server

    if lock is not None and not isinstance(lock, DataLock):
        raise TypeError(f"lock: {lock!r} is not the DataLock that hold() gave")
    settings = local_settings(folder, name=name, bot_think_ms=max(0, bot_think_ms))
    return start_server(cast("ServerReactor", reactor), settings, lock=lock)


def unfinished_round(folder: Path, token: str) -> int | None:
    """The round (from 1) of the unfinished game in the play database where the holder
    of `token` sits; None when there is none. The engine replays the stored moves."""
    if not db_path(folder).is_file():
        return None
    store = Store.in_dir(folder)
    try:
        secret = token_id(token)
        ours = {t for t, row in store.load_sessions().items() if row.secret == secret}
        for row in store.load_tables():
            seated = any(s is not None and s.token in ours for s in row.seats)
            if row.status != PLAYING or row.seed is None or not seated:
                continue
            try:
                game = replay(RulesConfig.from_dict(row.rules), row.seed, row.actions)
            except LeekhaError:
                return None
            return int(game.round_no) + 1
    finally:
        store.close()
    return None


def forget_unfinished(folder: Path) -> None:
    """Start afresh: drop the unfinished game (its held seat would reserve the player's
    name) and keep the finished ones. A folder with no database yet has nothing to drop,
    and is left without one (creating it here cost a second open of the new database)."""
    if not db_path(folder).is_file():
        return
    store = Store.in_dir(folder)
    try:
        store.forget_live_tables()
    finally:
        store.close()


def kept_game(n: int, folder: Path | None = None) -> tuple[dict[str, Any] | None, Path]:
    """The n-th latest game kept in `folder` (default: `leekha play`'s), or None, with
    the database's path (for the sentence when there is none)."""
    path = db_path(folder if folder is not None else play_data_dir())
    store = Store(path) if path.is_file() else None
    try:
        ids = store.game_ids() if store is not None else []
        record = store.game_record(ids[-n]) if store is not None and 1 <= n <= len(ids) else None
    finally:
        if store is not None:
            store.close()
    return record, path


def kept_tournament(
    tournament_id: int, folder: Path | None = None
) -> tuple[ExportDoc | None, frozenset[int], Path]:
    """Tournament `tournament_id` as its export document, with the indices of the entrants
    that have entered, read from the database in `folder` (default: `leekha serve`'s)
    through the runner's own store, so it is exactly what the server has committed (SQLite
    in WAL mode may be read while the server runs); and the database's path. The document
    is None when there is no database there (the path is not a file) or no such
    tournament in it."""
    from leekha.server.domain.tournament import export
    from leekha.server.domain.tournament.store import TournamentStore

    path = db_path((folder if folder is not None else default_data_dir()).expanduser())
    if not path.is_file():
        return None, frozenset(), path
    store = Store(path)
    try:
        stored = TournamentStore(store).load(tournament_id)
    finally:
        store.close()
    if stored is None:
        return None, frozenset(), path
    doc = export.document(stored.meta(), stored.entrants, list(stored.results.values()))
    return doc, frozenset(stored.tokens), path
