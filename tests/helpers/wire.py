"""A real server in the test's reactor, and raw protocol clients for it over loopback:
for tests that send exact messages (handshakes, refusals, restarts) rather than play."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

from helpers.server import LoopbackClient
from leekha.client.identity import Identity
from leekha.protocol import catalogue as M
from leekha.protocol.auth import challenge_payload
from leekha.protocol.message import Message
from leekha.server.app import RunningServer, local_settings, start_server

TIMEOUT = 15.0
V12 = [[1, 2]]


def get_reactor() -> Any:
    from twisted.internet import reactor

    return reactor


@asynccontextmanager
async def serving(tmp: Path, **over: Any) -> AsyncIterator[RunningServer]:
    """A server on 127.0.0.1 (any free port) with its data in `tmp`; `over`: settings."""
    reactor = get_reactor()
    running = await Deferred.fromCoroutine(start_server(reactor, local_settings(tmp, **over)))
    try:
        yield running
    finally:
        await Deferred.fromCoroutine(running.stop())


async def dial(port: int) -> LoopbackClient:
    reactor = get_reactor()
    client = LoopbackClient()
    endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port)
    await connectProtocol(endpoint, client).addTimeout(TIMEOUT, reactor)
    return client


async def ask(client: LoopbackClient, msg: Message, re: int) -> Message:
    """Send `msg` and wait (bounded) for the message that answers `re`."""
    d = client.wait_for(lambda m: getattr(m, "re", None) == re)
    client.send(msg)
    return await d.addTimeout(TIMEOUT, get_reactor())


def proof(ident: Identity, challenge: M.Challenge, name: str) -> str:
    """The `prove` signature of `ident` for `challenge`, signing `name`."""
    nonce = base64.b64decode(challenge.nonce)
    payload = challenge_payload(challenge.server, name, ident.public_key, nonce)
    return base64.b64encode(ident.sign(payload)).decode()


async def key_hello(port: int, ident: Identity, name: str) -> Message:
    """A new connection's hello with `ident`'s key and its right answer: the welcome or
    the refusal."""
    c = await dial(port)
    challenge = await ask(c, M.Hello(id=1, versions=V12, name=name, key=ident.public_key), 1)
    if not isinstance(challenge, M.Challenge):
        return challenge
    return await ask(c, M.Prove(re=1, signature=proof(ident, challenge, name)), 1)
