"""Framing and msgpack, sans-IO: `encode` turns a message into bytes, `Decoder.feed`
turns received bytes into messages.

A frame is a 4-byte big-endian body length followed by one msgpack map. Decoding is
hardened: the length is checked against the frame limit before any body byte is buffered,
and msgpack's container limits are tied to the body size, so no header can make the
decoder allocate more than a small multiple of one frame.
"""

from __future__ import annotations

from typing import Literal

import msgpack

from .errors import ProtocolError
from .message import Message, _wire_dict, from_dict

__all__ = ["DEFAULT_MAX_FRAME", "HEADER_SIZE", "Decoder", "Frames", "encode", "encode_body"]

DEFAULT_MAX_FRAME = 64 * 1024
HEADER_SIZE = 4
#: A 4-byte header cannot describe more than this.
_HEADER_MAX = 2**32 - 1


def encode_body(msg: Message) -> bytes:
    """The msgpack body of one message, without the length header."""
    if not isinstance(msg, Message):
        raise ProtocolError("unknown_type", f"not a message: {type(msg).__name__}")
    return msgpack.packb(_wire_dict(msg), use_bin_type=True)  # type: ignore[no-any-return]


def encode(msg: Message, max_frame: int = DEFAULT_MAX_FRAME) -> bytes:
    """One complete frame. Refuses bodies the peer would reject as too large."""
    body = encode_body(msg)
    if len(body) > max_frame:
        raise ProtocolError(
            "frame_too_large", f"{msg.TYPE} body is {len(body)} bytes, limit {max_frame}"
        )
    return len(body).to_bytes(HEADER_SIZE, "big") + body


class Frames:
    """`encode` once per message, however many connections send it: a server that sends
    one event to the four seats of a table (or a chat line to a whole lobby) pays for one
    encoding. Give it to `Connection.send(msg, frames=...)` for the length of one batch
    of writes; it holds each message it encoded, so an id is never reused meanwhile."""

    __slots__ = ("_done",)

    def __init__(self) -> None:
        self._done: dict[int, tuple[Message, bytes]] = {}

    def encode(self, msg: Message, max_frame: int = DEFAULT_MAX_FRAME) -> bytes:
        """`encode(msg, max_frame)`, from the batch's cache when the message was seen."""
        done = self._done.get(id(msg))
        if done is None:
            data = encode(msg, max_frame)
            self._done[id(msg)] = (msg, data)
            return data
        data = done[1]
        if len(data) - HEADER_SIZE > max_frame:
            size = len(data) - HEADER_SIZE
            raise ProtocolError(
                "frame_too_large", f"{msg.TYPE} body is {size} bytes, limit {max_frame}"
            )
        return data


#: Containers msgpack-python unpacks nested (the frame's map counts as one).
MAX_NESTING = 1024
# What `msgpack.unpackb` says (both its C and its pure-Python build) when the body ends
# inside a value; a streaming Unpacker said OutOfData instead.
_TRUNCATED = "Unpack failed: incomplete input"


def _in_protocol_terms(exc: Exception) -> str:
    """What was wrong with a msgpack body, said in the protocol's terms rather than the
    library's (its messages name its own parameters and classes)."""
    text = str(exc)
    if isinstance(exc, UnicodeDecodeError):
        return "a string is not valid UTF-8"
    if "max_bin_len" in text:
        return "bin values are not allowed"
    if "max_ext_len" in text:
        return "ext values are not allowed"
    if "map key" in text:
        return "map keys must be strings"
    if "max_array_len" in text:
        return "an array claims more items than the frame can hold or the limit allows"
    if "max_map_len" in text:
        return "a map claims more pairs than the frame can hold or the limit allows"
    if "max_str_len" in text:
        return "a string is longer than the frame can hold"
    return "the bytes are not valid msgpack"


