"""Announce a running server on the LAN with mDNS/DNS-SD so clients find it without an address.

Built on zeroconf's asyncio API because the server runs on Twisted's asyncio reactor: the
zeroconf engine then shares the reactor's event loop and needs no thread of its own. Twisted
code drives the coroutines with `Deferred.fromFuture(asyncio.ensure_future(coro))`.

Lobby counts change often under load, so `update` coalesces changes and re-announces at most
once per `min_update_interval_s`; multicast traffic stays flat however busy the server is.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
from collections.abc import Callable, Sequence

import ifaddr  # zeroconf's own interface scanner, installed with it
from twisted.logger import Logger
from zeroconf import InterfaceChoice, IPVersion, NonUniqueNameException, ServiceInfo
from zeroconf.asyncio import AsyncZeroconf

from leekha.protocol import PROTOCOL_VERSION
from leekha.protocol.discovery import SERVICE_TYPE, version_text

# DNS labels are at most 63 bytes; a TXT string at most 255 bytes including "key=".
_MAX_LABEL_BYTES = 63
_MAX_TXT_NAME_BYTES = 200
_MAX_TXT_WEB_BYTES = 250

log = Logger()


class AnnounceError(RuntimeError):
    """Announcing failed (no usable network, socket error); the server can run without it."""


def _truncate_utf8(text: str, limit: int) -> str:
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def instance_label(name: str) -> str:
    """The DNS-SD instance label for a server name: one DNS label, at most 63 bytes."""
    label = " ".join(name.replace(".", " ").split()) or "Leekha"
    return _truncate_utf8(label, _MAX_LABEL_BYTES).rstrip() or "Leekha"


def txt_properties(
    name: str,
    proto_version: str,
    tables: int,
    players: int,
    *,
    tls: bool = False,
    web: str | None = None,
) -> dict[str, str]:
    """The TXT record of an announcement; the full name travels here, untruncated by DNS.
    `web`: the table page's address (leekha.server.web), when the server serves one."""
    out = {
        "name": _truncate_utf8(name, _MAX_TXT_NAME_BYTES),
        "proto": proto_version,
        "tables": str(max(0, int(tables))),
        "players": str(max(0, int(players))),
    }
    if tls:
        out["tls"] = "1"
    if web is not None and len(web.encode()) <= _MAX_TXT_WEB_BYTES:
        out["web"] = web
    return out


def _default_addresses(interfaces: Sequence[str] | None) -> list[str]:
    """Addresses clients should dial: the chosen interfaces, else every non-loopback IPv4."""
    if interfaces:
        return list(interfaces)
    everything = [
        ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips if isinstance(ip.ip, str)
    ]
    public = [a for a in everything if not ipaddress.ip_address(a).is_loopback]
    return public or everything or ["127.0.0.1"]


