"""Invitations: one line that takes another person to a table, `leekha://HOST:PORT/TABLE?…`.

A host hands a friend this line (by chat, mail, a note on the LAN party's wall); any client
that reads it lands at that table: the address, the table, the password if the host chose
to carry it, and for a TLS server the certificate's SHA-256 fingerprint, which the joining
client then insists on (so the line itself vouches for the server, as an SSH host key
printed by its operator would). docs/protocol.md ("Invitations") is the specification;
this module is its one reading and writing, pure and shared by every client.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlencode, urlsplit

__all__ = ["SCHEME", "Invite", "InviteError", "normalize_fingerprint", "web_link"]

SCHEME = "leekha"
#: A server's port unless the line says another (the reference server's default).
DEFAULT_PORT = 7241
_HEX64 = re.compile(r"[0-9A-F]{64}")
_KNOWN = {"password", "tls", "fp"}


class InviteError(ValueError):
    """The text is not an invitation line. `code` says what is wrong (a client words it in
    its reader's language); the message is the English wording, `args` its values."""

    def __init__(self, code: str, message: str, **args: str) -> None:
        super().__init__(message.format(**args))
        self.code = code
        self.template = message
        self.facts = args


def normalize_fingerprint(text: str) -> str:
    """A SHA-256 fingerprint as `AB:CD:…` (how `openssl x509 -fingerprint` and the
    server print it), from that form or from 64 bare hex digits; raises InviteError."""
    bare = text.strip().replace(":", "").upper()
    if not _HEX64.fullmatch(bare):
        raise InviteError("bad_fingerprint", "the fingerprint must be 64 hex digits (SHA-256)")
    return ":".join(bare[i : i + 2] for i in range(0, 64, 2))


def web_link(page: str, table_id: int, password: str | None = None) -> str:
    """The table page's link to a table: `page` (the `welcome`'s `web`, e.g.
    `http://192.168.1.20:7242/`) with the route in the fragment, `#/table/12`, and the
    password, percent-encoded, after it (`#/table/12?password=open%20sesame`): a browser
    never sends the fragment to any server."""
    tail = f"?password={quote(password, safe='')}" if password is not None else ""
    return f"{page.split('#', 1)[0].rstrip('/')}/#/table/{int(table_id)}{tail}"


@dataclass(frozen=True)
class Invite:
    """Where an invitation leads. `fingerprint` (colon form) implies TLS."""

    host: str
    port: int
    table_id: int
    password: str | None = None
    tls: bool = False
    fingerprint: str | None = None

    def __post_init__(self) -> None:
        if not self.host or any(c in self.host for c in "/?#@ "):
            raise InviteError("bad_host", "the host is missing or malformed")
        if not 0 < self.port < 65536:
            raise InviteError("bad_port", "the port must be 1..65535")
        if not 0 <= self.table_id < 2**63:
            raise InviteError("bad_table", "the table must be a whole number from 0 up")
        if self.fingerprint is not None:
            object.__setattr__(self, "fingerprint", normalize_fingerprint(self.fingerprint))
            object.__setattr__(self, "tls", True)

    @property
    def address(self) -> str:
        """HOST:PORT, with an IPv6 host in brackets."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def url(self) -> str:
        """The line's URL: the query keys in a fixed order, the fingerprint as bare hex."""
        query: list[tuple[str, str]] = []
        if self.password is not None:
            query.append(("password", self.password))
        if self.tls:
            query.append(("tls", "1"))
        if self.fingerprint is not None:
            query.append(("fp", self.fingerprint.replace(":", "")))
        tail = "?" + urlencode(query, quote_via=quote) if query else ""
        return f"{SCHEME}://{self.address}/{self.table_id}{tail}"

    def line(self) -> str:
        """What `leekha invite` prints: a command another person can paste as it is."""
        return f"leekha join '{self.url()}'"

    @classmethod
    def parse(cls, text: str) -> Invite:
        """Read a URL, or a whole pasted line (`leekha join 'leekha://…'`); raises
        InviteError saying what is wrong."""
        text = text.strip()
        found = re.search(r"leekha://\S+", text)
        if found is None:
            raise InviteError("not_invite", "an invitation starts with leekha://")
        url = found.group(0).strip("'\"")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            raise InviteError("bad_address", "the address in the invitation is malformed") from None
        if parts.username is not None or parts.fragment:
            raise InviteError("bad_address", "the address in the invitation is malformed")
        path = parts.path.strip("/")
        if not path.isdigit() or not path.isascii():
            raise InviteError("no_table", "the invitation names no table (…/TABLE, a number)")
        try:
            query = parse_qs(parts.query, keep_blank_values=True, strict_parsing=False)
        except ValueError:
            raise InviteError("bad_address", "the address in the invitation is malformed") from None
        unknown = set(query) - _KNOWN
        if unknown:
            raise InviteError(
                "bad_option", "unknown invitation option {option!r}", option=sorted(unknown)[0]
            )
        if any(len(v) > 1 for v in query.values()):
            raise InviteError("twice", "an invitation option is given twice")
        one = {k: v[0] for k, v in query.items()}
        tls = one.get("tls", "0")
        if tls not in ("0", "1"):
            raise InviteError("bad_tls", "tls must be 0 or 1")
        password = one.get("password")
        if password is not None and not 1 <= len(password) <= 64:
            raise InviteError("bad_password", "the password must be 1 to 64 characters")
        return cls(
            host=parts.hostname or "",
            port=port if port is not None else DEFAULT_PORT,
            table_id=int(path),
            password=password,
            tls=tls == "1",
            fingerprint=one.get("fp"),
        )
