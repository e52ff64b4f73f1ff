"""The table page's listener (leekha.server.web, leekha.server.websocket) over real
loopback sockets: a browser's session over the WebSocket at /ws is the TCP session, its
bad input is refused as on TCP while a game over TCP goes on, and the page's files are
served only from the shipped set with their security headers."""

from __future__ import annotations

import http.client
import socket
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from helpers.loopback import Player, bot_table, hello, is_type, within
from helpers.server import settings
from twisted.internet.defer import Deferred
from twisted.internet.ssl import Certificate, optionsForClientTLS
from twisted.internet.threads import deferToThread
from twisted.logger import capturedLogs
from twisted.web.iweb import IPolicyForHTTPS
from twisted.web.websocket import ConnectionRejected, WebSocketClientEndpoint, WebSocketTransport
from zope.interface import implementer

from leekha.client.cli import main
from leekha.protocol import catalogue as M
from leekha.protocol.codec import DEFAULT_MAX_FRAME, encode
from leekha.protocol.message import Message
from leekha.server.app import RunningServer, start_server
from leekha.server.connection import FramedConnection, Requests
from leekha.server.settings import SettingsError, load_settings
from leekha.server.web import CSP, origin_allowed, shipped
from leekha.server.websocket import ws_frames

INDEX = b"<!doctype html><title>Leekha</title><script type=module src=app.js></script>"
APP = b"export const answer = 42;\n"


def page_folder(tmp: Path) -> Path:
    """A page as the client ships one, with what must never be served beside it."""
    page = tmp / "web"
    (page / "i18n").mkdir(parents=True)
    (page / "index.html").write_bytes(INDEX)
    (page / "app.js").write_bytes(APP)
    (page / "style.css").write_bytes(b"body { color: black }\n")
    (page / "i18n" / "ar.json").write_bytes(
        b'{"hello": "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7"}'
    )
    (page / ".secret").write_bytes(b"dotfile")
    (page / ".git").mkdir()
    (page / ".git" / "config").write_bytes(b"git")
    (page / "tool.py").write_bytes(b"print('not served')")
    (tmp / "outside.txt").write_bytes(b"outside the page")
    (page / "link.txt").symlink_to(tmp / "outside.txt")
    return page


class WsPlayer(Player):
    """A scripted player over the WebSocket: one binary message per protocol message."""

    ws: WebSocketTransport

    def negotiationStarted(self, transport: WebSocketTransport) -> None:
        self.ws = transport

    def negotiationFinished(self) -> None:
        pass

    def bytesMessageReceived(self, data: bytes | bytearray) -> None:
        self.dataReceived(len(data).to_bytes(4, "big") + bytes(data))

    def textMessageReceived(self, message: str) -> None:
        raise AssertionError(f"the server sent text: {message!r}")

    def pongReceived(self, payload: bytes) -> None:
        pass

    def send(self, msg: Message) -> None:
        self.ws.sendBytesMessage(encode(msg)[4:])


@implementer(IPolicyForHTTPS)
class _Trusting:
    """TLS to our own server: its certificate (made for localhost) and no other."""

    def __init__(self, cert: Path) -> None:
        self.cert = cert

    def creatorForNetloc(self, hostname: bytes, port: int) -> Any:
        root = Certificate.loadPEM(self.cert.read_bytes())
        return optionsForClientTLS("localhost", trustRoot=root)


async def ws_connect(
    reactor: Any, port: int, player: WsPlayer | None = None, tls: Path | None = None
) -> WsPlayer:
    peer = player or WsPlayer()

    class Factory:
        def buildProtocol(self, url: str) -> WsPlayer:
            return peer

    if tls is not None:
        url = f"wss://127.0.0.1:{port}/ws"
        policy = IPolicyForHTTPS(_Trusting(tls))
        endpoint = WebSocketClientEndpoint.new(reactor, url, tlsPolicy=policy)
    else:
        endpoint = WebSocketClientEndpoint.new(reactor, f"ws://127.0.0.1:{port}/ws")
    await within(Deferred.fromCoroutine(endpoint.connect(Factory())), reactor)
    return peer


