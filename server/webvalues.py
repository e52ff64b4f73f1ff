"""The table page's two settings read and put in one form: `web` (where the page listens)
and `web_origin` (the origins allowed besides the page's own). leekha.server.settings
checks them with these, and leekha.server.web compares origins in the same form.
"""

from __future__ import annotations

#: Endpoint kinds the table page may listen on (`tls` is another name of `ssl`).
WEB_KINDS = ("tcp", "tcp6", "ssl", "tls")


def parse_web(value: str) -> str:
    """`web`: "off", "" (the game's interface on the next port), a port number, or a
    Twisted endpoint of a kind in WEB_KINDS; raises ValueError with the words."""
    text = value.strip()
    if text.lower() == "off" or not text:
        return text.lower()
    if text.isdigit():
        if int(text) > 65535:
            raise ValueError("a port is a number from 0 to 65535")
        return text
    kind = text.partition(":")[0]
    if kind.lower() not in WEB_KINDS:
        raise ValueError(
            "must be off, a port number, or an endpoint beginning tcp:, tcp6:, ssl: or tls:"
        )
    if kind.lower() in ("tcp", "tcp6"):
        from twisted.internet.endpoints import serverFromString

        try:  # parsing only: nothing listens before the server starts
            serverFromString(None, text)
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"not a valid endpoint ({exc})") from None
    return text


def parse_origin(value: str) -> str:
    """`web_origin`: an origin as a browser sends it, scheme://host[:port] (a default port
    left out, lower case); raises ValueError with the words."""
    from urllib.parse import urlsplit

    text = value.strip().rstrip("/")
    try:
        url = urlsplit(text)
        port = url.port
    except ValueError:
        raise ValueError("not a URL") from None
    if url.scheme.lower() not in ("http", "https") or not url.hostname:
        raise ValueError(
            "an origin is http:// or https:// and a host, e.g. https://cards.example.org"
        )
    if url.path or url.query or url.fragment or url.username or url.password:
        raise ValueError(
            "an origin has no path, query, fragment or user, only scheme://host[:port]"
        )
    scheme = url.scheme.lower()
    host = url.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    default = 80 if scheme == "http" else 443
    return f"{scheme}://{host}" + (f":{port}" if port not in (None, default) else "")
