"""Every validation path: each failure is a ProtocolError whose code and message name the
problem."""

from __future__ import annotations

from dataclasses import MISSING
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leekha.protocol import (
    MESSAGE_TYPES,
    ChatMessage,
    CreateTable,
    GameOver,
    Hello,
    JoinSeat,
    Message,
    PassCards,
    PlayCard,
    ProtocolError,
    Snapshot,
    YourTurn,
    from_dict,
    schema,
    to_dict,
)
from leekha.protocol._examples import EXAMPLES
from leekha.protocol.message import wire_fields


def raw(msg: Message) -> dict[str, Any]:
    """A message's wire map to read deep into or tamper with, typed as loosely as the
    garbage these tests write into it."""
    return to_dict(msg)


def bad(data: Any, code: str, *needles: str) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        from_dict(data)
    assert info.value.code == code, info.value
    for needle in needles:
        assert needle in info.value.message, info.value.message
    return info.value


def with_(tag: str, **changes: Any) -> dict[str, Any]:
    d: dict[str, Any] = to_dict(EXAMPLES[tag])
    d.update(changes)
    return d


def test_message_must_be_a_map() -> None:
    bad([1, 2], "bad_frame")


def test_missing_type() -> None:
    err = bad({"id": 4}, "missing_field", "type")
    assert err.re == 4


def test_type_must_be_a_string() -> None:
    bad({"type": 3}, "bad_field", "type")


def test_unknown_type_is_named() -> None:
    bad({"type": "teleport", "id": 1}, "unknown_type", "teleport")


def test_wrong_direction() -> None:
    with pytest.raises(ProtocolError) as info:
        from_dict(to_dict(EXAMPLES["welcome"]), "client")
    assert info.value.code == "unknown_type"
    with pytest.raises(ProtocolError):
        from_dict(to_dict(EXAMPLES["play_card"]), "server")


@pytest.mark.parametrize("tag", sorted(MESSAGE_TYPES))
def test_every_required_field_is_required(tag: str) -> None:

    for attr, key, _spec, default in wire_fields(MESSAGE_TYPES[tag]):
        d = to_dict(EXAMPLES[tag])
        del d[key]
        if default is MISSING:
            bad(d, "missing_field", f"{tag}.{key}")
        else:
            assert getattr(from_dict(d), attr) == default


@pytest.mark.parametrize("tag", sorted(MESSAGE_TYPES))
def test_every_field_rejects_a_wrong_type(tag: str) -> None:
    for _, key, _spec, _ in wire_fields(MESSAGE_TYPES[tag]):
        bad(with_(tag, **{key: [[[]]]}), "bad_field", f"{tag}.{key}")


def test_unknown_keys_are_ignored() -> None:
    msg = from_dict(with_("play_card", future_field=[1, {"x": None}]))
    assert msg == EXAMPLES["play_card"]
    table = raw(EXAMPLES["table_list"])
    table["tables"][0]["future"] = 1
    assert from_dict(table) == EXAMPLES["table_list"]


def test_request_id_is_echoed_in_field_errors() -> None:
    assert bad(with_("play_card", id=9, card=52), "bad_field", "play_card.card").re == 9
    assert bad({"type": "play_card", "id": 9}, "missing_field").re == 9
    assert bad({"type": "play_card", "id": -1, "card": 1}, "bad_field").re is None


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"card": 52}, "out of range 0..51"),
        ({"card": -1}, "out of range"),
        ({"card": True}, "expected int, got bool"),
        ({"card": 1.0}, "expected int, got float"),
        ({"id": 2**31}, "play_card.id"),
    ],
)
def test_int_fields(changes: dict[str, Any], needle: str) -> None:
    bad(with_("play_card", **changes), "bad_field", needle)


def test_card_sets() -> None:
    bad(with_("pass_cards", cards=[1, 1, 2]), "bad_field", "duplicate")
    bad(with_("pass_cards", cards=[1, 2]), "bad_field", "length 2")
    bad(with_("pass_cards", cards=[1, 2, 60]), "bad_field", "pass_cards.cards[2]")
    bad(with_("pass_cards", cards="abc"), "bad_field", "expected array")
    assert PassCards(id=1, cards=[9, 3, 5]).cards == [3, 5, 9]


def test_seats_and_lists() -> None:
    bad(with_("game_over", winners=[4]), "bad_field", "game_over.winners[0]")
    bad(with_("game_over", winners=[]), "bad_field", "length 0")
    bad(with_("game_over", totals=[1, 2, 3]), "bad_field", "game_over.totals")


