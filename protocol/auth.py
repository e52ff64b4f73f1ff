"""Keys and the challenge a client signs to prove it owns a claimed name (protocol 1.2).

Both sides must build the signed bytes identically, so the construction lives here once.
The payload binds the server's id, the name, the key and a fresh per-connection nonce:
a signature captured on one connection (or for another server or name) proves nothing
on the next, which is what makes a replayed answer useless.
"""

from __future__ import annotations

import base64
import hashlib

from .errors import ProtocolError

#: Key scheme tag; a key of any other scheme is refused with `bad_key`.
KEY_SCHEME = "ed25519"
#: Bytes of an Ed25519 public key, signature, and of the server's nonce.
KEY_BYTES = 32
SIGNATURE_BYTES = 64
NONCE_BYTES = 32
#: Domain separation: these bytes are never a valid signed payload of anything else.
_CONTEXT = b"leekha-auth-1\x00"


def encode_public_key(raw: bytes) -> str:
    return f"{KEY_SCHEME}:" + base64.b64encode(raw).decode("ascii")


def decode_public_key(text: str) -> bytes:
    """The raw key bytes, or ProtocolError(`bad_key`) naming what is wrong."""
    scheme, sep, body = text.partition(":")
    if not sep or scheme != KEY_SCHEME:
        raise ProtocolError(
            "bad_key", f"unknown key type {scheme!r}: this server accepts {KEY_SCHEME} keys"
        )
    try:
        raw = base64.b64decode(body.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise ProtocolError("bad_key", "the key is not valid base64") from None
    if len(raw) != KEY_BYTES:
        raise ProtocolError("bad_key", f"an {KEY_SCHEME} key is {KEY_BYTES} bytes")
    return raw


def key_fingerprint(text: str) -> str:
    """A short, stable name for a key, for people to compare (SHA-256, first 16 hex)."""
    digest = hashlib.sha256(decode_public_key(text)).hexdigest()[:16]
    return ":".join(digest[i : i + 4] for i in range(0, 16, 4))


def challenge_payload(server_id: str, name: str, key: str, nonce: bytes) -> bytes:
    """The exact bytes a client signs to answer a challenge."""
    parts = (server_id, name, key)
    return _CONTEXT + b"\x00".join(p.encode("utf-8") for p in parts) + b"\x00" + nonce


def verify(key: str, signature: bytes, payload: bytes) -> bool:
    """True when `signature` is `key`'s signature of `payload`."""
    if len(signature) != SIGNATURE_BYTES:
        return False
    from cryptography.exceptions import InvalidSignature  # only once a key proves a name
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(decode_public_key(key)).verify(signature, payload)
    except (InvalidSignature, ProtocolError, ValueError):
        return False
    return True
