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

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = json.loads((ROOT / "tests/data/protocol/golden.json").read_text("utf-8"))["vectors"]
DOC = ROOT / "docs/protocol.md"


@pytest.mark.parametrize("vector", GOLDEN, ids=[v["name"] for v in GOLDEN])
def test_golden_encode(vector: dict[str, Any]) -> None:
    msg = from_dict(vector["message"])
    assert encode(msg).hex() == vector["hex"]


@pytest.mark.parametrize("vector", GOLDEN, ids=[v["name"] for v in GOLDEN])
def test_golden_decode(vector: dict[str, Any]) -> None:
    (msg,) = Decoder().feed(bytes.fromhex(vector["hex"]))
    assert to_dict(msg) == vector["message"]
    assert vector["message"]["type"] == msg.TYPE


def test_golden_covers_every_message_type() -> None:
    assert {v["message"]["type"] for v in GOLDEN} == set(MESSAGE_TYPES)


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
