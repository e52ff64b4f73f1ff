"""The handshake on a real server over loopback, as docs/protocol.md states it: the key
proof signs the name as sent, a `rate_limited` hello leaves the connection usable, and a
`prove` after the welcome is refused in words that say so."""

from __future__ import annotations

from pathlib import Path

import pytest_twisted
from helpers.wire import TIMEOUT, V12, ask, dial, get_reactor, proof, serving
from twisted.internet.task import deferLater

from leekha.client.identity import Identity
from leekha.protocol import catalogue as M

reactor_test = pytest_twisted.ensureDeferred


@reactor_test
async def test_the_key_proof_signs_the_name_exactly_as_sent(tmp_path: Path) -> None:
    ident = Identity.generate()
    sent = "  spaced   name "
    async with serving(tmp_path) as server:
        c = await dial(server.port)
        hello = M.Hello(id=1, versions=V12, name=sent, key=ident.public_key)
        challenge = await ask(c, hello, 1)
        assert isinstance(challenge, M.Challenge)
        # Signed as the server shows the name, it is not what was sent: refused, and the
        # connection waits for another hello.
        wrong = await ask(c, M.Prove(re=1, signature=proof(ident, challenge, "spaced name")), 1)
        assert isinstance(wrong, M.Error) and wrong.code == "bad_signature"
        challenge = await ask(c, M.Hello(id=2, versions=V12, name=sent, key=ident.public_key), 2)
        assert isinstance(challenge, M.Challenge)
        welcome = await ask(c, M.Prove(re=2, signature=proof(ident, challenge, sent)), 2)
        assert isinstance(welcome, M.Welcome)
        assert welcome.verified and welcome.name == "spaced name"


@reactor_test
async def test_a_hello_after_rate_limited_is_welcomed(tmp_path: Path) -> None:
    # One message of burst, ten a second: the ping spends it, the hello right behind it
    # is refused, and a tenth of a second later there is room again.
    async with serving(tmp_path, rate_limit_msgs_per_s=10.0, rate_burst=1) as server:
        c = await dial(server.port)
        c.send(M.Ping(id=7))
        refused = await ask(c, M.Hello(id=1, versions=V12, name="ann"), 1)
        assert isinstance(refused, M.Error) and refused.code == "rate_limited"
        await deferLater(get_reactor(), 0.3)  # the documented "wait a moment"
        welcome = await ask(c, M.Hello(id=2, versions=V12, name="ann"), 2)
        assert isinstance(welcome, M.Welcome) and welcome.name == "ann"
        # A rate-limited prove voids its challenge the same way: a new hello works.
        ident = Identity.generate()
        k = await dial(server.port)
        k.send(M.Ping(id=7))
        refused = await ask(k, M.Hello(id=1, versions=V12, name="kay", key=ident.public_key), 1)
        assert isinstance(refused, M.Error) and refused.code == "rate_limited"
        await deferLater(get_reactor(), 0.3)
        challenge = await ask(k, M.Hello(id=2, versions=V12, name="kay", key=ident.public_key), 2)
        assert isinstance(challenge, M.Challenge)
        limited = await ask(k, M.Prove(re=2, signature=proof(ident, challenge, "kay")), 2)
        assert isinstance(limited, M.Error) and limited.code == "rate_limited"
        await deferLater(get_reactor(), 0.3)
        challenge = await ask(k, M.Hello(id=3, versions=V12, name="kay", key=ident.public_key), 3)
        assert isinstance(challenge, M.Challenge)
        await deferLater(get_reactor(), 0.3)
        welcome = await ask(k, M.Prove(re=3, signature=proof(ident, challenge, "kay")), 3)
        assert isinstance(welcome, M.Welcome) and welcome.verified


@reactor_test
async def test_a_prove_after_the_welcome_is_refused_in_its_own_words(tmp_path: Path) -> None:
    ident = Identity.generate()
    async with serving(tmp_path) as server:
        c = await dial(server.port)
        challenge = await ask(c, M.Hello(id=1, versions=V12, name="Rana", key=ident.public_key), 1)
        assert isinstance(challenge, M.Challenge)
        answer = proof(ident, challenge, "Rana")
        assert isinstance(await ask(c, M.Prove(re=1, signature=answer), 1), M.Welcome)
        closing = c.wait_for(lambda m: isinstance(m, M.Error))
        c.send(M.Prove(re=1, signature=answer))
        err = await closing.addTimeout(TIMEOUT, get_reactor())
        assert isinstance(err, M.Error) and err.code == "unknown_type"
        assert "already welcomed" in err.message and "before the welcome" not in err.message
        await c.lost.addTimeout(TIMEOUT, get_reactor())