async def serve(reactor: Any, tmp: Path, **over: Any) -> RunningServer:
    return await start_server(
        reactor, settings(tmp / "data", bot_think_ms=1, **over), page=page_folder(tmp)
    )


def get(port: int, path: str, headers: dict[str, str] | None = None, tls: bool = False) -> Any:
    """One HTTP request sent verbatim (no client-side path clean-up); the response read."""
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        conn: Any = http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=context)
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        response.body = response.read()
        return response
    finally:
        conn.close()


@pytest_twisted.ensureDeferred
async def test_a_browser_session_plays_at_a_bot_table_over_the_websocket(tmp_path: Path) -> None:
    from twisted.internet import reactor

    server = await serve(reactor, tmp_path)
    try:
        assert server.web is not None and server.page is not None
        assert server.web.port not in (0, server.port)
        ann = await ws_connect(reactor, server.web.port)
        welcome = await hello(reactor, ann, "ann")
        assert welcome.web == f"http://127.0.0.1:{server.web.port}/"
        await bot_table(reactor, ann, target=10)
        reply = await within(ann.request(M.Start(id=ann.rid())), reactor)
        assert isinstance(reply, M.Ok)
        over = await within(ann.wait_for(is_type(M.GameOver)), reactor)
        assert max(over.totals) >= 10
        # The same session as TCP: a connection of the factory, with its address.
        (conn,) = server.factory.connections
        assert isinstance(conn, FramedConnection) and conn.ip == "127.0.0.1"
        requests = conn.requests
        assert isinstance(requests, Requests)
        assert requests.session is not None and requests.session.name == "ann"
        # From this machine, yet not the operator: through the page, a reverse proxy's
        # guests would all come from here (cancel_tournament trusts only the game port).
        assert not requests.operator
    finally:
        await server.stop()
    err = await within(ann.wait_for(is_type(M.Error)), reactor)
    assert err.code == "server_shutdown"
    await within(ann.lost, reactor)


@pytest_twisted.ensureDeferred
async def test_bad_websocket_input_is_refused_and_a_tcp_game_goes_on(tmp_path: Path) -> None:
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

    server = await serve(reactor, tmp_path, kick_penalty_s=0)
    try:
        assert server.web is not None
        web = server.web.port
        bob = Player()
        await within(
            connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", server.port), bob), reactor
        )
        welcome = await hello(reactor, bob, "bob")
        assert welcome.web == f"http://127.0.0.1:{web}/"  # a TCP client learns the page too
        await bot_table(reactor, bob, target=30)
        assert isinstance(await within(bob.request(M.Start(id=bob.rid())), reactor), M.Ok)
        await within(bob.wait_for(is_type(M.TrickTaken)), reactor)

        # Garbage before any hello: not a client at all, dropped without a word (as TCP).
        garbage = await ws_connect(reactor, web)
        garbage.ws.sendBytesMessage(b"\xc1\xff garbage")
        await within(garbage.lost, reactor)
        assert not garbage.inbox
        # After a hello: the decoder's words, then the close.
        cases: list[tuple[str, Callable[[WsPlayer], None], str]] = [
            ("cat", lambda p: p.ws.sendBytesMessage(b"\xc1not msgpack"), "bad_msgpack"),
            ("dan", lambda p: p.ws.sendBytesMessage(b"\x93\x01\x02\x03"), "bad_frame"),
            ("eve", lambda p: p.ws.sendBytesMessage(b""), "bad_frame"),
            ("fay", lambda p: p.ws.sendTextMessage('{"type": "ping"}'), "bad_frame"),
            (
                "gus",
                lambda p: p.ws.sendBytesMessage(b"\x80" * (DEFAULT_MAX_FRAME + 1)),
                "frame_too_large",
            ),
            (
                "hal",
                lambda p: p.ws.sendBytesMessage(b"\x80" * (4 * DEFAULT_MAX_FRAME)),
                "frame_too_large",
            ),
        ]
        for name, bad, code in cases:
            peer = await ws_connect(reactor, web)
            await hello(reactor, peer, name)
            bad(peer)
            err = await within(peer.wait_for(is_type(M.Error)), reactor)
            assert err.code == code, (name, err)
            await within(peer.lost, reactor)

        # A page of another origin may not open the socket: 403 before any upgrade.
        upgrade = {
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        }
        plain = await deferToThread(get, web, "/ws")  # not an upgrade at all
        assert plain.status == 426 and plain.getheader("Upgrade") == "websocket"
        foreign = await deferToThread(get, web, "/ws", {**upgrade, "Origin": "http://evil.example"})
        assert foreign.status == 403
        assert foreign.getheader("Content-Security-Policy") == CSP
        own = {**upgrade, "Origin": f"http://127.0.0.1:{web}", "Host": f"127.0.0.1:{web}"}

        def upgraded() -> bytes:
            with socket.create_connection(("127.0.0.1", web), timeout=10) as raw:
                lines = ["GET /ws HTTP/1.1"] + [f"{k}: {v}" for k, v in own.items()]
                raw.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
                return raw.recv(100)

        assert (await deferToThread(upgraded)).startswith(b"HTTP/1.1 101")

        # The TCP game never noticed: still connected, still playing.
        assert not bob.lost.called
        bob.inbox.clear()
        await within(bob.wait_for(is_type(M.TrickTaken)), reactor)
    finally:
        await server.stop()