def test_strings() -> None:
    bad(with_("hello", name=""), "bad_field", "hello.name", "length 0")
    bad(with_("hello", name="x" * 65), "bad_field", "length 65")
    bad(with_("chat", text=5), "bad_field", "expected str")


def test_enums_and_floats() -> None:
    bad(with_("your_turn", phase="bid"), "bad_field", "your_turn.phase")
    bad(with_("your_turn", deadline=float("nan")), "bad_field", "your_turn.deadline")
    bad(with_("your_turn", deadline=-1.0), "bad_field", "out of range")
    bad(with_("your_turn", deadline="soon"), "bad_field", "expected number")
    turn = from_dict(with_("your_turn", deadline=5))
    assert isinstance(turn, YourTurn)
    assert turn.deadline == 5.0 and isinstance(turn.deadline, float)


def test_versions() -> None:
    bad(with_("hello", versions=[]), "bad_field", "hello.versions")
    bad(with_("hello", versions=[[1]]), "bad_field", "expected 2 items")
    bad(with_("hello", versions=[[1, -1]]), "bad_field", "hello.versions[0][1]")


def test_rules_maps() -> None:
    bad(with_("create_table", overrides={"target": [1]}), "bad_field", "overrides.target")
    bad(with_("create_table", overrides={"": 1}), "bad_field", "bad key")
    bad(with_("create_table", overrides={"k" * 33: 1}), "bad_field", "bad key")
    many = {f"k{i}": i for i in range(33)}
    bad(with_("create_table", overrides=many), "bad_field", "33 entries")
    bad(with_("create_table", overrides=[]), "bad_field", "expected map")
    bad(with_("create_table", overrides={"x": "y" * 65}), "bad_field", "length 65")
    # Any int msgpack carries is well formed; the server refuses it as a rule (bad_rules).
    created = from_dict(with_("create_table", overrides={"x": 2**40}))
    assert isinstance(created, CreateTable) and created.overrides == {"x": 2**40}
    bad(with_("create_table", overrides={"x": 2**64}), "bad_field", "out of range")


def test_nested_records() -> None:
    snap = raw(EXAMPLES["snapshot"])
    del snap["view"]["phase"]
    bad(snap, "missing_field", "snapshot.view.phase")
    snap = raw(EXAMPLES["snapshot"])
    snap["view"]["tricks"][0]["winner"] = 9
    bad(snap, "bad_field", "snapshot.view.tricks[0].winner")
    snap = raw(EXAMPLES["snapshot"])
    snap["table"]["seats"][2] = {"name": None, "is_bot": 0, "connected": False}
    bad(snap, "bad_field", "snapshot.table.seats[2].is_bot")
    snap = raw(EXAMPLES["snapshot"])
    snap["table"]["timers"] = {}
    restored = from_dict(snap)
    assert isinstance(restored, Snapshot)
    assert restored.table["timers"] == {"pass_s": None, "turn_s": None}
    bad(with_("table_update", table=[]), "bad_field", "expected map (TableSummary)")


def test_nullable_fields() -> None:
    assert JoinSeat(id=1, table_id=2).seat is None
    bad(with_("join_seat", seat=4), "bad_field", "join_seat.seat")


def test_wire_names_differ_from_attributes() -> None:
    msg = ChatMessage(sender="ann", text="hi")
    assert to_dict(msg) == {
        "type": "chat_message",
        "from": "ann",
        "text": "hi",
        "table_id": None,
        "code": None,
        "args": {},
    }
    bad({"type": "chat_message", "sender": "ann", "text": "x"}, "missing_field", "from")


def test_python_construction_validates_too() -> None:
    with pytest.raises(ProtocolError):
        PlayCard(id=1, card=99)
    with pytest.raises(ProtocolError):
        YourTurn(phase="play", legal=[])
    with pytest.raises(ProtocolError):
        GameOver(winners=[0], losers=[1], totals=[0, 0])
    pairs: Any = [(1, 0)]  # tuples, not the declared lists: normalised on construction
    assert Hello(id=1, versions=pairs, name="a").versions == [[1, 0]]


def test_to_dict_refuses_non_messages() -> None:
    with pytest.raises(ProtocolError):
        to_dict("hello")  # type: ignore[arg-type]


