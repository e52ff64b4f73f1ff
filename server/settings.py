"""Every server option in one place, from three sources: defaults, a TOML file, the command line.

One frozen dataclass is the single source of truth: its field metadata drives validation of
the config file, the argparse options and the documentation, so a new option cannot be
reachable from one source and not another. Precedence is command line > file > default.
The table and its checks are here; the command-line options and the example file made
from the same table are `leekha.server.settings_cli`.

Over 400 lines because the table of every option is one dataclass on purpose: split in two,
an option could be reachable from one source and not another, which is what it prevents.
"""

from __future__ import annotations

import math
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs

from leekha.server.domain.config import WIRE_CHAT_MAX
from leekha.server.webvalues import parse_origin, parse_web

#: The TCP port a Leekha server listens on unless told otherwise (unassigned by IANA).
DEFAULT_PORT = 7241

#: Names accepted for `log_level`; they match `twisted.logger.LogLevel` names.
LOG_LEVELS = ("debug", "info", "warn", "error", "critical")


class SettingsError(ValueError):
    """A setting is unknown, of the wrong type or out of range; the message says which."""

    def __init__(self, key: str, message: str, source: str = "") -> None:
        self.key = key
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{key}: {message}")


def default_config_path() -> Path:
    """Where `leekha serve` looks for its config file when --config is not given."""
    return platformdirs.user_config_path("leekha") / "server.toml"


def default_data_dir() -> Path:
    """Where `leekha serve` keeps leekha.sqlite3 when --data is not given."""
    return platformdirs.user_data_path("leekha")


def _default_name() -> str:
    return f"Leekha on {socket.gethostname()}"


def _opt(
    default: Any,
    help: str,
    *,
    lo: float | None = None,
    hi: float | None = None,
    flag: str | None = None,
    choices: tuple[str, ...] = (),
    why: str = "",
    parse: Any = None,
) -> Any:
    """A setting: its default (or the function that gives it), one line of help, and its
    bounds: `lo`..`hi` for a number, the length of a str, the entries of a list; `flag` when
    the option is not --name; `why` explains a bound in the error message; `parse` checks
    and normalizes a str (each entry of a list), raising ValueError with the words. Its kind
    comes from its annotation (`_KINDS`)."""
    metadata = {"help": help, "lo": lo, "hi": hi, "flag": flag, "choices": choices}
    metadata.update(why=why, parse=parse)
    if callable(default):
        return field(default_factory=default, metadata=metadata)
    return field(default=default, metadata=metadata)


#: The wire protocol's hard caps (leekha.protocol: names 1..64, chat text 1..1000): a
#: server limit above them could never be used, so the settings refuse it. The chat cap
#: is the domain's (the lobby holds to it whatever the settings say).
WIRE_NAME_MAX = 64


