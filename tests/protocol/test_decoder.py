"""Framing and the hardened msgpack layer: every failure is a ProtocolError, memory stays
bounded, and a failed decoder stays failed."""

from __future__ import annotations

import struct
import tracemalloc

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leekha.protocol import (
    PROTOCOL_ERRORS,
    Chat,
    Decoder,
    Hello,
    Ok,
    PlayCard,
    ProtocolError,
    encode,
)
from leekha.protocol._examples import EXAMPLES


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def raises(data: bytes, code: str, **kw: object) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        Decoder(**kw).feed(data)  # type: ignore[arg-type]
    assert info.value.code == code, info.value
    assert info.value.code in PROTOCOL_ERRORS
    return info.value


PLAY = encode(PlayCard(id=1, card=5))


def test_coalesced_frames_all_come_out() -> None:
    assert Decoder().feed(PLAY * 3) == [PlayCard(id=1, card=5)] * 3


def test_partial_frame_is_buffered_until_complete() -> None:
    d = Decoder()
    assert d.feed(PLAY[:2]) == []
    assert d.feed(PLAY[2:-1]) == []
    assert d.buffered == len(PLAY) - 1
    assert d.feed(PLAY[-1:]) == [PlayCard(id=1, card=5)]
    assert d.buffered == 0


def test_zero_length_frame() -> None:
    raises(b"\x00\x00\x00\x00", "bad_frame")


def test_oversized_length_is_refused_from_the_header_alone() -> None:
    err = raises(b"\xff\xff\xff\xff", "frame_too_large")
    assert "4294967295" in err.message
    raises(b"\x00\x00\x01\x01", "frame_too_large", max_frame=256)


def test_frame_exactly_at_the_limit_is_accepted() -> None:
    body = msgpack.packb({"type": "chat", "id": 1, "text": "x" * 40})
    (chat,) = Decoder(max_frame=len(body)).feed(frame(body))
    assert isinstance(chat, Chat) and chat.text == "x" * 40
    raises(frame(body), "frame_too_large", max_frame=len(body) - 1)


def test_max_frame_must_be_sane() -> None:
    with pytest.raises(ValueError):
        Decoder(max_frame=0)


def test_encode_refuses_a_frame_the_peer_would_reject() -> None:
    msg = EXAMPLES["snapshot"]
    with pytest.raises(ProtocolError) as info:
        encode(msg, max_frame=100)
    assert info.value.code == "frame_too_large"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"\x92\x01\x02", "bad_frame"),  # an array, not a map
        (b"\xa3abc", "bad_frame"),  # a str
        (b"\x80\x80", "bad_frame"),  # two values
        (b"\x82\xa1a", "bad_msgpack"),  # truncated map
        (b"\x81\xa1a\xc4\x01x", "bad_msgpack"),  # bin value
        (b"\x81\xa1a\xd4\x01x", "bad_msgpack"),  # ext value
        (b"\x81\x01\x02", "bad_msgpack"),  # int key
        (b"\x81\x91\x01\x02", "bad_msgpack"),  # array key
        (b"\x82\xa1a\x01\xa1a\x02", "bad_msgpack"),  # duplicate key
        (b"\x81\xa1a\xa2\xff\xfe", "bad_msgpack"),  # invalid UTF-8
        (b"\xc1", "bad_msgpack"),  # reserved byte
        (b"\x81\xa1a" + b"\x91" * 5000 + b"\x00", "bad_msgpack"),  # too deep
        (b"\xdd\x05\xf5\xe1\x00", "bad_msgpack"),  # array of 10^8
        (b"\xdf\x05\xf5\xe1\x00", "bad_msgpack"),  # map of 10^8
        (b"\xdb\xff\xff\xff\xff", "bad_msgpack"),  # str of 4 GiB
    ],
)
def test_bad_bodies(body: bytes, code: str) -> None:
    raises(frame(body), code)


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        (b"\x92\x01\x02", "bad_frame", "frame body is not a msgpack map"),
        (b"\x80\x80", "bad_frame", "trailing bytes after the msgpack value"),
        # Trailing bytes are reported before the body's type, and garbage after is not read.
        (b"\x92\x01\x02\xc1", "bad_frame", "trailing bytes after the msgpack value"),
        (b"\x82\xa1a\x01\xa1a", "bad_msgpack", "msgpack value truncated by the frame end"),
        (b"\x81\xa1a\xa5ab", "bad_msgpack", "msgpack value truncated by the frame end"),
        (b"\x81\xa1a\x92\x01", "bad_msgpack", "msgpack value truncated by the frame end"),
        # (A str header claiming more than the body holds is left out: msgpack's C build
        # calls it truncated, its pure-Python build too long; test_bad_bodies pins the code.)
        (
            b"\x81\xa1a" + b"\x91" * 5000 + b"\x00",
            "bad_msgpack",
            "containers nested more than 1024 deep",
        ),
        (b"\x81\xa1a\xc4\x01x", "bad_msgpack", "bin values are not allowed"),
        (b"\x81\xa1a\xd4\x01x", "bad_msgpack", "ext values are not allowed"),
        (b"\x81\x01\x02", "bad_msgpack", "map keys must be strings"),
        (b"\x82\xa1a\x01\xa1a\x02", "bad_msgpack", "duplicate map key"),
        (b"\x81\xa1a\xa2\xff\xfe", "bad_msgpack", "a string is not valid UTF-8"),
        (b"\xc1", "bad_msgpack", "the bytes are not valid msgpack"),
        (
            b"\xdd\x05\xf5\xe1\x00",
            "bad_msgpack",
            "an array claims more items than the frame can hold or the limit allows",
        ),
        (
            b"\x82\xa1a",
            "bad_msgpack",
            "a map claims more pairs than the frame can hold or the limit allows",
        ),
    ],
)
def test_bad_bodies_say_what_is_wrong(body: bytes, code: str, message: str) -> None:
    """The wording is part of the contract (clients show it, logs grep it): it must not
    follow whichever msgpack call decodes the body."""
    assert raises(frame(body), code).message == message


