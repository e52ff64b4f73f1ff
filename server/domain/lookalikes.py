"""Unicode's look-alike characters (UTS #39 confusables) as the one map the name checks
read: each character to its prototype.

confusable-homoglyphs ships the table as a 900 KB JSON file, which its module parses on
import, with urllib (for its updater) imported alongside: about 100 ms of processor time
before a server can greet its first player, the largest single cost of `leekha play`'s
start that is ours. The map derived from it is small, so it is kept in the user's cache
folder (marshal: a few ms to read) under the path, size and time of the file it came
from; a new version of the library, or CONFUSABLE_DATA pointing at other data, is derived
afresh. The library's table stays the one source: the cache is only ever a copy of what
`derive` makes of it, and a cache that cannot be read or written costs time, never a
different answer.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import marshal
import os
import tempfile
from functools import cache
from pathlib import Path

import platformdirs

#: Bump when `derive` changes what it makes of the table, so an old cache is not read.
FORMAT = 1
CACHE_STEM = "confusables"


def derive() -> dict[str, str]:
    """The prototype of every character that has one other than itself: a prototype lists
    its look-alikes and a look-alike names its prototype (the table as confusable-homoglyphs
    ships it); a character whose one homoglyph does not name it back is its own."""
    from confusable_homoglyphs.confusables import confusables_data as data

    table: dict[str, str] = {}
    for ch, homoglyphs in data.items():
        if not homoglyphs or len(homoglyphs) != 1:
            continue
        target = str(homoglyphs[0]["c"])
        if target != ch and any(h["c"] == ch for h in data.get(target, ())):
            table[ch] = target
    return table


def source() -> Path | None:
    """The JSON file confusable-homoglyphs reads its table from (its `utils.path`: the
    folder CONFUSABLE_DATA names, else its package folder), found without importing it."""
    spec = importlib.util.find_spec("confusable_homoglyphs")
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    folder = os.environ.get("CONFUSABLE_DATA") or (folders[0] if folders else None)
    return Path(folder) / "confusables.json" if folder else None


def _key(path: Path | None) -> str | None:
    try:
        st = path.stat() if path is not None else None
    except OSError:
        return None
    return None if st is None else f"{FORMAT}:{path}:{st.st_size}:{st.st_mtime_ns}"


def _read(cached: Path, key: str) -> dict[str, str] | None:
    try:
        found = marshal.loads(cached.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(found, tuple) and len(found) == 2 and found[0] == key):
        return None
    table = found[1]
    if type(table) is not dict or not all(
        type(k) is str and type(v) is str for k, v in table.items()
    ):
        return None
    return table


def _write(cached: Path, key: str, table: dict[str, str]) -> None:
    """Atomically (a whole file or none: other processes may read it at the same time)."""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cached.parent, prefix=".confusables-")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(marshal.dumps((key, table)))
        os.replace(tmp, cached)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def cache_path(key: str) -> Path:
    """One file per table it was made from: two installs on one machine (two virtual
    environments, a new version of the library beside the old) each keep their own
    rather than replace each other's on every start."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return platformdirs.user_cache_path("leekha") / f"{CACHE_STEM}-{digest}.marshal"


@cache
def prototypes() -> dict[str, str]:
    """`derive()`, from the cache when it was made from the same file."""
    key = _key(source())
    if key is None:
        return derive()
    cached = cache_path(key)
    table = _read(cached, key)
    if table is None:
        table = derive()
        _write(cached, key, table)
    return table
