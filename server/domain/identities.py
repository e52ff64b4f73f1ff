"""Claimed names: a name belongs to the first key that proves itself under it.

The lobby asks this module two questions at every `hello`: may a guest (no key) use this
name, and does this key's answer to our challenge hold. Nothing else about identity lives
in the server: the signed bytes are `leekha.protocol.auth`'s, and the key pair is the
client's (`leekha.client.identity`).
"""

from __future__ import annotations

import base64
import binascii
import os
from dataclasses import dataclass

from twisted.logger import Logger

from leekha.protocol import auth
from leekha.protocol import catalogue as M
from leekha.protocol.errors import ProtocolError
from leekha.server.domain.errors import Refused
from leekha.server.domain.limits import clean_name, skeleton
from leekha.server.domain.persistence import Store

log = Logger()


def name_key(name: str) -> str:
    """How names are compared for ownership: by how they look (limits.skeleton, which
    also folds case), as "in use" compares them, so a look-alike of a claimed name is
    the claimed name."""
    return skeleton(name)


@dataclass(frozen=True)
class KeyCheck:
    """A challenge sent for one `hello`, waiting for its `prove`."""

    hello: M.Hello
    version: tuple[int, int]
    name: str
    key: str
    nonce: bytes
    message: M.Challenge


class Identities:
    def __init__(self, store: Store, max_name: int) -> None:
        self.store = store
        self.max_name = max_name
        self.server_id = store.server_id()

    def check_guest(self, wanted: str) -> None:
        """A guest may not use a name some key has claimed."""
        name = clean_name(wanted, self.max_name)
        if self.store.claimed_key(name_key(name)) is not None:
            raise Refused(
                "name_claimed",
                f"the name {name!r} belongs to a player with a key; pick another name",
            )

    def challenge(self, hello: M.Hello, version: tuple[int, int]) -> KeyCheck:
        assert hello.key is not None
        name = clean_name(hello.name, self.max_name)
        try:
            auth.decode_public_key(hello.key)
        except ProtocolError as exc:
            raise Refused("bad_key", exc.message) from None
        owner = self.store.claimed_key(name_key(name))
        if owner is not None and owner != hello.key:
            raise Refused(
                "name_claimed", f"the name {name!r} belongs to another key; pick another name"
            )
        nonce = os.urandom(auth.NONCE_BYTES)
        message = M.Challenge(
            re=hello.id, nonce=base64.b64encode(nonce).decode("ascii"), server=self.server_id
        )
        return KeyCheck(hello, version, name, hello.key, nonce, message)

    def prove(self, check: KeyCheck, signature: str) -> None:
        """Verify the answer; `bad_signature` if it does not hold. Changes nothing: the
        name is claimed by `claim`, once the lobby has accepted the hello."""
        try:
            raw = base64.b64decode(signature.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            raw = b""
        # The name exactly as the hello sent it (docs/protocol.md): a client signs what it
        # sent, and need not know how this server cleans names up.
        payload = auth.challenge_payload(self.server_id, check.hello.name, check.key, check.nonce)
        if not auth.verify(check.key, raw, payload):
            log.info("a key check for {name} failed", name=check.name)
            raise Refused("bad_signature", "the signature does not match this challenge")

    def claim(self, check: KeyCheck) -> None:
        """Claim the checked name for the proven key if it is still free; `name_claimed`
        if another key got there first. The lobby calls it only after every other check
        of the hello passed, so a refused hello never claims a name."""
        self.store.claim_name(name_key(check.name), check.name, check.key)
        if self.store.claimed_key(name_key(check.name)) != check.key:
            raise Refused("name_claimed", f"{check.name!r} was just claimed by another key")
