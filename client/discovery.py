"""Find Leekha servers on the LAN (mDNS/DNS-SD) and the `leekha servers` command.

Browsing is a bounded one-shot: listen for `timeout_s`, resolve what answered, return a
snapshot. A server's TXT record is untrusted network input, so every field is parsed
defensively and a malformed record yields an incompatible entry rather than an error.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from leekha.client.i18n import _
from leekha.client.options import in_range
from leekha.protocol import PROTOCOL_VERSION, SUPPORTED_VERSIONS
from leekha.protocol.discovery import SERVICE_TYPE, version_text

_MAX_TIMEOUT_S = 60.0


def our_protocol_version() -> str:
    """The protocol version this client speaks, as "major.minor"."""
    return str(version_text(PROTOCOL_VERSION))


def _major(version: str) -> int | None:
    head = version.strip().split(".", 1)[0]
    return int(head) if head.isdigit() else None


def is_compatible(server_version: str, client_version: str | None = None) -> bool:
    """Servers and clients interoperate when they share a protocol major version.

    Without `client_version`, "ours" is every major in leekha.protocol.SUPPORTED_VERSIONS.
    """
    theirs = _major(server_version)
    if client_version is None:
        return theirs in {major for major, _minor in SUPPORTED_VERSIONS}
    return theirs is not None and theirs == _major(client_version)


@dataclass(frozen=True)
class FoundServer:
    """One server that answered a browse; `tables`/`players` are None when not announced."""

    name: str
    host: str
    port: int
    proto: str
    tables: int | None
    players: int | None
    compatible: bool
    instance: str
    addresses: tuple[str, ...] = ()
    tls: bool = False  # the server announces `tls=1`: connect with TLS
    #: The server's table page for browsers (the `web` key), when it announces one.
    web: str | None = None


def _text(value: bytes | None) -> str:
    return value.decode("utf-8", errors="replace") if value is not None else ""


def _count(value: bytes | None) -> int | None:
    text = _text(value).strip()
    return int(text) if text.isdigit() and len(text) < 10 else None


def _page(value: bytes | None) -> str | None:
    """An announced page address: an http(s) URL without spaces, else nothing."""
    text = _text(value).strip()
    ok = text.startswith(("http://", "https://")) and len(text) < 256 and text.isprintable()
    return text if ok and " " not in text else None


def parse_txt(
    properties: Mapping[bytes, bytes | None],
    instance: str,
    host: str,
    port: int,
    addresses: Sequence[str] = (),
    client_version: str | None = None,
) -> FoundServer:
    """Build a FoundServer from raw TXT properties, tolerating missing or garbled fields."""
    name = _text(properties.get(b"name")).strip() or instance
    proto = _text(properties.get(b"proto")).strip()
    return FoundServer(
        name=name,
        host=host,
        port=port,
        proto=proto,
        tables=_count(properties.get(b"tables")),
        players=_count(properties.get(b"players")),
        compatible=bool(proto) and is_compatible(proto, client_version),
        instance=instance,
        addresses=tuple(addresses),
        tls=_text(properties.get(b"tls")).strip() == "1",
        web=_page(properties.get(b"web")),
    )


def _instance_of(full_name: str) -> str:
    suffix = "." + SERVICE_TYPE
    return full_name[: -len(suffix)] if full_name.endswith(suffix) else full_name


async def browse(
    timeout_s: float = 3.0,
    *,
    interfaces: Sequence[str] | None = None,
    until: Callable[[list[FoundServer]], bool] | None = None,
    client_version: str | None = None,
) -> list[FoundServer]:
    """Servers answering within `timeout_s`, sorted by name.

    `interfaces`: IPv4 addresses to browse on (None = all). `until` ends the wait early once
    it returns True for the servers found so far (e.g. "the one I am waiting for is here").
    """
    if not 0 < timeout_s <= _MAX_TIMEOUT_S:
        raise ValueError(f"timeout must be more than 0 and at most {_MAX_TIMEOUT_S:g} s")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    choice: list[str] | InterfaceChoice = list(interfaces) if interfaces else InterfaceChoice.All
    azc = AsyncZeroconf(interfaces=choice, ip_version=IPVersion.V4Only)
    found: dict[str, FoundServer] = {}
    tasks: set[asyncio.Task[None]] = set()
    enough = asyncio.Event()

    async def resolve(name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        budget_ms = max(100.0, (deadline - loop.time()) * 1000)
        if not await info.async_request(azc.zeroconf, budget_ms) or info.port is None:
            return
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if not addresses:
            return
        found[name] = parse_txt(
            info.properties,
            _instance_of(name),
            addresses[0],
            info.port,
            addresses,
            client_version,
        )
        if until is not None and until(sorted(found.values(), key=_sort_key)):
            enough.set()

    def on_change(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            found.pop(name, None)
            return
        task = loop.create_task(resolve(name))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    browser = AsyncServiceBrowser(azc.zeroconf, [SERVICE_TYPE], handlers=[on_change])
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(enough.wait(), timeout_s)
    finally:
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await browser.async_cancel()
        await azc.async_close()
    return sorted(found.values(), key=_sort_key)


def _sort_key(server: FoundServer) -> tuple[str, str, int]:
    return (server.name.casefold(), server.host, server.port)


def browse_sync(
    timeout_s: float = 3.0, *, interfaces: Sequence[str] | None = None
) -> list[FoundServer]:
    """`browse` for code without an event loop (the CLI)."""
    return asyncio.run(browse(timeout_s, interfaces=interfaces))


def format_servers(servers: Sequence[FoundServer], client_version: str | None = None) -> str:
    """A plain-text table of servers; incompatible ones are marked with the reason."""
    if not servers:
        return _("no servers found")
    ours = client_version or our_protocol_version()
    header = (_("NAME"), _("ADDRESS"), _("PROTO"), _("TABLES"), _("PLAYERS"), "")
    rows = [header]
    for s in servers:
        note = "" if s.compatible else _("incompatible (we speak {version})").format(version=ours)
        rows.append(
            (
                s.name,
                f"{s.host}:{s.port}",
                s.proto or "?",
                "?" if s.tables is None else str(s.tables),
                "?" if s.players is None else str(s.players),
                note,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout",
        type=in_range(0.1, _MAX_TIMEOUT_S, whole=False),
        default=3.0,
        metavar="SECONDS",
        help=_("how long to listen for answers (default: %(default)s)"),
    )


def run(args: argparse.Namespace) -> int:
    timeout = float(args.timeout)  # in range: the option's type
    try:
        servers = browse_sync(timeout)
    except OSError as exc:
        problem = _("leekha servers: cannot browse the network: {problem}").format(problem=exc)
        print(problem, file=sys.stderr)
        return 1
    print(format_servers(servers))
    return 0