@dataclass(frozen=True)
class ServerSettings:
    """Options of one server process; build it with `load_settings`, not by hand."""

    host: str = _opt("0.0.0.0", "address to listen on", lo=1, hi=255)
    port: int = _opt(DEFAULT_PORT, "TCP port to listen on (0 = any free port)", lo=0, hi=65535)
    listen: tuple[str, ...] = _opt(
        (),
        "Twisted endpoint to listen on, e.g. tcp:7241, tcp6:7241:interface=\\:\\:,"
        " ssl:7242 (repeatable; replaces host/port)",
        lo=1,
        hi=16,
    )
    tls: bool = _opt(False, "serve TLS on host/port (self-signed unless tls_cert is set)")
    tls_cert: Path | None = _opt(None, "PEM certificate (chain) for TLS; unset = self-signed")
    tls_key: Path | None = _opt(None, "PEM private key for tls_cert (unset = in tls_cert)")
    web: str = _opt(
        "",
        "where the table page and its WebSocket (/ws) listen: an endpoint like listen's"
        " (tcp:7242, ssl:7242:interface=10.0.0.1), a port number, or off; unset = the"
        " game's interface on the next port (any free port with port 0), TLS with tls",
        flag="--web",
        parse=parse_web,
    )
    web_origin: tuple[str, ...] = _opt(
        (),
        "another origin (scheme://host[:port]) the table page may be opened from, e.g. a"
        " reverse proxy's https://cards.example.org; its first entry is the page's address"
        " the server gives out (repeatable)",
        lo=1,
        hi=16,
        parse=parse_origin,
    )
    data_dir: Path = _opt(default_data_dir, "directory for leekha.sqlite3", flag="--data")
    name: str = _opt(_default_name, "server name shown on the LAN", lo=1, hi=63)
    announce: bool = _opt(True, "announce the server over mDNS/DNS-SD")
    max_connections: int = _opt(20000, "total open connections", lo=1, hi=1_000_000)
    max_connections_per_ip: int = _opt(
        64, "open connections per client address", lo=1, hi=1_000_000
    )
    new_connections_per_ip_per_s: float = _opt(
        20.0, "new connections per second from one address (bursts of 5 s worth)", lo=0.1, hi=1e6
    )
    kick_penalty_s: float = _opt(
        10.0,
        "seconds an address kicked for flooding or a protocol violation may not open"
        " new connections (0 = no penalty)",
        lo=0,
        hi=3600,
    )
    frame_timeout_s: float = _opt(
        10.0, "seconds a frame has to complete once its first byte arrived", lo=0.1, hi=3600
    )
    max_output_kib: int = _opt(
        256,
        "KiB of unsent replies and events held for a peer that does not read before it is dropped",
        lo=64,
        hi=1_000_000,
    )
    hello_timeout_s: float = _opt(
        10.0, "seconds a new connection has to say hello", lo=0.1, hi=3600
    )
    ping_interval_s: float = _opt(20.0, "seconds between keepalive pings", lo=0.1, hi=3600)
    dead_peer_timeout_s: float = _opt(
        60.0, "seconds of silence before a peer is dropped", lo=0.1, hi=86400
    )
    # A person sends a message every few seconds; a bot in a full-speed match sends one per
    # trick, tens a second. The limit is there to stop floods, not fast bots.
    rate_limit_msgs_per_s: float = _opt(
        50.0, "sustained messages per second per connection", lo=0.1, hi=1e6
    )
    rate_burst: int = _opt(100, "message burst allowed above the rate", lo=1, hi=1_000_000)
    max_tables_per_connection: int = _opt(
        3, "tables one connection may sit at or create", lo=1, hi=1000
    )
    max_tables_per_address: int = _opt(
        16, "open tables created from one client address", lo=1, hi=1_000_000
    )
    max_deserted_tables: int = _opt(
        100,
        "waiting tables with nobody connected kept for their grace period (the oldest"
        " closes past it)",
        lo=1,
        hi=1_000_000,
    )
    max_name_len: int = _opt(
        24,
        "longest player or table name",
        lo=1,
        hi=WIRE_NAME_MAX,
        why=f"the protocol carries names of at most {WIRE_NAME_MAX} characters",
    )
    max_chat_len: int = _opt(
        300,
        "longest chat message",
        lo=1,
        hi=WIRE_CHAT_MAX,
        why=f"the protocol carries chat of at most {WIRE_CHAT_MAX} characters",
    )
    chat_rate_per_min: int = _opt(
        20, "chat messages and quick phrases per minute per player", lo=1, hi=10_000
    )
    mute_after_floods: int = _opt(
        3, "messages refused in a row for the rate before a player is muted", lo=1, hi=1000
    )
    mute_s: float = _opt(
        60.0, "seconds a flooding player is muted for everyone else", lo=0, hi=86400
    )
    seat_grace_s: float = _opt(30.0, "seconds a dropped player's seat is held", lo=0, hi=86400)
    default_pass_timer_s: float = _opt(
        60.0, "default seconds to choose a pass (0 = no timer)", lo=0, hi=86400
    )
    default_turn_timer_s: float = _opt(
        30.0, "default seconds to play a card (0 = no timer)", lo=0, hi=86400
    )
    afk_timeouts_before_bot: int = _opt(
        2, "timeouts in a row before a bot takes the seat", lo=1, hi=1000
    )
    log_level: str = _opt("info", "lowest level logged", choices=LOG_LEVELS)
    log_file: Path | None = _opt(None, "log to this file instead of stderr")
    bot_think_ms: int = _opt(50, "milliseconds a bot waits before it acts", lo=0, hi=60_000)
    game_seed: int | None = _opt(
        None,
        "seed of every game's deal and of the server's bots, so that a game plays again"
        " the same (tests, demonstrations); unset = a random seed for each game",
        lo=0,
        hi=2**62,
    )
    max_tournaments: int = _opt(
        4,
        "tournaments the server runs at once (those waiting to start not counted)",
        lo=1,
        hi=1000,
    )
    max_waiting_tournaments: int = _opt(
        16,
        "tournaments that may wait for their start time or entrants at once",
        lo=1,
        hi=10_000,
    )
    max_tournaments_per_creator: int = _opt(
        2,
        "tournaments not yet finished that one address, or one name, may have created",
        lo=1,
        hi=1000,
    )
    max_tournament_tables: int = _opt(
        8, "tables all tournaments together may play at once", lo=1, hi=10_000
    )
    tournament_move_timer_s: float = _opt(
        10.0,
        "default seconds per decision in a tournament before the server plays for a silent entrant",
        lo=1,
        hi=3600,
    )
    tournament_entry_wait_s: float = _opt(
        900.0,
        "seconds a tournament waits for its client entrants to enter; then it begins"
        " anyway and the fallback plays for those still absent",
        lo=1,
        hi=7 * 86400,
    )


