"""The client session on real loopback sockets: TCP and TLS, resume, tokens, trust.

A real Leekha server (start_server) listens on 127.0.0.1 port 0; for TLS the same server
factory also listens on an `ssl:` endpoint with a certificate made in the test. Each test
waits for events, never for time, and is bounded by WAIT.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import pytest_twisted
from cryptography import x509
from helpers.session import Client, server

from leekha import protocol as P
from leekha.client.session import ConnectFailed, Target
from leekha.client.tokens import TokenStore
from leekha.client.trust import KnownHosts, fingerprint
from leekha.server.tls import make_self_signed

reactor_test = pytest_twisted.ensureDeferred


def make_cert(folder: Path, name: str = "leekha-test") -> tuple[Path, x509.Certificate]:
    """A self-signed certificate made as `leekha serve --tls` makes one, with its key in
    the same PEM file."""
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    make_self_signed(cert, key, hostname=name)
    pem = folder / f"{name}.pem"
    pem.write_bytes(key.read_bytes() + cert.read_bytes())
    return pem, x509.load_pem_x509_certificate(cert.read_bytes())


@reactor_test
async def test_hello_then_resume_with_the_token_kept_on_disk(tmp_path: Path) -> None:
    async with server(tmp_path) as s:
        target = Target("127.0.0.1", s.port)
        first = Client(target, tmp_path)
        welcome = await first.connect()
        assert not welcome.resumed and P.speaks(first.session, P.FEATURES["stats"])
        first.session.send(P.CreateTable(id=first.session.new_id(), name="t"))
        await first.until(lambda: any(isinstance(m, P.Snapshot) for m in first.messages))
        await first.close()  # as a quit or a crash would leave it: the token stays

        store = tmp_path / "state" / "sessions.json"
        assert stat.S_IMODE(os.stat(store).st_mode) == 0o600
        second = Client(target, tmp_path)  # a new process: only the file remembers
        welcome = await second.connect()
        assert welcome.resumed and welcome.token == first.session.token
        assert welcome.table_id is not None and welcome.seat == 0
        await second.close()


@reactor_test
async def test_a_dropped_link_is_resumed_by_client_service(tmp_path: Path) -> None:
    async with server(tmp_path) as s:
        c = Client(Target("127.0.0.1", s.port), tmp_path)
        await c.connect()
        c.session.drop()
        await c.until(lambda: bool(c.lost) and c.session.online)
        welcomes = [m for m in c.messages if isinstance(m, P.Welcome)]
        assert [w.resumed for w in welcomes] == [False, True]
        assert c.session.resumes == 1
        await c.close()


@reactor_test
async def test_an_expired_token_starts_a_fresh_session(tmp_path: Path) -> None:
    async with server(tmp_path) as s:
        target = Target("127.0.0.1", s.port)
        TokenStore(tmp_path / "state" / "sessions.json").put(target.server, "ann", "stale")
        c = Client(target, tmp_path)
        welcome = await c.connect()
        assert not welcome.resumed and welcome.token != "stale"
        assert TokenStore(tmp_path / "state" / "sessions.json").get(target.server, "ann") == (
            welcome.token
        )
        await c.close()


@reactor_test
async def test_nobody_listening_fails_fast_in_plain_words(tmp_path: Path) -> None:
    async with server(tmp_path) as s:
        port = s.port
    c = Client(Target("127.0.0.1", port), tmp_path)
    with pytest.raises(ConnectFailed, match="refused"):
        await c.connect()


# ---- TLS -------------------------------------------------------------------------------
@reactor_test
async def test_tls_first_contact_then_same_server_then_changed_certificate(
    tmp_path: Path,
) -> None:
    pem, cert = make_cert(tmp_path, "one")
    async with server(tmp_path) as s:
        port = await s.listen_tls(pem)
        target = Target("127.0.0.1", port, tls=True)

        first = Client(target, tmp_path)
        assert not (await first.connect()).resumed
        assert first.notices and fingerprint(cert) in first.notices[0]
        known = KnownHosts(tmp_path / "config" / "known_hosts")
        assert known.get(target.server) == fingerprint(cert)
        await first.close()

        again = Client(target, tmp_path)
        assert (await again.connect()).resumed  # same certificate: no notice, same session
        assert again.notices == []
        await again.close()

        other_pem, other = make_cert(tmp_path, "two")
        port2 = await s.listen_tls(other_pem)
        known.put(f"127.0.0.1:{port2}", fingerprint(cert))  # as if the server had changed
        changed = Client(Target("127.0.0.1", port2, tls=True), tmp_path)
        with pytest.raises(ConnectFailed) as info:
            await changed.connect()
        text = str(info.value)
        assert "changed" in text and fingerprint(other) in text and str(known.path) in text
        assert known.get(f"127.0.0.1:{port2}") == fingerprint(cert)  # never overwritten


@reactor_test
async def test_plain_client_on_a_tls_port_and_tls_client_on_a_plain_port(
    tmp_path: Path,
) -> None:
    pem, _cert = make_cert(tmp_path)
    async with server(tmp_path) as s:
        tls_port = await s.listen_tls(pem)
        plain = Client(Target("127.0.0.1", tls_port), tmp_path)
        with pytest.raises(ConnectFailed, match="--tls"):
            await plain.connect()
        tls = Client(Target("127.0.0.1", s.port, tls=True), tmp_path)
        with pytest.raises(ConnectFailed, match="TLS handshake failed"):
            await tls.connect()
