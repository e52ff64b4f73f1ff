"""`leekha records`: list and export stored games, show player statistics from a data folder.

It opens the database read-mostly next to a running server, which WAL mode allows; `check`
and `backup` never write to it (the backup is SQLite's online backup, consistent however
busy the server is).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

import platformdirs

from leekha.server.dbhealth import DatabaseProblem, backup, check, open_store
from leekha.server.domain.persistence import Store, db_path
from leekha.server.domain.standing import standings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="records_command", metavar="ACTION", required=True)
    data_help = (
        "data folder of the server (default: the XDG data home, else the games of leekha play)"
    )
    listing = sub.add_parser(
        "list", help="the stored games: id, date, table, players with totals, winners"
    )
    listing.add_argument("--data", type=Path, default=None, help=data_help)
    listing.add_argument("--player", default=None, help="only the games this name played")
    listing.add_argument(
        "--limit", type=_positive, default=None, help="only the newest N games (default: all)"
    )
    listing.add_argument(
        "--format", choices=("text", "json"), default="text",
        help="output format (default: %(default)s)",
    )  # fmt: skip
    export = sub.add_parser("export", help="export game records as JSON (replay format)")
    export.add_argument("--data", type=Path, default=None, help=data_help)
    export.add_argument("--game", type=int, default=None, help="one game id (default: all)")
    export.add_argument(
        "--format", choices=("json",), default="json", help="output format (default: %(default)s)"
    )
    export.add_argument("--output", "-o", type=Path, default=None, help="file (default: stdout)")
    check = sub.add_parser(
        "check", help="check the database: SQLite's integrity check, every live table replayed"
    )
    check.add_argument("--data", type=Path, default=None, help=data_help)
    backup = sub.add_parser(
        "backup", help="a consistent copy of the database, safe while the server runs"
    )
    backup.add_argument("--data", type=Path, default=None, help=data_help)
    backup.add_argument("output", type=Path, help="the new file to write the copy to")
    stats = sub.add_parser("stats", help="games, wins and average points per round per player")
    stats.add_argument("--data", type=Path, default=None, help=data_help)
    stats.add_argument("--name", default=None, help="only this player")
    stats.add_argument("--bots", action="store_true", help="include server bots")
    stats.add_argument(
        "--history", metavar="NAME", default=None, help="one player's rating after each game"
    )
    stats.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="output format (default: %(default)s)",
    )


def play_data_dir() -> Path:
    """Where `leekha play` keeps its games: a folder of its own under the data home, so
    that a `leekha serve` on the same machine never restores them."""
    return platformdirs.user_data_path("leekha") / "play"


def _open(data: Path | None) -> Store | None:
    """The database in `data`; by default the server's, else the one `leekha play` keeps."""
    path = _database(data)
    if path is None:
        return None
    try:
        return open_store(path.parent)
    except DatabaseProblem as exc:
        print(f"leekha records: {exc}", file=sys.stderr)
        return None


def _database(data: Path | None) -> Path | None:
    """Where the database of `_open` is, or None (said on stderr) if there is none."""
    if data is not None:
        path = db_path(data.expanduser())
    else:
        served, played = (
            db_path(d) for d in (platformdirs.user_data_path("leekha"), play_data_dir())
        )
        path = served if served.is_file() or not played.is_file() else played
        if path == played:
            print(f"leekha records: the games of leekha play, in {played.parent}", file=sys.stderr)
    if not path.is_file():
        where = "" if data is not None else f" (nor the games of leekha play, in {play_data_dir()})"
        print(
            f"leekha records: no database at {path}{where}; give the folder with --data",
            file=sys.stderr,
        )
        return None
    return path


def run(args: argparse.Namespace) -> int:
    if args.records_command in ("check", "backup"):
        path = _database(args.data)
        if path is None:
            return 1
        if args.records_command == "check":
            return _check(path.parent)
        return _backup(path.parent, args.output)
    store = _open(args.data)
    if store is None:
        return 1
    try:
        if args.records_command == "export":
            return _export(store, args)
        if args.records_command == "list":
            return _list(store, args)
        return _stats(store, args)
    finally:
        store.close()


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1")
    return n


