"""LAN discovery: a real announce and browse over multicast on the loopback interface.

The network tests pin zeroconf to 127.0.0.1 so they never touch the real LAN, and give every
announcement a unique name so parallel runs cannot see each other's servers.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest
import pytest_twisted
from twisted.internet.defer import Deferred
from zeroconf import ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

from leekha.client import cli
from leekha.client import discovery as client_discovery
from leekha.client.discovery import (
    FoundServer,
    browse,
    format_servers,
    is_compatible,
    parse_txt,
)
from leekha.protocol.discovery import SERVICE_TYPE
from leekha.server.discovery import (
    Announcer,
    instance_label,
    txt_properties,
)

T = TypeVar("T")
LOOPBACK = ["127.0.0.1"]
AsyncTest = Callable[..., Coroutine[Any, Any, None]]

# pytest_twisted's decorator is untyped; this alias gives it a type for mypy --strict.
reactor_test: Callable[[AsyncTest], AsyncTest] = pytest_twisted.ensureDeferred


def aio(coro: Coroutine[Any, Any, T]) -> Deferred[T]:
    """Run an asyncio coroutine on the asyncio reactor's loop, as the server does."""
    return Deferred.fromFuture(asyncio.ensure_future(coro))


def unique_name(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:8]}"


async def browse_for(name: str, **want: object) -> list[FoundServer]:
    def done(servers: list[FoundServer]) -> bool:
        return any(
            s.name == name and all(getattr(s, k) == v for k, v in want.items()) for s in servers
        )

    servers = await browse(6.0, interfaces=LOOPBACK, until=done)
    return [s for s in servers if s.name == name]


# --- pure encoding and parsing -------------------------------------------------------------


def test_txt_record_round_trips_through_parser() -> None:
    props = txt_properties("سهرة ليخة", "1.0", tables=4, players=13)
    raw = {k.encode(): v.encode() for k, v in props.items()}
    found = parse_txt(raw, "inst", "10.0.0.5", 7241, client_version="1.3")
    assert (found.name, found.proto, found.tables, found.players) == ("سهرة ليخة", "1.0", 4, 13)
    assert found.compatible


def test_the_table_page_travels_in_the_txt_record() -> None:
    page = "http://10.0.0.5:7242/"
    props = txt_properties("x", "1.4", tables=0, players=0, web=page)
    assert props["web"] == page
    raw = {k.encode(): v.encode() for k, v in props.items()}
    assert parse_txt(raw, "inst", "10.0.0.5", 7241).web == page
    assert "web" not in txt_properties("x", "1.4", tables=0, players=0)
    for bad in (b"javascript:alert(1)", b"http://a b/", b"\x00http://x/", b"x" * 300):
        assert parse_txt({b"web": bad}, "inst", "10.0.0.5", 7241).web is None


def test_instance_label_fits_one_dns_label_without_breaking_utf8() -> None:
    label = instance_label("ليخة " * 40 + "on box.example.org")
    assert len(label.encode("utf-8")) <= 63
    assert "." not in label
    label.encode("utf-8").decode("utf-8")  # still valid text
    assert instance_label("...") == "Leekha"


def test_garbled_txt_gives_incompatible_entry_not_error() -> None:
    raw: dict[bytes, bytes | None] = {b"proto": b"\xff\xfe", b"tables": b"-3", b"players": None}
    found = parse_txt(raw, "Some box", "10.0.0.9", 7241, client_version="1.0")
    assert found.name == "Some box"
    assert found.tables is None and found.players is None
    assert not found.compatible


@pytest.mark.parametrize(
    ("server", "client", "ok"),
    [
        ("1.0", "1.0", True),
        ("1.7", "1.0", True),
        ("2.0", "1.9", False),
        ("", "1.0", False),
        ("x.1", "1.0", False),
    ],
)
def test_compatibility_is_equal_major_version(server: str, client: str, ok: bool) -> None:
    assert is_compatible(server, client) is ok