def test_spec_descriptions_are_readable() -> None:
    assert schema.IntSpec(0, 3).describe() == "int 0..3"
    assert "ints accepted" in schema.FloatSpec(0, 1).describe()
    assert schema.StrSpec(1, 2).describe() == "str, 1..2 chars"
    assert schema.BoolSpec().describe() == "bool"
    assert schema.EnumSpec(("a", "b")).describe() == '"a" \\| "b"'
    assert schema.ScalarSpec().describe().startswith("int")
    assert schema.NullableSpec(schema.BoolSpec()).describe() == "bool \\| null"
    assert schema.ListSpec(schema.BoolSpec(), 4, 4).describe() == "[bool] × 4"
    assert "3 distinct" in schema.CardSetSpec(3, 3).describe()
    assert schema.TupleSpec((schema.BoolSpec(), schema.BoolSpec())).describe() == "[bool, bool]"
    assert "map str" in schema.MapSpec(schema.BoolSpec(), 3).describe()
    assert schema.RecordSpec.of("R", a=schema.BoolSpec()).describe() == "R"


# ---- additions of 1.1 ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "ok"),
    [(None, True), (0, True), (3600, True), (-1, False), (3601, False), (1.5, False)],
)
def test_create_table_timers_accept_zero_for_untimed(value: Any, ok: bool) -> None:
    data = {
        "type": "create_table",
        "id": 1,
        "name": "t",
        "pass_timer_s": value,
        "turn_timer_s": value,
    }
    if ok:
        msg = from_dict(data, "client")
        assert to_dict(msg)["pass_timer_s"] == value
    else:
        with pytest.raises(ProtocolError) as info:
            from_dict(data, "client")
        assert info.value.code == "bad_field" and "pass_timer_s" in info.value.message


def test_seat_view_can_double_and_rules_are_optional_and_checked() -> None:
    snap = raw(EXAMPLES["snapshot"])
    view = snap["view"]
    del view["can_double"], view["rules"]
    decoded = raw(from_dict(snap))
    assert decoded["view"]["can_double"] == [] and decoded["view"]["rules"] == {}
    view["can_double"] = [49, 21]
    view["rules"] = {"doubling": True}
    decoded = raw(from_dict(snap))
    assert decoded["view"]["can_double"] == [21, 49]  # a card set: sorted
    assert decoded["view"]["rules"] == {"doubling": True}
    view["can_double"] = [49, 49]
    with pytest.raises(ProtocolError, match=r"view\.can_double"):
        from_dict(snap)


def test_welcome_table_and_seat_default_to_null() -> None:
    data = {"type": "welcome", "re": 1, "version": [1, 0], "server": "s", "token": "t", "name": "n"}
    msg = to_dict(from_dict(data, "server"))
    assert (msg["table_id"], msg["seat"], msg["resumed"]) == (None, None, False)
    with pytest.raises(ProtocolError, match=r"welcome\.seat"):
        from_dict({**data, "seat": 4}, "server")


def test_your_turn_can_double_defaults_to_empty() -> None:
    msg = from_dict({"type": "your_turn", "phase": "pass", "legal": [1, 2, 3]}, "server")
    assert isinstance(msg, YourTurn) and msg.can_double == []


def test_stats_messages() -> None:
    assert to_dict(from_dict({"type": "get_stats", "id": 3}, "client"))["name"] is None
    with pytest.raises(ProtocolError, match=r"get_stats\.name"):
        from_dict({"type": "get_stats", "id": 3, "name": ""}, "client")
    with pytest.raises(ProtocolError) as info:
        from_dict({"type": "stats", "re": 1, "players": []}, "client")
    assert info.value.code == "unknown_type"  # server → client only
    line = {"name": "a", "games": 1, "wins": 0, "avg_points_per_round": 3}
    msg = raw(from_dict({"type": "stats", "re": 1, "players": [line]}, "server"))
    assert msg["players"][0]["avg_points_per_round"] == 3.0
    with pytest.raises(ProtocolError, match="wins"):
        from_dict({"type": "stats", "re": 1, "players": [{**line, "wins": -1}]}, "server")
    with pytest.raises(ProtocolError, match="players"):
        from_dict({"type": "stats", "re": 1, "players": [line] * 201}, "server")


def test_add_bot_defaults_to_heuristic() -> None:
    assert to_dict(from_dict({"type": "add_bot", "id": 1, "seat": 2}, "client"))["strategy"] == (
        "heuristic"
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.integers(-2, 54), st.booleans(), st.floats(0, 51), st.text(max_size=1)),
        max_size=15,
    ),
    st.integers(0, 4),
    st.integers(0, 14),
)
def test_a_card_set_is_judged_alike_on_the_quick_path_and_item_by_item(
    items: list[Any], lo: int, hi: int
) -> None:
    """A list of distinct cards is checked in one go; anything else, and any tuple, item
    by item. Both say the same: the same cards, or the same refusal."""
    spec = schema.CardSetSpec(lo, max(lo, hi))

    def judged(value: object) -> object:
        try:
            return spec.check(value, "cards")
        except ProtocolError as exc:
            return (exc.code, exc.message)

    assert judged(items) == judged(tuple(items))
