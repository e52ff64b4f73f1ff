"""The table page over HTTP (or HTTPS): the page's files and the WebSocket at `/ws`, on
one listener of their own (`leekha serve --web`).

The page's folder is handed in by the composition root (`leekha serve` is dispatched by
leekha.client.cli, which knows where the client's page ships); the server never imports
the client. Its files are read once at start into memory: only those are served, by their
exact path, so no request reaches the file system (no listing, no `..`, no dotfiles, no
symbolic links). Every answer carries a Content-Security-Policy without inline script,
`X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`; the files are
revalidated by their ETag on each load (`Cache-Control: no-cache`).

The WebSocket is refused 403 before any upgrade when a browser opened it from a page of
another origin: its `Origin` must be the page's own (the scheme and `Host` of the upgrade
request) or one listed in `web_origin` (a reverse proxy's public address). A client that
is not a browser sends no `Origin` and is let in; it is untrusted like any TCP peer.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

from twisted.logger import Logger
from twisted.web.resource import Resource
from twisted.web.server import Request, Site
from twisted.web.websocket import WebSocketResource

from leekha.protocol.codec import DEFAULT_MAX_FRAME
from leekha.server.connection import ServerFactory
from leekha.server.webmeter import MeteredFactory
from leekha.server.websocket import WebSocketSession
from leekha.server.webvalues import parse_origin

log = Logger()

#: The WebSocket's path on the page's origin.
SOCKET_PATH = "/ws"
#: Seconds an HTTP connection may sit idle (an upgraded one is the keepalive's instead).
HTTP_IDLE_S = 60

CSP = (
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
#: Headers on every answer, a file's, a refusal's or a 404.
SECURITY_HEADERS = {
    b"content-security-policy": CSP.encode(),
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"no-referrer",
    b"cross-origin-opener-policy": b"same-origin",
}

#: The files served, by extension (a file without one is plain text, e.g. LICENSE); a file
#: of any other kind in the page's folder is not served.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webp": "image/webp",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    "": "text/plain; charset=utf-8",
}


@dataclass(frozen=True)
class PageFile:
    body: bytes
    type: str
    etag: bytes


def shipped(root: Path | None) -> dict[str, PageFile]:
    """The page's files by URL path ("/index.html"), read once: regular files of a served
    kind, none under a dot-named folder, none a symbolic link. No folder: none."""
    files: dict[str, PageFile] = {}
    if root is None or not root.is_dir():
        return files
    for folder, dirs, names in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(names):
            path = Path(folder, name)
            kind = CONTENT_TYPES.get(path.suffix.lower())
            if name.startswith(".") or kind is None or path.is_symlink() or not path.is_file():
                continue
            body = path.read_bytes()
            etag = b'"' + hashlib.sha256(body).hexdigest()[:32].encode() + b'"'
            files["/" + path.relative_to(root).as_posix()] = PageFile(body, kind, etag)
    return files


def _plain(request: Request, code: int, text: str) -> bytes:
    request.setResponseCode(code)
    request.setHeader(b"content-type", b"text/plain; charset=utf-8")
    return text.encode()


def _head(request: Request, body: bytes) -> bytes:
    """A HEAD's answer: the GET's headers, its length, no body (Twisted, handed a body
    for a HEAD, logs a warning per request: a scanner's HEADs would fill the log)."""
    request.setHeader(b"content-length", b"%d" % len(body))
    return b""


class _Files(Resource):
    """Every path but /ws: a shipped file, or 404."""

    isLeaf = True

    def __init__(self, files: dict[str, PageFile], root: Path | None) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.files = files
        self.root = root
        self.said_missing = False

    def render_GET(self, request: Request) -> bytes:
        try:
            path = unquote_to_bytes(request.path or b"/").decode("utf-8")
        except UnicodeDecodeError:
            path = ""
        found = self.files.get("/index.html" if path == "/" else path)
        if found is None:
            if not self.files:
                if not self.said_missing:  # once, for the operator: where it was looked for
                    self.said_missing = True
                    log.warn("the table page is not installed: {root} has none", root=self.root)
                return _plain(request, 404, "the table page is not installed on this server\n")
            return _plain(request, 404, "not found\n")
        request.setHeader(b"etag", found.etag)
        request.setHeader(b"cache-control", b"no-cache")
        if request.getHeader(b"if-none-match") == found.etag:
            request.setResponseCode(304)
            return b""
        request.setHeader(b"content-type", found.type.encode())
        return found.body

    def render_HEAD(self, request: Request) -> bytes:
        return _head(request, self.render_GET(request))


class _Root(Resource):
    def __init__(self, files: _Files, socket: Any) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.files = files
        self.putChild(SOCKET_PATH.strip("/").encode(), socket)

    def getChild(self, path: bytes, request: Any) -> Resource:
        return self.files

    def render_GET(self, request: Request) -> bytes:
        return self.files.render_GET(request)

    def render_HEAD(self, request: Request) -> bytes:
        return self.files.render_HEAD(request)


def origin_allowed(request: Request, extra: frozenset[str]) -> bool:
    """A browser's `Origin` is the page's own origin or one of `extra`; no `Origin`: not a
    browser, let in (a browser always sends one with a WebSocket)."""
    origin = request.getHeader(b"origin")
    if origin is None:
        return True
    try:
        said = parse_origin(origin.decode("latin-1"))
    except ValueError:
        return False  # "null" (a sandboxed or file: page) and anything malformed
    if said in extra:
        return True
    host = request.getHeader(b"host")
    if host is None:
        return False
    scheme = "https" if request.isSecure() else "http"
    try:
        return said == parse_origin(f"{scheme}://{host.decode('latin-1')}")
    except ValueError:
        return False


def bad_upgrade(request: Request) -> str | None:
    """Why the request is not a WebSocket upgrade wsproto accepts, or None: the check
    Twisted's WebSocketResource makes, which logs every failure at error level, and
    which headers h11 finds malformed (two `Host`) broke with a traceback
    and a 500."""
    import h11
    from wsproto import ConnectionType
    from wsproto.handshake import H11Handshake
    from wsproto.utilities import RemoteProtocolError

    raw = request.requestHeaders.getAllRawHeaders()
    headers = [(name, value) for name, values in raw for value in values]
    try:
        H11Handshake(ConnectionType.SERVER).initiate_upgrade_connection(headers, request.path)
    except (RemoteProtocolError, h11.ProtocolError) as exc:
        return str(exc)
    return None


class _Socket(WebSocketResource):
    """`/ws`: the origin checked, then a `WebSocketSession` around the connection the
    server's factory builds for the peer's address (its caps and penalty box apply)."""

    def __init__(self, factory: ServerFactory, origins: frozenset[str]) -> None:
        super().__init__(self)
        self.game = factory
        self.origins = origins

    def render_GET(self, request: Request) -> bytes | int:
        upgrade = (request.getHeader(b"upgrade") or b"").lower()
        if upgrade != b"websocket":  # a plain GET (a scanner, a curious browser): no log
            return self._not_upgrade(request)
        ip = str(request.getClientAddress().host)  # type: ignore[attr-defined]
        if not origin_allowed(request, self.origins):
            origin = request.getHeader(b"origin")
            self.game.stats.note(ip, "foreign_origin")
            log.debug("refused a WebSocket from origin {origin}", origin=origin)
            return _plain(request, 403, "this page's origin may not open the table socket\n")
        why = bad_upgrade(request)
        if why is not None:  # said here: Twisted would log each one as an error
            self.game.stats.note(ip, "bad_upgrade")
            return _plain(request, 400, f"not a WebSocket upgrade: {why}\n")
        return super().render_GET(request)

    def render_HEAD(self, request: Request) -> bytes:
        """No upgrade on a HEAD (Twisted would answer it 101 as a GET): the plain GET's
        answer, without its body."""
        return _head(request, self._not_upgrade(request))

    def _not_upgrade(self, request: Request) -> bytes:
        request.setHeader(b"upgrade", b"websocket")
        return _plain(request, 426, "this is the table's WebSocket; open the page instead\n")

    def buildProtocol(self, request: Request) -> WebSocketSession:
        peer = self.game.buildProtocol(request.getClientAddress(), direct=False)
        request.channel.setTimeout(None)  # the session's keepalive judges it from now on
        return WebSocketSession(peer, request, DEFAULT_MAX_FRAME)


class _Site(Site):
    """The page's site: the security headers on every answer, no access log line per
    request, no tracebacks to the browser."""

    displayTracebacks = False
    noisy = False

    def getResourceFor(self, request: Request) -> Any:
        for name, value in SECURITY_HEADERS.items():
            request.setHeader(name, value)
        return super().getResourceFor(request)  # type: ignore[no-untyped-call]

    def log(self, request: Any) -> None:
        """Requests are not logged one by one."""


def web_factory(
    factory: ServerFactory, page: Path | None, origins: tuple[str, ...] = ()
) -> MeteredFactory:
    """The factory of the page's listener: the files of `page`, and `/ws` feeding
    `factory`'s connections."""
    files = _Files(shipped(page), page)
    root = _Root(files, _Socket(factory, frozenset(origins)))
    site = _Site(root, timeout=HTTP_IDLE_S)  # type: ignore[no-untyped-call]
    return MeteredFactory(site, factory)


def wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return host == ""


def lan_address() -> str:
    """A non-loopback IPv4 address of this machine, for the start line of a server that
    listens on every interface (127.0.0.1 when it has none)."""
    import ifaddr  # zeroconf's own interface scanner, installed with it

    found = [
        ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips if isinstance(ip.ip, str)
    ]
    public = [a for a in found if not ipaddress.ip_address(a).is_loopback]
    return (public or ["127.0.0.1"])[0]