@pytest_twisted.ensureDeferred
async def test_the_page_files_only_with_their_headers(tmp_path: Path) -> None:
    from twisted.internet import reactor

    server = await serve(reactor, tmp_path)
    try:
        assert server.web is not None
        port = server.web.port

        def check() -> None:
            index = get(port, "/")
            assert (index.status, index.body) == (200, INDEX)
            assert index.getheader("Content-Type") == "text/html; charset=utf-8"
            assert index.getheader("Content-Security-Policy") == CSP
            assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
            assert index.getheader("X-Content-Type-Options") == "nosniff"
            assert index.getheader("Referrer-Policy") == "no-referrer"
            assert index.getheader("Cache-Control") == "no-cache"
            same = get(port, "/", {"If-None-Match": index.getheader("ETag")})
            assert (same.status, same.body) == (304, b"")
            kinds = {
                "/app.js": "text/javascript; charset=utf-8",
                "/style.css": "text/css; charset=utf-8",
                "/i18n/ar.json": "application/json",
                "/index.html": "text/html; charset=utf-8",
            }
            for path, kind in kinds.items():
                answer = get(port, path)
                assert (answer.status, answer.getheader("Content-Type")) == (200, kind), path
            assert get(port, "/app.js").body == APP
            # A request body is of no use to the page: a large one is cut off unread. The
            # server stops at 1 MiB; the kernel's buffers on loopback can hold several MiB
            # more before a send fails, so the body offered is far larger than both.
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                head = f"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {32 << 20}\r\n\r\n"
                raw.sendall(head.encode())
                with pytest.raises(OSError):
                    for _ in range(512):
                        raw.sendall(b"\0" * (64 << 10))
                    raise AssertionError("32 MiB taken")
            for path in [
                "/../outside.txt",
                "/%2e%2e/outside.txt",
                "/i18n/../../outside.txt",
                "/i18n/%2E%2E/%2e%2e/outside.txt",
                "/i18n/",
                "/i18n",
                "/.secret",
                "/.git/config",
                "/tool.py",
                "/link.txt",
                "/nothing.js",
                "//etc/passwd",
                "/%ff",
            ]:
                answer = get(port, path)
                assert answer.status == 404, path
                assert b"outside" not in answer.body and b"git" not in answer.body
                assert answer.getheader("X-Content-Type-Options") == "nosniff"

        await deferToThread(check)
    finally:
        await server.stop()