def test_format_marks_incompatible_servers_and_empty_result() -> None:
    good = parse_txt(
        {b"name": b"Alpha", b"proto": b"1.2", b"tables": b"2", b"players": b"5"},
        "Alpha",
        "10.0.0.1",
        7241,
        client_version="1.0",
    )
    bad = parse_txt(
        {b"name": b"Beta", b"proto": b"2.0"}, "Beta", "10.0.0.2", 7000, client_version="1.0"
    )
    text = format_servers([good, bad], client_version="1.0")
    lines = text.splitlines()
    assert lines[0].split()[:2] == ["NAME", "ADDRESS"]
    alpha = next(line for line in lines if line.startswith("Alpha"))
    beta = next(line for line in lines if line.startswith("Beta"))
    assert "10.0.0.1:7241" in alpha and "incompatible" not in alpha
    assert "10.0.0.2:7000" in beta and "incompatible" in beta and "?" in beta
    assert format_servers([]) == "no servers found"


def test_servers_command_prints_table_or_none(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[float] = []

    def fake_browse(timeout_s: float, **_: object) -> list[FoundServer]:
        seen.append(timeout_s)
        return []

    monkeypatch.setattr(client_discovery, "browse_sync", fake_browse)
    assert cli.main(["servers", "--timeout", "0.5"]) == 0
    assert seen == [0.5]
    assert "no servers found" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exited:  # out of range: the parser's usage error
        cli.main(["servers", "--timeout", "0"])
    assert exited.value.code == 2
    assert "--timeout" in capsys.readouterr().err


def test_announcer_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="port"):
        Announcer("x", 0, "1.0")
    with pytest.raises(ValueError, match="not an IP address"):
        Announcer("x", 7241, "1.0", addresses=["not-an-ip"])


# --- over the (loopback) network -----------------------------------------------------------


@pytest.mark.timeout(20)
@reactor_test
async def test_browse_finds_announcement_and_sees_latest_counts() -> None:
    name = unique_name("Loopback party")
    announcer = Announcer(name, 7241, "1.0", interfaces=LOOPBACK, min_update_interval_s=0.3)
    await aio(announcer.start())
    try:
        [found] = await aio(browse_for(name))
        assert (found.host, found.port, found.proto) == ("127.0.0.1", 7241, "1.0")
        assert (found.tables, found.players) == (0, 0)
        assert found.compatible
        for n in range(1, 30):  # a burst is coalesced; the last counts must reach the LAN
            await aio(announcer.update(tables=n, players=2 * n))
        [updated] = await aio(browse_for(name, tables=29))
        assert (updated.tables, updated.players) == (29, 58)
    finally:
        await aio(announcer.stop())
    assert announcer.registered_name is None


@pytest.mark.timeout(20)
@reactor_test
async def test_stop_withdraws_the_announcement() -> None:
    name = unique_name("Going away")
    announcer = Announcer(name, 7300, "1.0", interfaces=LOOPBACK)

    async def scenario() -> None:
        observer = AsyncZeroconf(interfaces=LOOPBACK)
        added, removed = asyncio.Event(), asyncio.Event()
        ours = f"{instance_label(name)}.{SERVICE_TYPE}"

        def on_change(
            zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
        ) -> None:
            if name != ours:
                return
            if state_change is ServiceStateChange.Added:
                added.set()
            elif state_change is ServiceStateChange.Removed:
                removed.set()

        browser = AsyncServiceBrowser(observer.zeroconf, [SERVICE_TYPE], handlers=[on_change])
        try:
            await announcer.start()
            await asyncio.wait_for(added.wait(), 6)
            await announcer.stop()
            await asyncio.wait_for(removed.wait(), 6)
        finally:
            await announcer.stop()
            await browser.async_cancel()
            await observer.async_close()

    await aio(scenario())


# --- the real server announces itself and withdraws on shutdown ----------------------------


@reactor_test
async def test_server_announces_counts_and_withdraws_on_stop(tmp_path: Any) -> None:
    from twisted.internet import reactor

    from leekha.server.app import local_settings, start_server

    name = unique_name("serve")
    settings = local_settings(tmp_path, name=name, announce=True, web="")
    server = await start_server(reactor, settings)
    try:
        found = await aio(browse_for(name))
        assert found and found[0].port == server.port and found[0].compatible
        assert (found[0].tables, found[0].players) == (0, 0)
        assert server.web is not None  # the table page, on the next port, is announced too
        assert found[0].web == f"http://127.0.0.1:{server.web.port}/"
    finally:
        if server.announcing is not None and server.announcing.starting is not None:
            await server.announcing.starting
        await server.stop()
    after = await aio(browse(1.5, interfaces=LOOPBACK))
    assert all(s.name != name for s in after)