def test_a_string_over_the_limit_says_so() -> None:
    # A whole string the frame holds but the limit does not (a cut-off one is truncated).
    error = raises(frame(b"\x81\xa1a\xa4abcd"), "bad_msgpack", max_str_len=3)
    assert error.message == "a string is longer than the frame can hold"


def test_container_limits_are_parameters() -> None:
    body = msgpack.packb({"type": "ping", "id": 1, "pad": list(range(10))})
    assert Decoder().feed(frame(body))
    raises(frame(body), "bad_msgpack", max_array_len=9)
    raises(frame(body), "bad_msgpack", max_map_len=2)
    raises(frame(body), "bad_msgpack", max_str_len=3)


def test_hostile_headers_allocate_little() -> None:
    hostile = [
        b"\xdd\x05\xf5\xe1\x00",  # 5-byte array header claiming 10^8 items
        b"\xdf\x05\xf5\xe1\x00",  # map claiming 10^8 pairs
        b"\x81\xa1a\xdd\x05\xf5\xe1\x00",  # nested
        b"\xdb\x7f\xff\xff\xff",  # str claiming 2 GiB
    ]
    tracemalloc.start()
    try:
        for body in hostile:
            with pytest.raises(ProtocolError):
                Decoder().feed(frame(body))
        with pytest.raises(ProtocolError):
            Decoder().feed(b"\xff\xff\xff\xff" + b"\x00" * 1000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 512 * 1024, peak


def test_full_size_frame_of_small_items_stays_bounded() -> None:
    items = 60_000  # well inside 64 KiB, above the default array cap
    body = b"\x81\xa1a\xdd" + struct.pack(">I", items) + b"\x00" * items
    tracemalloc.start()
    try:
        with pytest.raises(ProtocolError):
            Decoder().feed(frame(body))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024, peak


def test_failed_decoder_is_never_reused() -> None:
    d = Decoder()
    with pytest.raises(ProtocolError):
        d.feed(b"\x00\x00\x00\x00")
    assert d.failed
    with pytest.raises(ProtocolError) as info:
        d.feed(PLAY)
    assert info.value.code == "bad_frame"
    assert "already failed" in info.value.message
    with pytest.raises(ProtocolError):
        d.feed(b"")


def test_feed_needs_bytes() -> None:
    with pytest.raises(ProtocolError) as info:
        Decoder().feed("text")  # type: ignore[arg-type]
    assert info.value.code == "bad_frame"


def test_direction_is_enforced() -> None:
    welcome = encode(EXAMPLES["welcome"])
    hello = encode(Hello(id=1, versions=[[1, 0]], name="a"))
    raises(welcome, "unknown_type", peer="client")
    raises(hello, "unknown_type", peer="server")
    assert Decoder(peer="server").feed(welcome) == [EXAMPLES["welcome"]]
    assert isinstance(Decoder(peer="client").feed(hello)[0], Hello)
    raises(encode(Ok(re=1)), "unknown_type", peer="client")
    ping = encode(EXAMPLES["ping"])
    assert Decoder(peer="client").feed(ping) == Decoder(peer="server").feed(ping)


def test_validation_error_carries_request_id() -> None:
    body = msgpack.packb({"type": "play_card", "id": 77, "card": 52})
    err = raises(frame(body), "bad_field")
    assert err.re == 77
    assert "play_card.card" in err.message


VALID_FRAMES = [encode(m) for m in EXAMPLES.values()]


def _only_protocol_errors(data: bytes, max_frame: int = 65536) -> None:
    d = Decoder(max_frame=max_frame)
    try:
        d.feed(data)
    except ProtocolError as exc:
        assert exc.code in PROTOCOL_ERRORS
        assert d.failed


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_random_bytes(data: bytes) -> None:
    _only_protocol_errors(data)
    _only_protocol_errors(data, max_frame=64)


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=1, max_size=200))
def test_fuzz_random_bodies_with_valid_length(body: bytes) -> None:
    _only_protocol_errors(frame(body))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(VALID_FRAMES), st.data())
def test_fuzz_mutated_frames(valid: bytes, data: st.DataObject) -> None:
    body = bytearray(valid[4:])
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "insert", "delete", "set"]))
        pos = data.draw(st.integers(0, max(0, len(body) - 1)))
        if op == "flip" and body:
            body[pos] ^= 1 << data.draw(st.integers(0, 7))
        elif op == "insert":
            body.insert(pos, data.draw(st.integers(0, 255)))
        elif op == "delete" and len(body) > 1:
            del body[pos]
        elif body:
            body[pos] = data.draw(
                st.sampled_from(
                    [
                        0xC0,
                        0xC1,
                        0xC2,
                        0xC3,
                        0xDC,
                        0xDD,
                        0xDE,
                        0xDF,
                        0xD9,
                        0xDB,
                        0xCA,
                        0xCB,
                        0x7F,
                        0xFF,
                    ]
                )
            )
    _only_protocol_errors(frame(bytes(body)))
    _only_protocol_errors(valid[:4] + bytes(body))  # stale length header too
