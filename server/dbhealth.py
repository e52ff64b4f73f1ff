"""The database's health: open it or say in words why not, check it, back it up.

A server that starts on a damaged or emptied database must not serve an empty lobby as if
nothing had happened, nor stop with a traceback: it refuses, naming the file, quoting
SQLite and saying what to do next (`DatabaseProblem`). `check` is `leekha records check`:
SQLite's own integrity check plus the project's invariant that every live table's stored
moves replay through the engine. `backup` is SQLite's online backup, safe beside a
running server.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from leekha.common.config import RulesConfig
from leekha.common.errors import LeekhaError
from leekha.common.game import replay
from leekha.server.domain.persistence import Store, db_path

#: What to do about a database SQLite cannot use.
NEXT_STEP = (
    "run `leekha records check --data {folder}` to see what is damaged, or stop the server "
    "and put back the last backup (docs/hosting.md, 'Backing up the database')"
)


#: What to do about an empty database file, which a server refuses to start on: said by
#: the refusal and by `leekha records check` alike.
EMPTY_STEP = (
    "if you have a backup, stop here and put it in its place (docs/hosting.md,"
    " 'Backing up the database'); to start afresh, delete {path}"
)

#: What to do about a database a server cannot open or load: it refuses to start on it.
UNUSABLE_STEP = (
    "stop the server and put back the last backup (docs/hosting.md, 'Backing up the"
    " database'): a server does not start on this database as it is"
)


class DatabaseProblem(Exception):
    """The server cannot use its database; `str()` names the file, quotes SQLite and
    gives the next step."""

    def __init__(self, path: Path, said: str, step: str | None = None) -> None:
        self.path = path
        self.said = said
        step = step if step is not None else NEXT_STEP.format(folder=path.parent)
        super().__init__(f"cannot use the database {path}: {said}; {step}")


def open_store(data_dir: Path) -> Store:
    """The data folder's store, or DatabaseProblem. A zero-length file is refused: SQLite
    would take it for a new, empty database, and the server would start with nothing."""
    path = db_path(data_dir)
    if path.is_file() and path.stat().st_size == 0:
        raise DatabaseProblem(
            path,
            "the file is empty (0 bytes), not a Leekha database",
            EMPTY_STEP.format(path=path),
        )
    try:
        return Store(path)
    except sqlite3.Error as exc:
        raise DatabaseProblem(path, f'SQLite says "{exc}"') from None


#: The most problems the start-up check names (SQLite stops counting there), and the
#: largest database it reads whole at start (a bigger one is left to `records check`).
QUICK_PROBLEMS = 10
QUICK_MAX_BYTES = 256 * 1024 * 1024


def quick_check(
    path: Path, limit: int = QUICK_PROBLEMS, max_bytes: int = QUICK_MAX_BYTES
) -> list[str]:
    """At start: SQLite's `quick_check`, bounded to `limit` problems and to databases of
    up to `max_bytes`, over every page, those the server does not read at start (the
    tournaments', the game records') included. What it finds, in words; [] when sound."""
    try:
        size = path.stat().st_size
    except OSError:
        return []
    if size > max_bytes:
        return []
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            said = [str(r[0]) for r in db.execute(f"PRAGMA quick_check({int(limit)})")]
        finally:
            db.close()
    except sqlite3.Error as exc:
        return [f"the quick check stopped: {exc}"]
    return [] if said == ["ok"] else [f'SQLite: "{line}"' for line in said[:limit]]


def problems_line(path: Path, problems: list[str]) -> str:
    """One line naming what the start-up check found, and what to run next."""
    count = f"{len(problems)} problem" + ("" if len(problems) == 1 else "s")
    return (
        f"the database {path} is damaged ({count} at start, SQLite's quick check): "
        f"{problems[0]}; the server starts, but run `leekha records check --data "
        f"{path.parent}` and see docs/hosting.md, 'Backing up the database'"
    )


@dataclass
class Report:
    """What `check` found: `problems` empty means healthy."""

    path: Path
    tables: int = 0
    problems: list[str] = field(default_factory=list)
    #: The next step when a server would refuse to start on this database (None: it
    #: starts, keeping the tables it cannot read without serving them).
    step: str | None = None


def check(data_dir: Path) -> Report:
    """PRAGMA integrity_check, then every live table through the engine."""
    path = db_path(data_dir)
    report = Report(path)
    if not path.is_file():
        report.problems.append(f"no database at {path}")
        return report
    if path.stat().st_size == 0:
        report.problems.append(f"{path} is empty (0 bytes)")
        report.step = EMPTY_STEP.format(path=path)
        return report
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            said = [str(r[0]) for r in db.execute("PRAGMA integrity_check")]
        finally:
            db.close()
    except sqlite3.Error as exc:  # damage SQLite stops at: the tables say more
        said = [f"the integrity check stopped: {exc}"]
    if said != ["ok"]:
        report.problems.extend(f'SQLite: "{line}"' for line in said)
    try:
        store = Store(path)
    except sqlite3.Error as exc:
        report.problems.append(f'cannot open the database: "{exc}"')
        report.step = UNUSABLE_STEP
        return report
    try:
        rows, damaged = store.load_live()
    except sqlite3.Error as exc:
        report.problems.append(f'cannot read the live tables: "{exc}"')
        report.step = UNUSABLE_STEP
        return report
    finally:
        store.close()
    for table_id, why in sorted(damaged.items()):
        report.problems.append(f'table {table_id}: cannot be read: "{why}"')
    for row in rows:
        report.tables += 1
        if row.seed is None or row.status == "waiting":
            continue
        try:
            replay(RulesConfig.from_dict(row.rules), row.seed, row.actions)
        except (LeekhaError, KeyError, TypeError, ValueError) as exc:
            report.problems.append(
                f"table {row.id}: its {len(row.actions)} stored moves do not replay: {exc}"
            )
    return report


def backup(data_dir: Path, target: Path) -> int:
    """A consistent copy of the database at `target` (SQLite's online backup: safe while
    a server writes). Returns the pages copied; OSError or sqlite3.Error if it cannot."""
    path = db_path(data_dir)
    if not path.is_file():
        raise FileNotFoundError(f"no database at {path}")
    if target.exists():
        raise FileExistsError(f"{target} exists already; give a new file name")
    target.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
        pages = int(copy.execute("PRAGMA page_count").fetchone()[0])
    finally:
        copy.close()
        source.close()
    return pages
