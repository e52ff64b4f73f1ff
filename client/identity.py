"""A player's identity: one Ed25519 key pair, made on first use, kept in the config folder.

A name is claimed on a server by the public key; later the client proves it holds the
private key by signing the server's challenge (`leekha.protocol.auth`). There is no
account and no password: moving to another machine means moving this key, which
`leekha id export` / `leekha id import` do as one line of text.
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

from leekha.client.i18n import _
from leekha.protocol.auth import encode_public_key, key_fingerprint

if TYPE_CHECKING:  # cryptography is imported when a key is made or used, not at start-up
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

#: Prefix of an exported identity line: a new format gets a new prefix, never a reused one.
EXPORT_PREFIX = "leekha-id-1:"
KEY_FILE = "identity.key"


class IdentityError(ValueError):
    """An identity file or export line that cannot be used; the message says why."""


def default_dir() -> Path:
    return platformdirs.user_config_path("leekha")


@dataclass(frozen=True)
class Identity:
    private_key: Ed25519PrivateKey

    @property
    def public_key(self) -> str:
        """The key as the wire carries it (`ed25519:<base64>`)."""
        from cryptography.hazmat.primitives import serialization

        raw = self.private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return encode_public_key(raw)

    @property
    def fingerprint(self) -> str:
        return key_fingerprint(self.public_key)

    def sign(self, payload: bytes) -> bytes:
        return self.private_key.sign(payload)

    def export_line(self) -> str:
        from cryptography.hazmat.primitives import serialization

        raw = self.private_key.private_bytes(
            serialization.Encoding.Raw,
            serialization.PrivateFormat.Raw,
            serialization.NoEncryption(),
        )
        return EXPORT_PREFIX + base64.urlsafe_b64encode(raw).decode("ascii")

    @classmethod
    def generate(cls) -> Identity:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_export(cls, line: str) -> Identity:
        line = line.strip()
        if not line.startswith(EXPORT_PREFIX):
            raise IdentityError(
                _("not a Leekha identity: an exported identity starts with {prefix}").format(
                    prefix=EXPORT_PREFIX
                )
            )
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        try:
            raw = base64.urlsafe_b64decode(line[len(EXPORT_PREFIX) :].encode("ascii"))
            return cls(Ed25519PrivateKey.from_private_bytes(raw))
        except ValueError as exc:
            raise IdentityError(_("the identity line is damaged (was it cut short?)")) from exc


def key_path(folder: Path | None = None) -> Path:
    return (folder or default_dir()) / KEY_FILE


def save(identity: Identity, folder: Path | None = None) -> Path:
    """Write the key readable by its owner only (the file is the whole identity)."""
    path = key_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(identity.export_line() + "\n")
    os.replace(tmp, path)
    return path


def load(folder: Path | None = None) -> Identity | None:
    path = key_path(folder)
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise IdentityError(
            _("cannot read {path}: {problem}").format(path=path, problem=exc)
        ) from exc
    return Identity.from_export(text)


def load_or_create(folder: Path | None = None) -> Identity:
    found = load(folder)
    if found is not None:
        return found
    made = Identity.generate()
    save(made, folder)
    return made