def test_the_shipped_set_and_a_missing_page(tmp_path: Path) -> None:
    files = shipped(page_folder(tmp_path))
    assert sorted(files) == ["/app.js", "/i18n/ar.json", "/index.html", "/style.css"]
    assert shipped(tmp_path / "absent") == {} and shipped(None) == {}


@pytest_twisted.ensureDeferred
async def test_a_missing_page_is_said_only_when_asked(tmp_path: Path) -> None:
    from twisted.internet import reactor

    server = await start_server(reactor, settings(tmp_path), page=tmp_path / "no-page")
    try:
        assert server.web is not None
        answer = await deferToThread(get, server.web.port, "/")
        assert answer.status == 404 and b"not installed" in answer.body
    finally:
        await server.stop()


class _Asked:
    """What `origin_allowed` reads of an upgrade request."""

    def __init__(self, origin: str | None, host: str, secure: bool = False) -> None:
        self.headers = {b"host": host.encode()}
        if origin is not None:
            self.headers[b"origin"] = origin.encode()
        self.secure = secure

    def getHeader(self, name: bytes) -> bytes | None:
        return self.headers.get(name)

    def isSecure(self) -> bool:
        return self.secure


def test_the_origin_rule() -> None:
    extra = frozenset({"https://cards.example.org"})

    def allowed(origin: str | None, host: str = "192.168.1.20:7242", secure: bool = False) -> bool:
        return origin_allowed(_Asked(origin, host, secure), extra)  # type: ignore[arg-type]

    assert allowed("http://192.168.1.20:7242")
    assert allowed("HTTP://192.168.1.20:7242/")
    assert allowed(None)  # not a browser
    assert allowed("https://cards.example.org")  # the reverse proxy's
    assert allowed("https://leekha.lan", host="leekha.lan:443", secure=True)
    assert not allowed("https://192.168.1.20:7242")  # another scheme is another origin
    assert not allowed("http://192.168.1.20:7243")
    assert not allowed("http://evil.example")
    assert not allowed("null")
    assert not allowed("http://cards.example.org")


@pytest_twisted.ensureDeferred
async def test_web_off_and_the_default_next_port(tmp_path: Path) -> None:
    from twisted.internet import reactor

    off = await start_server(reactor, settings(tmp_path / "a", web="off"))
    try:
        assert off.web is None and off.page is None
        ann = Player()
        from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

        await within(
            connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", off.port), ann), reactor
        )
        assert (await hello(reactor, ann, "ann")).web is None
    finally:
        await off.stop()
    port = _two_free_ports()
    nxt = await start_server(reactor, settings(tmp_path / "b", port=port))
    try:
        assert nxt.web is not None and nxt.web.port == port + 1
    finally:
        await nxt.stop()


def _two_free_ports() -> int:
    """A port p with p + 1 free too, on 127.0.0.1 (checked, then let go)."""
    for _ in range(50):
        with socket.socket() as a:
            a.bind(("127.0.0.1", 0))
            p = a.getsockname()[1]
            if p >= 65535:
                continue
            with socket.socket() as b:
                try:
                    b.bind(("127.0.0.1", p + 1))
                except OSError:
                    continue
        return int(p)
    pytest.skip("no two free ports in a row")


@pytest_twisted.ensureDeferred
async def test_tls_serves_the_page_over_https_with_the_same_certificate(tmp_path: Path) -> None:
    from twisted.internet import reactor

    server = await serve(reactor, tmp_path, tls=True)
    try:
        assert server.web is not None and server.page is not None and server.tls is not None
        assert server.web.tls and server.page.url("h").startswith("https://")

        def fetch() -> tuple[int, bytes, str]:
            answer = get(server.web.port, "/app.js", tls=True)  # type: ignore[union-attr]
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            port = server.web.port  # type: ignore[union-attr]
            with (
                socket.create_connection(("127.0.0.1", port)) as raw,
                context.wrap_socket(raw) as tls,
            ):
                der = tls.getpeercert(binary_form=True)
            import hashlib

            assert der is not None
            fp = ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())
            return answer.status, answer.body, fp

        status, body, fp = await deferToThread(fetch)
        assert (status, body) == (200, APP)
        assert fp == server.tls.fingerprint
        # The socket is wss: on the same certificate, and a session plays over it.
        ann = await ws_connect(reactor, server.web.port, tls=server.tls.cert)
        await hello(reactor, ann, "ann")
        reply = await within(ann.request(M.ListTables(id=ann.rid())), reactor)
        assert isinstance(reply, M.TableList)
    finally:
        await server.stop()


