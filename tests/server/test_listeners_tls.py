"""The server as Twisted services: several listeners (TCP, TLS, IPv6) from endpoint
descriptions, the self-signed certificate, and bad TLS input, over real loopback sockets
with certificates made in the test."""

from __future__ import annotations

import signal
import socket
import ssl
from pathlib import Path
from typing import Any, cast

import pytest
import pytest_twisted
from helpers.loopback import Player, bot_table, hello, is_type, serve_process, within
from helpers.server import VERSIONS, settings
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol, wrapClientTLS
from twisted.internet.interfaces import IStreamClientEndpoint
from twisted.internet.ssl import Certificate, optionsForClientTLS
from twisted.logger import capturedLogs

from leekha.protocol import catalogue as M
from leekha.protocol.codec import Decoder, encode
from leekha.server.app import start_server
from leekha.server.listeners import endpoint_descriptions
from leekha.server.tls import credentials, fingerprint, make_self_signed


def make_cert(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    make_self_signed(cert, key, hostname="leekha.test")
    return cert, key


async def tls_connect(reactor: Any, port: int, cert: Path, client: Player) -> Player:
    options = optionsForClientTLS("localhost", trustRoot=Certificate.loadPEM(cert.read_bytes()))
    tcp = cast(IStreamClientEndpoint, TCP4ClientEndpoint(reactor, "127.0.0.1", port))
    endpoint = wrapClientTLS(options, tcp)
    await within(connectProtocol(endpoint, client), reactor)
    return client


async def tcp_connect(reactor: Any, port: int, client: Player) -> Player:
    await within(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", port), client), reactor)
    return client


def test_the_short_form_and_the_listen_list() -> None:
    assert endpoint_descriptions(settings(host="::", port=7241)) == [
        "tcp:port=7241:interface=\\:\\:"
    ]
    assert endpoint_descriptions(settings(host="10.0.0.1", port=1, tls=True)) == [
        "ssl:port=1:interface=10.0.0.1"
    ]
    listen = ("tcp:7241", "ssl:7242")
    assert endpoint_descriptions(settings(listen=listen, tls=True)) == list(listen)


def test_a_self_signed_certificate_is_made_once_and_kept(tmp_path: Path) -> None:
    first = credentials(tmp_path, None, None)
    assert first.self_signed and first.cert == tmp_path / "tls" / "cert.pem"
    assert (first.key.stat().st_mode & 0o777) == 0o600
    again = credentials(tmp_path, None, None)
    assert again.fingerprint == first.fingerprint
    # The fingerprint is OpenSSL's: SHA-256 of the DER form, colon-separated hex.
    der = ssl.PEM_cert_to_DER_cert(first.cert.read_text())
    import hashlib

    assert first.fingerprint == ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())
    assert fingerprint(first.cert.read_bytes()) == first.fingerprint


@pytest_twisted.ensureDeferred
async def test_a_game_over_tls_and_one_over_tcp_on_one_server(tmp_path: Path) -> None:
    from twisted.internet import reactor

    cert, key = make_cert(tmp_path)
    listen = ("tcp:0:interface=127.0.0.1", "ssl:0:interface=127.0.0.1")
    server = await start_server(
        reactor,
        settings(tmp_path, listen=listen, tls_cert=cert, tls_key=key, bot_think_ms=1),
    )
    try:
        plain, secure = server.listeners
        assert (plain.tls, secure.tls) == (False, True)
        assert "key.pem" not in secure.description  # no key paths in the log
        alice = await tcp_connect(reactor, plain.port, Player())
        bob = await tls_connect(reactor, secure.port, cert, Player())
        await hello(reactor, alice, "alice")
        await hello(reactor, bob, "bob")
        for player in (alice, bob):
            await bot_table(reactor, player, target=10)
            reply = await within(player.request(M.Start(id=player.rid())), reactor)
            assert isinstance(reply, M.Ok)
        for player in (alice, bob):
            over = await within(player.wait_for(is_type(M.GameOver)), reactor)
            assert max(over.totals) >= 10
    finally:
        await server.stop()
    for player in (alice, bob):
        err = await within(player.wait_for(is_type(M.Error)), reactor)
        assert err.code == "server_shutdown"
        await within(player.lost, reactor)


@pytest_twisted.ensureDeferred
async def test_bad_tls_is_one_log_line_and_disturbs_nobody(tmp_path: Path) -> None:
    from twisted.internet import reactor

    cert, key = make_cert(tmp_path)
    listen = ("tcp:0:interface=127.0.0.1", "ssl:0:interface=127.0.0.1")
    server = await start_server(
        reactor, settings(tmp_path, listen=listen, tls_cert=cert, tls_key=key)
    )
    try:
        plain, secure = server.listeners
        good = await tls_connect(reactor, secure.port, cert, Player())
        await hello(reactor, good, "good")
        with capturedLogs() as events:
            # A plain client on the TLS port: its hello is not a TLS record.
            confused = await tcp_connect(reactor, secure.port, Player())
            confused.send(M.Hello(id=1, versions=VERSIONS, name="plain"))
            await within(confused.lost, reactor)
            # A TLS client that does not trust the certificate (another one).
            other, _ = make_cert(tmp_path / "other")
            distrust = Player()
            try:
                await tls_connect(reactor, secure.port, other, distrust)
                distrust.send(M.Hello(id=1, versions=VERSIONS, name="distrust"))
            except Exception:
                pass
            await within(distrust.lost, reactor)
            # A TLS client on the plain port: its ClientHello is not a frame.
            lost = await tls_connect(reactor, plain.port, cert, Player())
            await within(lost.lost, reactor)
        lines = [e for e in events if "TLS handshake" in e.get("log_format", "")]
        assert len(lines) == 2, [e.get("log_format") for e in events]
        assert all(e["ip"] == "127.0.0.1" and e["why"] for e in lines)
        assert not confused.inbox and not lost.inbox
        # The good client never noticed.
        reply = await within(good.request(M.ListTables(id=good.rid())), reactor)
        assert isinstance(reply, M.TableList)
        assert len(server.factory.connections) == 1
    finally:
        await server.stop()


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback here")
@pytest_twisted.ensureDeferred
async def test_ipv6_and_ipv4_listeners_side_by_side(tmp_path: Path) -> None:
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP6ClientEndpoint

    listen = ("tcp:0:interface=127.0.0.1", "tcp:0:interface=\\:\\:1")
    server = await start_server(reactor, settings(tmp_path, listen=listen))
    try:
        v4, v6 = server.listeners
        client = Player()
        await within(connectProtocol(TCP6ClientEndpoint(reactor, "::1", v6.port), client), reactor)
        await hello(reactor, client, "six")
        four = await tcp_connect(reactor, v4.port, Player())
        await hello(reactor, four, "four")
    finally:
        await server.stop()


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
@pytest.mark.timeout(60)
def test_leekha_serve_tls_with_a_self_signed_certificate(tmp_path: Path) -> None:
    """`leekha serve --tls` makes its certificate, prints its fingerprint, and serves a
    client that trusts that certificate."""
    proc, port = serve_process(tmp_path, "--tls")
    try:
        assert proc.stdout is not None
        printed = proc.stdout.readline().split()[-1]
        cert = tmp_path / "tls" / "cert.pem"
        assert printed == fingerprint(cert.read_bytes())
        context = ssl.create_default_context(cafile=str(cert))
        with (
            socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
            context.wrap_socket(raw, server_hostname="localhost") as sock,
        ):
            sock.sendall(encode(M.Hello(id=1, versions=VERSIONS, name="tls")))
            decoder = Decoder(peer="server")
            got: list[Any] = []
            while not got:
                got = decoder.feed(sock.recv(65536))
            assert isinstance(got[0], M.Welcome)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
@pytest.mark.timeout(60)
def test_leekha_serve_start_line_names_the_listen_interface_not_host(tmp_path: Path) -> None:
    """With `--listen tcp:0:interface=127.0.0.1` the start line names that interface, not
    the `--host` the listen list replaced (docs/hosting.md: the line says where it listens)."""
    # serve_process checks that the first line begins "listening on 127.0.0.1:".
    proc, port = serve_process(
        tmp_path, "--host", "0.0.0.0", "--listen", "tcp:0:interface=127.0.0.1"
    )
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