class Announcer:
    """Publishes one `_leekha._tcp` service and keeps its lobby counts current.

    `interfaces`: IPv4 addresses to announce on (None = all); `addresses`: addresses put in
    the A records (default: the interfaces, else the host's non-loopback IPv4 addresses).
    """

    def __init__(
        self,
        name: str,
        port: int,
        proto_version: str | Sequence[int] = PROTOCOL_VERSION,
        *,
        interfaces: Sequence[str] | None = None,
        addresses: Sequence[str] | None = None,
        hostname: str | None = None,
        min_update_interval_s: float = 2.0,
        tls: bool = False,
        web: Callable[[str], str] | None = None,
    ) -> None:
        if not 1 <= port <= 65535:
            raise ValueError(f"port must be from 1 to 65535 (got {port})")
        self.name = name
        self.port = port
        self.proto_version = version_text(proto_version)
        self.tls = tls
        #: The table page's address for a host (leekha.server.web.PageAddress.url).
        self.web = web
        self._interfaces = list(interfaces) if interfaces else None
        self._addresses = list(addresses) if addresses else _default_addresses(self._interfaces)
        for address in self._addresses:
            try:
                ipaddress.ip_address(address)
            except ValueError:
                raise ValueError(f"not an IP address: {address!r}") from None
        host = hostname or socket.gethostname().split(".")[0] or "leekha"
        self._server = f"{instance_label(host).replace(' ', '-')}.local."
        self._min_interval = min_update_interval_s
        self._tables = 0
        self._players = 0
        self._azc: AsyncZeroconf | None = None
        self._info: ServiceInfo | None = None
        self._last_sent = 0.0
        self._pending: asyncio.Task[None] | None = None

    @property
    def registered_name(self) -> str | None:
        """The full service name in use, after any rename on a name clash; None when stopped."""
        return self._info.name if self._info else None

    def _service_info(self, instance: str) -> ServiceInfo:
        return ServiceInfo(
            SERVICE_TYPE,
            f"{instance}.{SERVICE_TYPE}",
            port=self.port,
            properties=txt_properties(
                self.name,
                self.proto_version,
                self._tables,
                self._players,
                tls=self.tls,
                web=self.web(self._addresses[0]) if self.web is not None else None,
            ),
            server=self._server,
            parsed_addresses=self._addresses,
        )

    async def start(self) -> None:
        """Register the service; a clashing name on the LAN gets a " (2)" style suffix."""
        if self._azc is not None:
            return
        choice: list[str] | InterfaceChoice = self._interfaces or InterfaceChoice.All
        v6 = any(ipaddress.ip_address(a).version == 6 for a in self._addresses)
        try:
            azc = AsyncZeroconf(
                interfaces=choice, ip_version=IPVersion.All if v6 else IPVersion.V4Only
            )
        except (OSError, ValueError) as exc:
            raise AnnounceError(f"cannot open mDNS sockets: {exc}") from exc
        info = self._service_info(instance_label(self.name))
        try:
            await (await azc.async_register_service(info, allow_name_change=True))
        except (OSError, NonUniqueNameException) as exc:
            await azc.async_close()
            raise AnnounceError(f"cannot announce {info.name!r}: {exc}") from exc
        self._azc, self._info = azc, info
        self._last_sent = asyncio.get_running_loop().time()
        log.info(
            "announcing {service} on port {port} at {addresses}",
            service=info.name,
            port=self.port,
            addresses=self._addresses,
        )

    async def update(self, tables: int, players: int) -> None:
        """Record new lobby counts; they go out within `min_update_interval_s`.

        Never waits for the network: the send runs as a task, and counts that change while
        one is due or in flight ride along with it.
        """
        self._tables, self._players = tables, players
        if self._azc is None or (self._pending is not None and not self._pending.done()):
            return  # not started, or a coalesced send will pick up these counts
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._last_sent + self._min_interval - loop.time())
        self._pending = loop.create_task(self._send_later(delay))

    async def _send_later(self, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        while self._azc is not None:
            sent = (self._tables, self._players)
            await self._send()
            if (self._tables, self._players) == sent:
                return
            await asyncio.sleep(self._min_interval)  # counts moved mid-send: go again

    async def _send(self) -> None:
        if self._azc is None or self._info is None:
            return
        instance = self._info.get_name()
        info = self._service_info(instance)
        self._last_sent = asyncio.get_running_loop().time()
        try:
            await (await self._azc.async_update_service(info))
        except OSError as exc:
            log.warn("mDNS update failed: {error}", error=exc)
            return
        self._info = info

    async def stop(self) -> None:
        """Withdraw the announcement (goodbye packets) and close the mDNS sockets."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pending
        azc, info = self._azc, self._info
        self._azc = self._info = None
        if azc is None:
            return
        try:
            if info is not None:
                await (await azc.async_unregister_service(info))
        except OSError as exc:
            log.warn("mDNS withdraw failed: {error}", error=exc)
        finally:
            await azc.async_close()
        log.info("stopped announcing {service}", service=info.name if info else None)