def test_bad_web_values_are_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    for value, words in [
        ("bogus:1", "must be off, a port number, or an endpoint"),
        ("tcp:notaport", "not a valid endpoint"),
        ("70000", "a port is a number from 0 to 65535"),
    ]:
        with pytest.raises(SettingsError, match=words):
            load_settings(None, {"web": value})
        assert main(["serve", "--config", "/dev/null", "--web", value]) == 2
        err = capsys.readouterr().err
        assert "web:" in err and words in err and "Traceback" not in err
    with pytest.raises(SettingsError, match="an origin is http"):
        load_settings(None, {"web_origin": ["ftp://x"]})
    assert load_settings(None, {"web_origin": ["HTTPS://Cards.Example.org:443/"]}).web_origin == (
        "https://cards.example.org",
    )
    assert load_settings(None, {"web": "OFF"}).web == "off"


@pytest_twisted.ensureDeferred
async def test_the_deadlines_keepalive_and_caps_are_the_tcp_ones(tmp_path: Path) -> None:
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

    server = await serve(
        reactor, tmp_path, frame_timeout_s=0.5, ping_interval_s=0.3, max_connections_per_ip=2
    )
    try:
        assert server.web is not None
        # The keepalive: a silent browser is pinged with the protocol's own ping.
        ann = await ws_connect(reactor, server.web.port)
        await hello(reactor, ann, "ann")
        ping = await within(ann.wait_for(is_type(M.Ping)), reactor, 5)
        ann.send(M.Pong(re=ping.id))
        # A message begun and never finished: dropped at the frame deadline (slowloris).
        slow = await ws_connect(reactor, server.web.port)
        await hello(reactor, slow, "slow")
        raw: Any = slow.ws.transport  # type: ignore[attr-defined]
        # FIN + binary, masked, a 16-bit length of 1000, the mask, then 10 bytes only.
        with capturedLogs() as events:
            raw.write(b"\x82\xfe\x03\xe8" + b"\x00\x00\x00\x00" + b"\x80" * 10)
            await within(slow.lost, reactor, 5)
        assert any("did not complete" in str(e.get("why", "")) for e in events), events
        assert not [m for m in slow.inbox if isinstance(m, M.Error)]  # no words, as on TCP
        # The per-address cap counts WebSocket and TCP peers together: ann and one more.
        bob = Player()
        await within(
            connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", server.port), bob), reactor
        )
        await hello(reactor, bob, "bob")
        # (The page's HTTP connection counts too, so the third is refused in words before
        # its upgrade: 503 and the reason, where the game port answers `server_full`.)
        with pytest.raises(ConnectionRejected) as refused:
            await ws_connect(reactor, server.web.port)
        assert refused.value.response.code == 503
        assert not ann.lost.called and not bob.lost.called
    finally:
        await server.stop()


@pytest.mark.parametrize("size", [1, 125, 126, 65535, 65536])
def test_the_server_frames_read_back_in_a_websocket_parser(size: int) -> None:
    """`ws_frames` writes RFC 6455 frames itself; wsproto's client reads them back."""
    from wsproto.frame_protocol import FrameProtocol

    body = bytes(i % 251 for i in range(size))
    data = b"".join(len(b).to_bytes(4, "big") + b for b in (body, b"x"))
    reader = FrameProtocol(client=True, extensions=[])
    reader.receive_bytes(ws_frames(data))
    frames = list(reader.received_frames())
    assert [f.payload for f in frames] == [body, b"x"]
    assert all(f.message_finished and f.frame_finished for f in frames)