#: A setting's kind by its annotation: how it is checked, parsed and documented.
_KINDS = {
    "str": "str",
    "int": "int",
    "int | None": "optional_int",
    "float": "float",
    "bool": "bool",
    "Path": "path",
    "Path | None": "optional_path",
    "tuple[str, ...]": "list",
}
FIELDS = {f.name: f for f in fields(ServerSettings)}
#: Each setting's metadata with its kind.
META = {f.name: {**f.metadata, "kind": _KINDS[str(f.type)]} for f in fields(ServerSettings)}


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def allowed(meta: Mapping[str, Any]) -> str:
    kind, lo, hi = meta["kind"], meta["lo"], meta["hi"]
    if meta["choices"]:
        return "one of " + ", ".join(repr(c) for c in meta["choices"])
    if kind == "bool":
        return "true or false"
    if kind == "list":
        return f"a list of at most {int(hi)} strings"
    if kind in ("path", "optional_path"):
        return "a path string"
    noun = {
        "int": "an integer",
        "optional_int": "an integer",
        "float": "a number",
        "str": "a string",
    }[kind]
    if kind == "str" and lo is not None:
        return f"{noun} of {int(lo)} to {int(hi)} characters"
    if lo is not None and hi is not None:
        return f"{noun} from {_num(lo)} to {_num(hi)}"
    return noun


def _parsed(key: str, meta: Mapping[str, Any], value: str, source: str) -> Any:
    """`value` through the setting's `parse` if it has one, a refusal as a SettingsError."""
    if meta["parse"] is None:
        return value
    try:
        return meta["parse"](value)
    except ValueError as exc:
        raise SettingsError(key, f"{exc} (got {value!r})", source) from None


def _check(key: str, value: object, source: str) -> object:
    """Return `value` converted to the field's type, or raise SettingsError."""
    meta = META[key]
    kind = meta["kind"]

    def bad(got: str = "") -> SettingsError:
        suffix = f" (got {got})" if got else f" (got {value!r})"
        why = f"; {meta['why']}" if meta.get("why") else ""
        return SettingsError(key, f"must be {allowed(meta)}{suffix}{why}", source)

    if kind == "bool":
        if not isinstance(value, bool):
            raise bad()
        return value
    if kind == "list":
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list | tuple) or not all(
            isinstance(v, str) and v.strip() for v in items
        ):
            raise bad()
        if len(items) > meta["hi"]:
            raise bad(f"{len(items)} entries")
        return tuple(_parsed(key, meta, v.strip(), source) for v in items)
    if kind in ("path", "optional_path"):
        if isinstance(value, Path):
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            raise bad()
        return Path(value).expanduser()
    if kind == "str":
        if not isinstance(value, str):
            raise bad()
        if meta["choices"] and value.lower() not in meta["choices"]:
            raise bad()
        if meta["choices"]:
            return value.lower()
        if meta["lo"] is not None and not meta["lo"] <= len(value.strip()) <= meta["hi"]:
            raise bad(f"{len(value.strip())} characters")
        if meta["parse"] is not None:
            return _parsed(key, meta, value, source)
        return value.strip() if meta["lo"] is not None else value
    # numbers; bool is an int subclass in Python but never a sensible number here
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise bad()
    if kind in ("int", "optional_int"):
        if isinstance(value, float):
            if not value.is_integer():
                raise bad()
            value = int(value)
    else:
        value = float(value)
        if not math.isfinite(value):
            raise bad()
    if not meta["lo"] <= value <= meta["hi"]:
        raise bad()
    return value


def _unknown(key: str, source: str) -> SettingsError:
    import difflib  # only to word a refusal: an embedded server (`leekha play`) never needs it

    close = difflib.get_close_matches(key, FIELDS, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(FIELDS)}"
    return SettingsError(key, f"unknown setting{hint}", source)


def _read_file(path: Path) -> dict[str, object]:
    import tomllib  # a config file is read by `leekha serve`; `leekha play` has none

    source = str(path)
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise SettingsError("config", "file not found", source) from None
    except IsADirectoryError:
        raise SettingsError("config", "is a directory, expected a TOML file", source) from None
    except OSError as exc:
        raise SettingsError("config", f"cannot read: {exc.strerror}", source) from None
    except UnicodeDecodeError:
        raise SettingsError("config", "not UTF-8 text", source) from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError("config", f"invalid TOML: {exc}", source) from None
    return data


def load_settings(
    config_path: Path | None, overrides: Mapping[str, object] | None = None
) -> ServerSettings:
    """Merge defaults, the TOML file and command-line overrides (None = not given).

    With `config_path` None the per-user default file is read if it exists; an explicit
    path must exist. Override keys are field names of `ServerSettings`.
    """
    if config_path is None:
        path = default_config_path()
        file_values = _read_file(path) if path.is_file() else {}
    else:
        path = Path(config_path).expanduser()
        file_values = _read_file(path)
    values: dict[str, object] = {}
    for key, value in file_values.items():
        if key not in FIELDS:
            raise _unknown(key, str(path))
        values[key] = _check(key, value, str(path))
    for key, value in (overrides or {}).items():
        if key not in FIELDS:
            raise _unknown(key, "command line")
        if value is not None:
            values[key] = _check(key, value, "command line")
    return ServerSettings(**values)  # type: ignore[arg-type]
