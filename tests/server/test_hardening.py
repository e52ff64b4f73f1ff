"""Attacks that stay under every documented limit, and the small faults an independent
client found: the paged lobby list, per-address and deserted-table caps, refusals for
well-formed out-of-range values, and look-alike names."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import records as R
from helpers.server import VERSIONS, Harness, created_table
from hypothesis import given, settings
from hypothesis import strategies as st

from leekha.protocol import catalogue as M
from leekha.protocol.catalogue import LIST_PAGE
from leekha.protocol.codec import DEFAULT_MAX_FRAME, encode
from leekha.protocol.views import TableSummary
from leekha.server.domain.listing import Listing


def make_tables(h: Harness, n: int, ip_base: str = "10.1") -> list[int]:
    ids = []
    for i in range(n):
        host = h.player(f"host {ip_base} {i}", ip=f"{ip_base}.{i // 200}.{i % 200}")
        snap = host.request(M.CreateTable(id=host.rid(), name=f"t{i}", preset="classic"))
        assert isinstance(snap, M.Snapshot), snap
        ids.append(int(snap.table["id"]))
    return ids


def walk(client: Any) -> tuple[list[int], list[int | None]]:
    """Every page of the list, following `next`; the ids and the totals seen."""
    ids: list[int] = []
    totals: list[int | None] = []
    cursor: int | None = None
    while True:
        page = client.request(M.ListTables(id=client.rid(), cursor=cursor))
        assert isinstance(page, M.TableList), page
        assert len(page.tables) <= LIST_PAGE
        assert len(encode(page)) <= DEFAULT_MAX_FRAME
        ids += [t["id"] for t in page.tables]
        totals.append(page.total)
        if page.next is None:
            return ids, totals
        assert page.next == ids[-1]
        cursor = page.next


def test_the_list_comes_in_pages_with_a_total_and_a_cursor() -> None:
    h = Harness(max_tables_per_address=1000)
    ids = make_tables(h, 2 * LIST_PAGE + 3)
    watcher = h.player("watcher", ip="10.9.9.9")
    seen, totals = walk(watcher)
    assert seen == sorted(ids)  # every table once, in id order
    assert set(totals) == {len(ids)}
    # A table made afterwards is on the last page, and pushed to the watcher.
    late = make_tables(h, 1, ip_base="10.2")[0]
    assert [u.table_id for u in watcher.of(M.TableUpdate)][-1] == late
    assert walk(watcher)[0] == sorted([*ids, late])


def test_an_old_client_gets_the_first_page() -> None:
    h = Harness(max_tables_per_address=1000)
    make_tables(h, LIST_PAGE + 5)
    old = h.connect(ip="10.9.9.8")
    reply = old.request(M.Hello(id=1, versions=[[1, 1]], name="old"))
    assert isinstance(reply, M.Welcome) and reply.version == [1, 1]
    page = old.request(M.ListTables(id=2))
    assert isinstance(page, M.TableList) and len(page.tables) == LIST_PAGE


@settings(max_examples=60, deadline=None)
@given(
    ops=st.lists(
        st.tuples(st.booleans(), st.integers(0, 60)),
        max_size=120,
    ),
    cursor=st.none() | st.integers(-1, 70),
    size=st.integers(1, 10),
)
def test_listing_pages_match_a_sorted_dict(
    ops: list[tuple[bool, int]], cursor: int | None, size: int
) -> None:
    listing = Listing()
    model: dict[int, TableSummary] = {}
    for put, table_id in ops:
        if put:
            summary = R.summary(id=table_id, spectators=len(model))
            listing.put(table_id, summary)
            model[table_id] = summary
        else:
            listing.remove(table_id)
            model.pop(table_id, None)
    assert len(listing) == len(model)
    after = sorted(i for i in model if cursor is None or i > cursor)
    page, following = listing.page(cursor, size)
    assert page == [model[i] for i in after[:size]]
    assert following == (after[size - 1] if len(after) > size else None)


def test_one_address_may_keep_only_so_many_tables_open() -> None:
    h = Harness(max_tables_per_address=3)
    make_tables(h, 3, ip_base="10.3")  # 10.3.0.0 .. 10.3.0.2: three addresses
    flood = [h.player(f"f{i}", ip="10.4.0.1") for i in range(4)]
    replies = [f.request(M.CreateTable(id=f.rid(), name="x", preset="classic")) for f in flood]
    assert [type(r) for r in replies] == [M.Snapshot] * 3 + [M.Error]
    refused = replies[3]
    assert isinstance(refused, M.Error) and refused.code == "too_many_tables"
    flood[0].request(M.Leave(id=flood[0].rid()))  # its table closes: room for one more
    again = flood[3].request(M.CreateTable(id=flood[3].rid(), name="x", preset="classic"))
    assert isinstance(again, M.Snapshot)


def test_deserted_waiting_tables_are_capped_oldest_first() -> None:
    """Connect, hello, create_table, close: each table waits out the seat grace with
    nobody at it. Past max_deserted_tables the oldest goes at once."""
    h = Harness(max_deserted_tables=5, seat_grace_s=30.0, max_tables_per_address=1000)
    made = []
    for i in range(12):
        c = h.player(f"ghost{i}", ip=f"10.5.0.{i}")
        made.append(
            created_table(c.request(M.CreateTable(id=c.rid(), name="ghost", preset="classic")))
        )
        c.drop()
    assert sorted(h.lobby.tables) == made[-5:]
    assert len(h.lobby.listing) == 5
    # A table with its host still there is not deserted and never closed for this.
    host = h.player("present", ip="10.6.0.1")
    kept = created_table(host.request(M.CreateTable(id=1, name="real", preset="classic")))
    for i in range(12, 20):
        c = h.player(f"ghost{i}", ip=f"10.5.0.{i}")
        c.request(M.CreateTable(id=c.rid(), name="ghost", preset="classic"))
        c.drop()
    assert kept in h.lobby.tables and len(h.lobby.tables) == 6
    h.advance(31.0, step=1.0)  # and the rest still go after their grace period
    assert sorted(h.lobby.tables) == [kept]


@pytest.mark.parametrize("table_id", [2**31, 2**40, 2**64 - 1])
def test_an_unknown_but_well_formed_table_id_is_a_refusal(table_id: int) -> None:
    h = Harness()
    c = h.player("curious")
    for msg in (
        M.JoinSeat(id=c.rid(), table_id=table_id),
        M.Spectate(id=c.rid(), table_id=table_id),
    ):
        reply = c.request(msg)
        assert isinstance(reply, M.Error) and reply.code == "no_such_table", reply
    assert not c.closed and h.try_connect(ip="10.0.0.1") is not None  # no kick, no ban


@pytest.mark.parametrize("value", [2**31, -(2**63), 2**64 - 1])
def test_an_out_of_range_rules_int_is_bad_rules(value: int) -> None:
    h = Harness()
    c = h.player("rules")
    reply = c.request(
        M.CreateTable(id=c.rid(), name="t", preset="classic", overrides={"target": value})
    )
    assert isinstance(reply, M.Error) and reply.code == "bad_rules" and "target" in reply.message
    assert not c.closed


@pytest.mark.parametrize(
    ("first", "second"),
    [("dan", "ԁan"), ("Ivan", "lvan"), ("bob", "b0b"), ("Alice", "ALICE"), ("ali", "аli")],
)
def test_look_alike_names_are_refused(first: str, second: str) -> None:
    h = Harness()
    h.player(first)
    c = h.connect(ip="10.0.0.2")
    reply = c.request(M.Hello(id=1, versions=VERSIONS, name=second))
    assert isinstance(reply, M.Error) and reply.code == "bad_name", reply
    retry = c.request(M.Hello(id=2, versions=VERSIONS, name="someone else"))
    assert isinstance(retry, M.Welcome)  # hello may be retried on the same connection


def test_different_names_in_other_scripts_are_welcome() -> None:
    h = Harness()
    h.player("Ali")
    assert isinstance(h.player("علي", ip="10.0.0.2"), object)


def test_a_trusted_message_is_the_checked_one() -> None:
    """`trusted` skips the specs, not the defaults: for values that pass them it
    builds the very message the checked constructor builds."""
    from dataclasses import fields

    from leekha.protocol._examples import EXAMPLES

    for msg in EXAMPLES.values():
        values = {f.name: getattr(msg, f.name) for f in fields(msg)}
        assert type(msg).trusted(**values) == msg
        assert encode(type(msg).trusted(**values)) == encode(msg)
    assert M.TableList.trusted(tables=[]) == M.TableList(tables=[])  # defaults filled