def _list(store: Store, args: argparse.Namespace) -> int:
    """`records list`: newest first; `records export --game ID` gives one whole."""
    lines = store.game_list(args.player, args.limit)
    if args.format == "json":
        print(json.dumps([g.to_dict() for g in lines], indent=2, ensure_ascii=False))
        return 0
    if not lines:
        who = f" with {args.player}" if args.player is not None else ""
        print(f"no finished games{who}")
        return 0
    for g in lines:
        when = datetime.fromtimestamp(g.finished).astimezone().strftime("%Y-%m-%d %H:%M")
        table = f"table {g.table_id} {g.table!r}" if g.table_id is not None else "no table"
        seats = ", ".join(
            f"{p['seat'] + 1} {p['name']}{' [bot]' if p['bot'] else ''} {p['points']}"
            for p in g.players
        )
        winners = ", ".join(g.winners) or "none"
        print(f"game {g.game_id}  {when}  {table}  {seats}  won: {winners}")
    return 0


def _export(store: Store, args: argparse.Namespace) -> int:
    if args.game is not None:
        record = store.game_record(args.game)
        if record is None:
            print(f"leekha records: no game {args.game}", file=sys.stderr)
            return 1
        payload: object = record
    else:
        payload = [store.game_record(i) for i in store.game_ids()]
    text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    if args.output is not None:
        try:
            args.output.write_text(text, encoding="utf-8")
        except OSError as exc:  # no such folder, a folder, no permission: words, not a trace
            print(f"leekha records: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


def _stats(store: Store, args: argparse.Namespace) -> int:
    if args.history is not None:
        return _history(store, args)
    rows = standings(store, args.name, include_bots=args.bots)
    if args.format == "json":
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print("no finished games")
        return 0
    width = max(6, *(len(r["name"]) for r in rows))
    print(f"{'player':<{width}}  {'rating':>13}  games  wins  pts/round  leekhas  moons")
    for r in rows:
        rating = r["rating"]
        shown = f"{rating['mu']:6.2f} ±{3 * rating['sigma']:5.2f}" if rating else "guest"
        print(
            f"{r['name']:<{width}}  {shown:>13}  {r['games']:>5}  {r['wins']:>4}"
            f"  {r['avg_points_per_round']:>9.2f}  {r['leekhas']:>7}  {r['moons']:>5}"
        )
    print("rating: mu ± 3 sigma (openskill); the leaderboard sorts by mu - 3 sigma")
    return 0


def _history(store: Store, args: argparse.Namespace) -> int:
    steps = store.rating_history(args.history)
    if args.format == "json":
        payload = [{"game": g, "mu": mu, "sigma": sigma} for g, mu, sigma in steps]
        print(json.dumps(payload, indent=2))
        return 0
    if not steps:
        print(f"{args.history}: no rated games (only names claimed by a key are rated)")
        return 0
    print(f"rating of {args.history} after each game (mu ± 3 sigma)")
    for game, mu, sigma in steps:
        print(f"game {game:>6}  {mu:6.2f} ±{3 * sigma:5.2f}")
    return 0


def _check(folder: Path) -> int:
    report = check(folder)
    if not report.problems:
        print(f"{report.path}: ok (SQLite's integrity check; {report.tables} live tables replay)")
        return 0
    n = len(report.problems)
    print(f"{report.path}: {n} problem{'' if n == 1 else 's'}", file=sys.stderr)
    for line in report.problems:
        print(f"  {line}", file=sys.stderr)
    step = report.step or (
        "stop the server and put back the last backup (docs/hosting.md, 'Backing up the"
        " database'), or start it as it is: tables that cannot be read are kept, not served"
    )
    print(step, file=sys.stderr)
    return 1


def _backup(folder: Path, output: Path) -> int:
    try:
        pages = backup(folder, output)
    except (OSError, sqlite3.Error) as exc:
        print(f"leekha records: cannot back up {db_path(folder)}: {exc}", file=sys.stderr)
        return 1
    print(f"backed up {db_path(folder)} to {output} ({pages} pages)")
    return 0
