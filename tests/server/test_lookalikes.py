"""The look-alike map comes from the cache only when the cache was made from the same
table; a missing, damaged, stale or unwritable cache gives the same map as the table."""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from leekha.server.domain import lookalikes


@pytest.fixture(scope="module")
def table() -> dict[str, str]:
    return lookalikes.derive()


@pytest.fixture
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "cache" / "confusables.marshal"
    monkeypatch.setattr(lookalikes, "cache_path", lambda key: path)
    lookalikes.prototypes.cache_clear()
    yield path
    lookalikes.prototypes.cache_clear()


def test_the_map_knows_the_look_alikes_of_latin_letters(table: dict[str, str]) -> None:
    assert table["\u0501"] == "d"  # Cyrillic komi de
    assert table["I"] == "l"
    assert "d" not in table  # a prototype is its own


def test_a_missing_cache_is_written_and_then_read(cached: Path, table: dict[str, str]) -> None:
    assert lookalikes.prototypes() == table
    assert cached.is_file()
    key, stored = marshal.loads(cached.read_bytes())
    assert stored == table
    # Read back, not derived again: a cache holding a marker answers with the marker.
    cached.write_bytes(marshal.dumps((key, {"x": "y"})))
    lookalikes.prototypes.cache_clear()
    assert lookalikes.prototypes() == {"x": "y"}


#: What a cache file may hold that must not be used, given the key of today's table.
DAMAGED: dict[str, Callable[[str], bytes]] = {
    "empty": lambda key: b"",
    "garbage": lambda key: b"\x00garbage",
    "stale": lambda key: marshal.dumps(("another file", {"x": "y"})),
    "no key": lambda key: marshal.dumps({"x": "y"}),
    "bad values": lambda key: marshal.dumps((key, {"x": 1})),
    "not a map": lambda key: marshal.dumps((key, ["x", "y"])),
}


@pytest.mark.parametrize("damage", list(DAMAGED))
def test_a_cache_that_does_not_fit_is_replaced(
    cached: Path, table: dict[str, str], damage: str
) -> None:
    key = lookalikes._key(lookalikes.source())
    assert key is not None
    cached.parent.mkdir(parents=True)
    cached.write_bytes(DAMAGED[damage](key))
    assert lookalikes.prototypes() == table
    assert marshal.loads(cached.read_bytes()) == (key, table)


def test_an_unwritable_cache_folder_still_gives_the_map(
    cached: Path, table: dict[str, str]
) -> None:
    cached.parent.write_text("a file where the folder should be")
    assert lookalikes.prototypes() == table


def test_each_table_has_its_own_cache_file() -> None:
    one, other = (
        lookalikes.cache_path("1:/a/confusables.json:1:2"),
        lookalikes.cache_path("1:/b/confusables.json:1:2"),
    )
    assert one != other and one.parent == other.parent


def test_another_data_folder_is_another_table(
    cached: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = lookalikes.source()
    assert source is not None and source.is_file()
    monkeypatch.setenv("CONFUSABLE_DATA", str(tmp_path / "elsewhere"))
    assert lookalikes.source() == tmp_path / "elsewhere" / "confusables.json"