def _pairs_to_map(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise ProtocolError("bad_msgpack", "duplicate map key")
    return out


class Decoder:
    """Incremental frame decoder for one direction of one connection.

    `peer` names who sends the bytes ("client" on a server, "server" on a client) so that
    messages only the other side may send are refused. After any error the decoder stays
    failed: every later `feed` raises again, because the stream position is lost.
    """

    def __init__(
        self,
        max_frame: int = DEFAULT_MAX_FRAME,
        *,
        peer: Literal["client", "server"] | None = None,
        max_array_len: int = 4096,
        max_map_len: int = 256,
        max_str_len: int | None = None,
    ) -> None:
        if not 1 <= max_frame <= _HEADER_MAX:
            raise ValueError(f"max_frame must be 1..{_HEADER_MAX}")
        self.max_frame = max_frame
        self.peer = peer
        self.max_array_len = max_array_len
        self.max_map_len = max_map_len
        self.max_str_len = max_frame if max_str_len is None else max_str_len
        self._buf = bytearray()
        self._failed: ProtocolError | None = None

    @property
    def failed(self) -> bool:
        return self._failed is not None

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a complete frame."""
        return len(self._buf)

    def feed(self, data: bytes | bytearray | memoryview) -> list[Message]:
        """Add received bytes; return every message they complete, in order."""
        if self._failed is not None:
            raise ProtocolError(
                self._failed.code, f"decoder already failed: {self._failed.message}"
            )
        try:
            if not isinstance(data, bytes | bytearray | memoryview):
                raise ProtocolError("bad_frame", f"feed() needs bytes, not {type(data).__name__}")
            return self._feed(data)
        except ProtocolError as exc:
            self._failed = exc
            self._buf = bytearray()
            raise

    def _feed(self, data: bytes | bytearray | memoryview) -> list[Message]:
        buf = self._buf
        buf += data
        out: list[Message] = []
        pos = 0
        try:
            while len(buf) - pos >= HEADER_SIZE:
                size = int.from_bytes(buf[pos : pos + HEADER_SIZE], "big")
                if size == 0:
                    raise ProtocolError("bad_frame", "zero-length frame")
                if size > self.max_frame:
                    raise ProtocolError(
                        "frame_too_large", f"frame of {size} bytes, limit {self.max_frame}"
                    )
                end = pos + HEADER_SIZE + size
                if len(buf) < end:
                    break
                body = bytes(buf[pos + HEADER_SIZE : end])
                pos = end
                out.append(from_dict(self._unpack(body), self.peer))
        finally:
            del buf[:pos]
        return out

    def _unpack(self, body: bytes) -> object:
        size = len(body)
        # One `unpackb` call: a streaming `Unpacker` per frame cost a dozen Python calls a
        # request for a buffer the frame already is. It runs the same C parser with the same
        # limits; only its errors differ (a truncated value is a plain ValueError, trailing
        # bytes are ExtraData), and they are mapped to the same ProtocolErrors below.
        # An array of n items needs at least n bytes and a map of n pairs 2n, so capping by
        # the body size refuses lying headers before msgpack preallocates for them.
        try:
            value = msgpack.unpackb(
                body,
                raw=False,
                use_list=True,
                strict_map_key=True,
                object_pairs_hook=_pairs_to_map,
                max_bin_len=0,
                max_ext_len=0,
                max_str_len=min(self.max_str_len, size),
                max_array_len=min(self.max_array_len, size),
                max_map_len=min(self.max_map_len, size // 2),
            )
        except ProtocolError:
            raise
        except msgpack.ExtraData:
            raise ProtocolError("bad_frame", "trailing bytes after the msgpack value") from None
        except msgpack.StackError:
            raise ProtocolError(
                "bad_msgpack", f"containers nested more than {MAX_NESTING} deep"
            ) from None
        except Exception as exc:  # msgpack reports limits and bad bytes as ValueError & co.
            if type(exc) is ValueError and str(exc) == _TRUNCATED:
                raise ProtocolError(
                    "bad_msgpack", "msgpack value truncated by the frame end"
                ) from None
            raise ProtocolError("bad_msgpack", _in_protocol_terms(exc)) from None
        if not isinstance(value, dict):
            raise ProtocolError("bad_frame", "frame body is not a msgpack map")
        return value
