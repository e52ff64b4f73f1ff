"""Claimed names on a real server over loopback: a key keeps its name across machines and
restarts; another key, a guest, a forged answer and a bad key are refused."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest_twisted
from helpers.session import Client, server

from leekha import protocol as P
from leekha.client.identity import Identity
from leekha.client.session import ConnectFailed, Target
from leekha.client.tokens import TokenStore

reactor_test = pytest_twisted.ensureDeferred


def _client(target: Target, tmp: Path, name: str, machine: str, **kw: Any) -> Client:
    """A client on its own 'machine': its own token file, so only the key can prove it."""
    kw.setdefault("tokens", TokenStore(tmp / machine / "sessions.json"))
    return Client(target, tmp / machine, name, **kw)


async def _refused(c: Client) -> str:
    try:
        await c.connect()
    except ConnectFailed as exc:
        return str(exc)
    raise AssertionError("the hello was accepted")


@reactor_test
async def test_a_key_claims_a_name_and_keeps_it_across_machines(tmp_path: Path) -> None:
    rana = Identity.generate()
    async with server(tmp_path) as s:
        target = Target("127.0.0.1", s.port)
        first = _client(target, tmp_path, "Rana", "laptop", identity=rana)
        welcome = await first.connect()
        assert welcome.verified and welcome.name == "Rana"
        first.session.send(P.CreateTable(id=first.session.new_id(), name="t"))
        await first.until(lambda: any(isinstance(m, P.Snapshot) for m in first.messages))
        await first.close()

        # Another machine, same key (exported and imported): the held seat comes back.
        moved = Identity.from_export(rana.export_line())
        second = _client(target, tmp_path, "Rana", "desktop", identity=moved)
        welcome = await second.connect()
        assert welcome.verified and welcome.resumed and welcome.seat == 0
        await second.close()

        # A different key or a guest cannot have the name, even with the seat free.
        thief = _client(target, tmp_path, "rana", "other", identity=Identity.generate())
        assert "belongs to" in await _refused(thief)
        guest = _client(target, tmp_path, "Rana", "guest")
        assert "belongs to" in await _refused(guest)
        # A guest with a free name is welcomed, unverified.
        other = _client(target, tmp_path, "Omar", "guest2")
        assert not (await other.connect()).verified
        await other.close()


@reactor_test
async def test_the_claim_survives_a_server_restart(tmp_path: Path) -> None:
    rana = Identity.generate()
    async with server(tmp_path) as s:
        c = _client(Target("127.0.0.1", s.port), tmp_path, "Rana", "a", identity=rana)
        assert (await c.connect()).verified
        await c.close()
    async with server(tmp_path) as s:  # same data folder
        target = Target("127.0.0.1", s.port)
        thief = _client(target, tmp_path, "Rana", "b", identity=Identity.generate())
        assert "belongs to" in await _refused(thief)
        c = _client(target, tmp_path, "Rana", "c", identity=rana)
        assert (await c.connect()).verified
        await c.close()


def _proof(ident: Identity, challenge: P.Challenge, name: str) -> str:
    nonce = base64.b64decode(challenge.nonce)
    payload = P.challenge_payload(challenge.server, name, ident.public_key, nonce)
    return base64.b64encode(ident.sign(payload)).decode()


def test_forged_replayed_and_bad_key_answers_are_refused() -> None:
    from helpers.server import Harness

    h = Harness()
    owner = Identity.generate()
    c = h.connect()

    def ask(msg: P.Message) -> P.Message:
        c.send(msg)
        h.advance(0.05)
        (reply,) = c.read()
        return reply

    first = ask(P.Hello(id=1, versions=[[1, 2]], name="Rana", key=owner.public_key))
    assert isinstance(first, P.Challenge)
    forged = base64.b64encode(Identity.generate().sign(b"x")).decode()
    reply = ask(P.Prove(re=1, signature=forged))
    assert isinstance(reply, P.Error) and reply.code == "bad_signature"

    # The owner's right answer to that challenge works once...
    second = ask(P.Hello(id=2, versions=[[1, 2]], name="Rana", key=owner.public_key))
    assert isinstance(second, P.Challenge) and second.nonce != first.nonce
    answer = _proof(owner, second, "Rana")
    assert isinstance(ask(P.Prove(re=2, signature=answer)), P.Welcome)
    c.drop()
    h.advance(1)

    # ...and is worth nothing replayed on the next connection's challenge.
    c = h.connect()
    third = ask(P.Hello(id=1, versions=[[1, 2]], name="Rana", key=owner.public_key))
    assert isinstance(third, P.Challenge)
    replay = ask(P.Prove(re=1, signature=answer))
    assert isinstance(replay, P.Error) and replay.code == "bad_signature"
    # An answer with no challenge waiting breaks the handshake rules: closed.
    stray = ask(P.Prove(re=1, signature=answer))
    assert isinstance(stray, P.Error) and stray.code == "not_hello_first"
    h.advance(6)
    assert c.closed
    # A key of another type, or a name another key owns: refused, connection kept.
    c = h.connect("10.0.0.2")
    bad = ask(P.Hello(id=3, versions=[[1, 2]], name="Zed", key="rsa:AAAA"))
    assert isinstance(bad, P.Error) and bad.code == "bad_key" and "ed25519" in bad.message
    thief = Identity.generate()
    taken = ask(P.Hello(id=4, versions=[[1, 2]], name="RANA", key=thief.public_key))
    assert isinstance(taken, P.Error) and taken.code == "name_claimed"
    # A look-alike (Cyrillic а for Latin a) is the claimed name too, for a guest or a key.
    lookalike = "R\u0430na"
    guest = ask(P.Hello(id=6, versions=[[1, 2]], name=lookalike))
    assert isinstance(guest, P.Error) and guest.code == "name_claimed"
    other_key = ask(P.Hello(id=7, versions=[[1, 2]], name=lookalike, key=thief.public_key))
    assert isinstance(other_key, P.Error) and other_key.code == "name_claimed"
    assert not c.closed  # refusals keep the connection: the client may try again
    ok = ask(P.Hello(id=5, versions=[[1, 2]], name="Rana", key=owner.public_key))
    assert isinstance(ok, P.Challenge)
    welcome = ask(P.Prove(re=5, signature=_proof(owner, ok, "Rana")))
    assert isinstance(welcome, P.Welcome) and welcome.verified


def test_a_1_1_client_is_never_challenged() -> None:
    from helpers.server import Harness

    h = Harness()
    c = h.connect()
    c.send(P.Hello(id=1, versions=[[1, 1]], name="Old", key=Identity.generate().public_key))
    h.advance(0.05)
    (welcome,) = c.read()
    assert isinstance(welcome, P.Welcome) and not welcome.verified
