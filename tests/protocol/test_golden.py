"""Byte-exact golden vectors, both directions, and the spec document kept in sync."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from leekha.protocol import MESSAGE_TYPES, Decoder, encode, from_dict, to_dict
from leekha.protocol._docgen import hex_dump, render
from leekha.protocol._examples import EXAMPLES, TRANSCRIPT

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests/data/protocol/golden.json").read_text("utf-8"))["vectors"]
#: Frames of the current version: encode and decode byte for byte.
CURRENT = [v for v in GOLDEN if not v.get("decode_only")]
#: Frames an older (1.0) sender produced: they must still decode (evolution rules).
LEGACY = [v for v in GOLDEN if v.get("decode_only")]
DOC = ROOT / "docs/protocol.md"


@pytest.mark.parametrize("vector", CURRENT, ids=[v["name"] for v in CURRENT])
def test_golden_encode(vector: dict[str, Any]) -> None:
    msg = from_dict(vector["message"])
    assert encode(msg).hex() == vector["hex"]


@pytest.mark.parametrize("vector", GOLDEN, ids=[v["name"] for v in GOLDEN])
def test_golden_decode(vector: dict[str, Any]) -> None:
    (msg,) = Decoder().feed(bytes.fromhex(vector["hex"]))
    assert to_dict(msg) == vector.get("decoded", vector["message"])
    assert vector["message"]["type"] == msg.TYPE


@pytest.mark.parametrize("vector", LEGACY, ids=[v["name"] for v in LEGACY])
def test_legacy_frames_decode_to_the_old_message_plus_defaults(vector: dict[str, Any]) -> None:
    """A 1.0 frame means the same in 1.1: every old key keeps its value, and only new
    optional keys appear, at their defaults."""
    (msg,) = Decoder().feed(bytes.fromhex(vector["hex"]))
    old, new = vector["message"], to_dict(msg)

    def subset(a: Any, b: Any) -> bool:
        if isinstance(a, dict):
            return isinstance(b, dict) and all(k in b and subset(v, b[k]) for k, v in a.items())
        if isinstance(a, list):
            return isinstance(b, list) and len(a) == len(b) and all(map(subset, a, b))
        return bool(a == b)

    assert subset(old, new)
    assert new != old  # otherwise it would be an ordinary encode vector


def test_golden_has_legacy_frames_for_the_1_1_additions() -> None:
    assert {v["message"]["type"] for v in LEGACY} >= {"welcome", "snapshot", "your_turn"}


def test_golden_covers_every_message_type() -> None:
    assert {v["message"]["type"] for v in CURRENT} == set(MESSAGE_TYPES)


def test_examples_cover_every_message_type() -> None:
    assert set(EXAMPLES) == set(MESSAGE_TYPES)
    assert all(t == EXAMPLES[t].TYPE for t in EXAMPLES)


def test_doc_generated_blocks_are_current() -> None:
    text = DOC.read_text("utf-8")
    assert render(text) == text, "run: python -m leekha.protocol._docgen docs/protocol.md"


def test_doc_hex_dumps_decode_to_the_shown_examples() -> None:
    """Each message section shows JSON then hex; the hex must decode to that JSON."""
    text = DOC.read_text("utf-8")
    pairs = re.findall(
        r"```json\n(.*?)\n```\n\nFrame \(\d+ bytes[^\n]*\n\n```\n(.*?)\n```", text, re.S
    )
    assert len(pairs) == len(MESSAGE_TYPES)
    for shown, dump in pairs:
        (msg,) = Decoder().feed(bytes.fromhex(dump.replace("\n", " ").replace(" ", "")))
        assert to_dict(msg) == json.loads(shown)


def test_doc_lists_every_message_type() -> None:
    text = DOC.read_text("utf-8")
    for tag in MESSAGE_TYPES:
        assert f"#### `{tag}`" in text


def test_hex_dump_is_exact() -> None:
    data = bytes(range(30))
    assert bytes.fromhex(hex_dump(data).replace("\n", " ")) == data


def test_transcript_streams_through_one_decoder_per_direction() -> None:
    steps = [(arrow, m) for arrow, m, _ in TRANSCRIPT if m is not None]
    to_server = b"".join(encode(m) for arrow, m in steps if arrow == "C→S")
    to_client = b"".join(encode(m) for arrow, m in steps if arrow == "S→C")
    assert Decoder(peer="client").feed(to_server) == [m for a, m in steps if a == "C→S"]
    assert Decoder(peer="server").feed(to_client) == [m for a, m in steps if a == "S→C"]
