"""Regenerate the generated blocks of docs/protocol.md from the code.

Run `python -m leekha.protocol._docgen docs/protocol.md` to rewrite them, or add `--check`
to fail on drift (a test does the same). Field tables come from the specs, examples and
hex dumps from the real encoder, so the document states what the code does byte for byte.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import MISSING
from dataclasses import fields as dc_fields
from typing import Any

from ._examples import EXAMPLES, TRANSCRIPT
from .codec import DEFAULT_MAX_FRAME, encode
from .connection import TRANSITIONS
from .errors import APPLICATION_ERRORS, ENGINE_ERRORS, PROTOCOL_ERRORS
from .message import MESSAGE_TYPES, Message, to_dict, wire_fields
from .notices import NOTICES, RULES
from .people import RECORDS as PEOPLE_RECORDS
from .records import RECORDS
from .schema import RecordSpec
from .tournaments import RECORDS as TOURNAMENT_RECORDS
from .version import FEATURES

__all__ = ["GROUPS", "hex_dump", "main", "pretty", "render"]

GROUPS: list[tuple[str, list[str]]] = [
    ("Handshake", ["hello", "resume", "welcome", "challenge", "prove"]),
    ("Replies and keepalive", ["ok", "error", "ping", "pong"]),
    (
        "Lobby",
        [
            "list_tables",
            "table_list",
            "table_update",
            "create_table",
            "join_seat",
            "spectate",
            "leave",
            "add_bot",
            "remove_bot",
            "start",
            "rematch",
            "seat_update",
        ],
    ),
    ("Game actions (client)", ["pass_cards", "declare_double", "play_card", "take_back"]),
    (
        "Game state and events (server)",
        [
            "snapshot",
            "dealt",
            "your_turn",
            "turn",
            "pass_done",
            "double_revealed",
            "passed_received",
            "card_played",
            "trick_taken",
            "round_scored",
            "game_over",
        ],
    ),
    ("Chat", ["chat", "chat_message"]),
    ("Statistics (1.1)", ["get_stats", "stats"]),
    ("Quick phrases (1.4)", ["phrase", "phrase_said"]),
    ("Quick play (1.4)", ["quick_play"]),
    ("Profiles (1.4)", ["get_profile", "profile"]),
    (
        "Tournaments (1.3)",
        [
            "create_tournament",
            "list_tournaments",
            "tournament_list",
            "get_tournament",
            "enter_tournament",
            "cancel_tournament",
            "tournament_state",
        ],
    ),
]

_BLOCK = re.compile(
    r"(<!-- generated:(?P<name>[a-z_]+) -->\n)(?P<body>.*?)(<!-- /generated:(?P=name) -->)",
    re.S,
)


def hex_dump(data: bytes, per_line: int = 24) -> str:
    """Bytes as space-separated hex pairs, `per_line` bytes a line."""
    return "\n".join(data[i : i + per_line].hex(" ") for i in range(0, len(data), per_line))


def pretty(value: Any, indent: int = 0, width: int = 92) -> str:
    """JSON, one line when it fits, otherwise one map entry or list item a line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {pretty(v, indent + 2, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + pretty(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def _sender(cls: type[Message]) -> str:
    return {"client": "client → server", "server": "server → client"}.get(
        cls.SENDER, "either direction"
    )


def _cell(text: str) -> str:
    return text.replace("|", "\\|") if "\\|" not in text else text


def _message_section(tag: str) -> str:
    cls = MESSAGE_TYPES[tag]
    lines = [f"#### `{tag}` ({_sender(cls)})", "", cls.DOC, ""]
    lines += ["| key | type | required | meaning |", "|---|---|---|---|"]
    lines.append(f'| `type` | `"{tag}"` | yes | message tag |')
    for f_name, key, spec, default in wire_fields(cls):
        doc = next(f.metadata.get("doc", "") for f in dc_fields(cls) if f.name == f_name)
        req = "yes" if default is MISSING else f"no, default `{json.dumps(default)}`"
        lines.append(f"| `{key}` | {_cell(spec.describe())} | {req} | {doc} |")
    example = EXAMPLES[tag]
    frame = encode(example)
    lines += [
        "",
        "Example:",
        "",
        "```json",
        pretty(to_dict(example)),
        "```",
        "",
        f"Frame ({len(frame)} bytes: 4-byte length {len(frame) - 4}, then msgpack):",
        "",
        "```",
        hex_dump(frame),
        "```",
        "",
    ]
    return "\n".join(lines)


def _messages() -> str:
    listed = [t for _, tags in GROUPS for t in tags]
    if sorted(listed) != sorted(MESSAGE_TYPES):
        raise RuntimeError("GROUPS does not list every message type exactly once")
    out = []
    for title, tags in GROUPS:
        out.append(f"### {title}\n")
        out.extend(_message_section(t) for t in tags)
    return "\n".join(out)


def _record(rec: RecordSpec) -> str:
    lines = [f"#### {rec.name}", "", "| key | type | required |", "|---|---|---|"]
    for key, spec, default in rec.fields:
        req = "yes" if rec.is_required(key) else f"no, default `{json.dumps(default)}`"
        lines.append(f"| `{key}` | {_cell(spec.describe())} | {req} |")
    return "\n".join(lines) + "\n"


def _records() -> str:
    return "\n".join(_record(r) for r in (*RECORDS, *TOURNAMENT_RECORDS, *PEOPLE_RECORDS))


def _errors() -> str:
    out = []
    for title, table in (
        ("Protocol errors (connection is closed)", PROTOCOL_ERRORS),
        ("Engine errors (request refused, connection stays open)", ENGINE_ERRORS),
        (
            "Application errors (request refused, connection stays open unless noted)",
            APPLICATION_ERRORS,
        ),
    ):
        out += [f"#### {title}", "", "| code | meaning |", "|---|---|"]
        out += [f"| `{code}` | {text} |" for code, text in table.items()]
        out.append("")
    return "\n".join(out)


def _notices() -> str:
    out = []
    for title, table in (
        ("Notices (`chat_message.code`, from `*`)", NOTICES),
        ("Rules and reasons (`error.rule`)", RULES),
    ):
        out += [f"#### {title}", "", "| code | English text (`{arg}`: an entry of `args`) |"]
        out += ["|---|---|"]
        out += [f"| `{code}` | {_cell(text)} |" for code, text in table.items()]
        out.append("")
    return "\n".join(out)


def _transcript() -> str:
    out = []
    for arrow, msg, note in TRANSCRIPT:
        if msg is None:
            out.append(f"*{note}*\n")
            continue
        comment = f"  // {note}" if note else ""
        out += [f"```text\n{arrow}{comment}", pretty(to_dict(msg)), "```", ""]
    return "\n".join(out)


def _limits() -> str:
    return f"`DEFAULT_MAX_FRAME` = {DEFAULT_MAX_FRAME} bytes (body only, header excluded).\n"


def _session() -> str:
    out = ["| state | event | next state |", "|---|---|---|"]
    for (state, event), after in TRANSITIONS.items():
        out.append(f"| `{state.value}` | {event.value} | `{after.value}` |")
    return "\n".join(out) + "\n"


def _features() -> str:
    out = ["| feature | since | what |", "|---|---|---|"]
    for f in FEATURES.values():
        out.append(f"| `{f.name}` | {f.since[0]}.{f.since[1]} | {f.doc} |")
    return "\n".join(out) + "\n"


SECTIONS = {
    "session": _session,
    "features": _features,
    "messages": _messages,
    "records": _records,
    "errors": _errors,
    "notices": _notices,
    "transcript": _transcript,
    "limits": _limits,
}


def render(text: str) -> str:
    """Replace the body of every generated block in `text` with fresh output."""

    def sub(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in SECTIONS:
            raise KeyError(f"unknown generated block {name!r}")
        body = SECTIONS[name]().rstrip("\n") + "\n"
        return f"{match.group(1)}{body}{match.group(4)}"

    return _BLOCK.sub(sub, text)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    check = "--check" in args
    paths = [a for a in args if a != "--check"] or ["docs/protocol.md"]
    status = 0
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            old = fh.read()
        new = render(old)
        if new != old:
            if check:
                print(f"{path}: generated blocks are stale; run python -m leekha.protocol._docgen")
                status = 1
            else:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(new)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
