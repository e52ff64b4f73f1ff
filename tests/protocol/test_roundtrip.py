"""Property tests: every message type round-trips through dicts and frames, whatever the
read boundaries."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leekha.protocol import MESSAGE_TYPES, Decoder, Message, encode, from_dict, schema, to_dict
from leekha.protocol._examples import TRANSCRIPT
from leekha.protocol.message import wire_fields

TEXT = st.characters(codec="utf-8")


def strategy(spec: schema.Spec) -> st.SearchStrategy[Any]:
    """Valid wire values for a spec (sizes kept small so the suite stays fast)."""
    if isinstance(spec, schema.IntSpec):
        return st.integers(spec.lo, spec.hi)
    if isinstance(spec, schema.FloatSpec):
        return st.floats(spec.lo, spec.hi, allow_nan=False)
    if isinstance(spec, schema.StrSpec):
        return st.text(TEXT, min_size=spec.min_len, max_size=min(spec.max_len, spec.min_len + 12))
    if isinstance(spec, schema.BoolSpec):
        return st.booleans()
    if isinstance(spec, schema.EnumSpec):
        return st.sampled_from(spec.values)
    if isinstance(spec, schema.ScalarSpec):
        return st.one_of(st.booleans(), st.integers(-1000, 1000), st.text(TEXT, max_size=8))
    if isinstance(spec, schema.ArgSpec):
        items = st.integers(-1000, 1000) | st.text(TEXT, max_size=8)
        scalars = st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(TEXT, max_size=8)
        return scalars | st.lists(items, max_size=4)
    if isinstance(spec, schema.NullableSpec):
        return st.none() | strategy(spec.inner)
    if isinstance(spec, schema.CardSetSpec):
        hi = min(spec.max_len, spec.min_len + 6)
        return st.lists(st.integers(0, 51), min_size=spec.min_len, max_size=hi, unique=True).map(
            sorted
        )
    if isinstance(spec, schema.ListSpec):
        hi = min(spec.max_len, spec.min_len + 3)
        return st.lists(strategy(spec.item), min_size=spec.min_len, max_size=hi)
    if isinstance(spec, schema.TupleSpec):
        return st.tuples(*(strategy(s) for s in spec.items)).map(list)
    if isinstance(spec, schema.MapSpec):
        keys = st.text(TEXT, min_size=1, max_size=min(spec.max_key, 10))
        return st.dictionaries(keys, strategy(spec.value), max_size=4).map(
            lambda d: dict(sorted(d.items()))
        )
    if isinstance(spec, schema.RecordSpec):
        return st.fixed_dictionaries({k: strategy(s) for k, s, _ in spec.fields})
    raise AssertionError(f"no strategy for {spec!r}")


def messages(cls: type[Message]) -> st.SearchStrategy[Message]:
    return st.builds(cls, **{name: strategy(spec) for name, _, spec, _ in wire_fields(cls)})


ANY_MESSAGE = st.one_of(*(messages(c) for c in MESSAGE_TYPES.values()))


@pytest.mark.parametrize("tag", sorted(MESSAGE_TYPES))
def test_every_type_round_trips(tag: str) -> None:
    @settings(max_examples=25, deadline=None)
    @given(messages(MESSAGE_TYPES[tag]))
    def check(msg: Message) -> None:
        wire = to_dict(msg)
        assert wire["type"] == tag
        assert from_dict(wire) == msg
        frame = encode(msg)
        (decoded,) = Decoder().feed(frame)
        assert decoded == msg
        assert encode(decoded) == frame  # canonical: re-encoding is byte-identical

    check()


@settings(max_examples=40, deadline=None)
@given(st.lists(ANY_MESSAGE, min_size=1, max_size=5), st.data())
def test_arbitrary_read_boundaries_decode_the_same(
    msgs: list[Message], data: st.DataObject
) -> None:
    stream = b"".join(encode(m) for m in msgs)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    decoder = Decoder()
    out: list[Message] = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)]):
        out += decoder.feed(stream[start:end])
    assert out == msgs
    assert decoder.buffered == 0


def test_split_at_every_byte_decodes_the_same_as_whole() -> None:
    msgs = [m for _, m, _ in TRANSCRIPT[:12] if m is not None]
    stream = b"".join(encode(m) for m in msgs)
    whole = Decoder().feed(stream)
    assert whole == msgs
    for cut in range(len(stream) + 1):
        decoder = Decoder()
        assert decoder.feed(stream[:cut]) + decoder.feed(stream[cut:]) == whole
    decoder = Decoder()
    one_by_one = [m for i in range(len(stream)) for m in decoder.feed(stream[i : i + 1])]
    assert one_by_one == whole


def test_to_dict_is_a_copy() -> None:
    msg = from_dict({"type": "pass_cards", "id": 1, "cards": [3, 1, 2]})
    wire = to_dict(msg)
    cards = wire["cards"]
    assert isinstance(cards, list)
    cards.append(9)
    assert to_dict(msg)["cards"] == [1, 2, 3]


def test_tuples_and_unsorted_card_sets_are_normalised() -> None:
    msg = from_dict({"type": "hello", "id": 1, "versions": ((1, 0),), "name": "a"})
    assert to_dict(msg)["versions"] == [[1, 0]]
    assert MESSAGE_TYPES["pass_cards"](id=1, cards=(51, 0, 7)) == from_dict(  # type: ignore[call-arg]
        {"type": "pass_cards", "id": 1, "cards": [0, 7, 51]}
    )
