"""How a Leekha server is found on the LAN: its DNS-SD service type and TXT record.

The server announces (server/discovery.py) and the client browses (client/discovery.py)
the same facts, so they are stated once here, beside the wire they lead to.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["SERVICE_TYPE", "TXT_KEYS", "version_text"]

#: DNS-SD service type of a Leekha table server.
SERVICE_TYPE = "_leekha._tcp.local."

#: TXT keys every announcement carries; values are UTF-8 strings. A TLS server adds
#: `tls=1` (clients then connect with TLS); a plain one leaves the key out. A server with a
#: table page adds `web`, the page's address (`http://192.168.1.20:7242/`).
TXT_KEYS = ("name", "proto", "tables", "players")


def version_text(version: str | Sequence[int]) -> str:
    """Protocol version as the TXT record spells it: "major.minor"."""
    return version if isinstance(version, str) else ".".join(str(int(p)) for p in version)
