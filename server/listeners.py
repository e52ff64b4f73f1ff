"""The server's listeners: what to listen on, from the settings, and each listening
endpoint as a Twisted service that reports its real port: the game's (`listen`, or the
short form host/port) and the table page's (`web`, leekha.server.web). `start_server`
(leekha.server.app) starts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from twisted.application.internet import StreamServerEndpointService
from twisted.application.service import MultiService
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import serverFromString
from twisted.internet.interfaces import IListeningPort, IProtocolFactory, IStreamServerEndpoint
from twisted.logger import Logger
from twisted.python.failure import Failure
from zope.interface import implementer

from leekha.server.connection import ServerFactory
from leekha.server.settings import ServerSettings
from leekha.server.tls import Credentials, quote, with_credentials
from leekha.server.webvalues import PageAddress

if TYPE_CHECKING:
    from leekha.protocol.reactor import Reactor

log = Logger()


@implementer(IStreamServerEndpoint)
class Endpoint(Protocol):
    """A server endpoint as `Recorded` uses it: IStreamServerEndpoint's one method (the
    zope interface itself declares it without `self`, which mypy cannot call)."""

    def listen(self, protocolFactory: IProtocolFactory) -> Deferred[IListeningPort]: ...


class Recorded:
    """An endpoint that reports the port it listened on (or why it could not) through
    `ready`, so `start_server` learns a port-0 listener's real port and a busy port is a
    clear failure, while the service does the listening."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        self.ready: Deferred[IListeningPort] = Deferred()

    def listen(self, factory: IProtocolFactory) -> Deferred[IListeningPort | None]:
        d: Deferred[IListeningPort] = self.endpoint.listen(factory)

        def listening(port: IListeningPort) -> IListeningPort:
            self.ready.callback(port)
            return port

        def failed(failure: Failure) -> None:
            self.ready.errback(failure)  # the service then has no port to stop

        return d.addCallbacks(listening, failed)


@dataclass
class Listener:
    """One listening endpoint: its description (keys and paths left out) and real port."""

    description: str
    port: int
    tls: bool
    service: StreamServerEndpointService
    #: The address it listens on ("0.0.0.0", "::" for every interface).
    interface: str = ""


def endpoint_descriptions(settings: ServerSettings) -> list[str]:
    """What to listen on: every `listen` entry, or else the short form host/port (TLS with
    `tls`). Twisted picks IPv4 or IPv6 from the interface address itself."""
    if settings.listen:
        return list(settings.listen)
    kind = "ssl" if settings.tls else "tcp"
    return [f"{kind}:port={settings.port}:interface={quote(settings.host)}"]


def asks_port_0(description: str) -> bool:
    """Whether an endpoint description asks for any free port (tcp:0, tcp:port=0:...)."""
    parts = description.split(":")[1:]
    positional = [p for p in parts if "=" not in p]
    named = [p.partition("=")[2] for p in parts if p.startswith("port=")]
    return (named or positional[:1] or [""])[0] == "0"


def web_is_tls(settings: ServerSettings) -> bool:
    """Whether the table page is served over TLS: an ssl:/tls: `web` endpoint, else as
    the game's first listener."""
    kind = settings.web.partition(":")[0].lower()
    if settings.web and not settings.web.isdigit():
        return kind in ("ssl", "tls")
    return is_tls(endpoint_descriptions(settings)[0])


def web_description(settings: ServerSettings, listeners: list[Listener]) -> str | None:
    """What the table page listens on (None: off). Unset: the game's first listener's
    interface and kind on the port after the game's highest (the next port of the short
    form), or any free port when the first asked for any; a port number: that port there;
    else the endpoint given (`tls:` read as `ssl:`)."""
    web = settings.web
    first = listeners[0]
    if web == "off":
        return None
    if web and not web.isdigit():
        return tls_description(web)
    highest = max(x.port for x in listeners)
    if web:
        port = int(web)
    elif asks_port_0(first.description) or highest >= 65535:
        port = 0
    else:
        port = highest + 1
    kind = "ssl" if first.tls else "tcp"
    return f"{kind}:port={port}:interface={quote(first.interface or settings.host)}"


def is_tls(description: str) -> bool:
    return description.split(":", 1)[0].lower() in ("ssl", "tls")


def tls_description(description: str) -> str:
    """`tls:` is accepted as another name of Twisted's `ssl:` endpoint."""
    kind, _, rest = description.partition(":")
    return f"ssl:{rest}" if kind.lower() == "tls" else description


def for_log(description: str) -> str:
    """A description fit for the log: no key or certificate paths."""
    parts = description.split(":")
    keep = [p for p in parts if not p.startswith(("privateKey=", "certKey=", "extraCertChain="))]
    return ":".join(keep)


async def start_web(
    reactor: Reactor,
    settings: ServerSettings,
    factory: ServerFactory,
    services: MultiService,
    listeners: list[Listener],
    creds: Credentials | None,
    page: Path | None,
) -> Listener | None:
    """Listen for the table page (leekha.server.web) and tell the factory where it is. A
    `web` endpoint given that cannot listen stops the start; the default next port,
    taken by something else, only leaves the page off, with a warning."""
    description = web_description(settings, listeners)
    if description is None:
        return None
    # Imported here, not at the top: twisted.web and its WebSocket are a tenth of
    # `leekha play`'s start-up (bench/client_startup.py), and its local server has no page.
    from leekha.server.web import web_factory, wildcard

    tls = is_tls(description)
    full = with_credentials(description, creds) if tls and creds is not None else description
    endpoint = Recorded(serverFromString(reactor, full))
    service = StreamServerEndpointService(endpoint, web_factory(factory, page, settings.web_origin))
    service.setServiceParent(services)
    try:
        port = await endpoint.ready
    except Exception as exc:
        await service.disownServiceParent()
        if settings.web:
            raise
        log.warn(
            "the table page is off: cannot listen on {endpoint} ({why}); give --web",
            endpoint=for_log(description),
            why=exc,
        )
        return None
    address: Any = port.getHost()  # type: ignore[misc]
    host = str(getattr(address, "host", ""))
    public = settings.web_origin[0] if settings.web_origin else None
    factory.page = PageAddress(tls, int(address.port), None if wildcard(host) else host, public)
    return Listener(for_log(description), int(address.port), tls, service, host)
