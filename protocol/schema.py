"""Declarative field specs: one object both validates a wire value and describes it.

Every message field carries a spec. `check` turns a decoded msgpack value into the
normalised Python value (tuples become lists, card sets are sorted) or raises
`ProtocolError("bad_field", ...)` naming the path; `describe` renders the type for the
generated tables in docs/protocol.md, so the doc states exactly what the code enforces.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeGuard, TypeVar, cast

from leekha.common.errors import Fact

from .errors import ProtocolError

__all__ = [
    "ARGS",
    "CARD",
    "CODE",
    "INT32",
    "MSGPACK_INT",
    "NON_NEG",
    "PER_SEAT_INT",
    "REQ_ID",
    "SEAT",
    "SEAT_CARD",
    "ArgSpec",
    "BoolSpec",
    "CardSetSpec",
    "EnumSpec",
    "FloatSpec",
    "IntSpec",
    "ListSpec",
    "MapSpec",
    "NullableSpec",
    "RecordSpec",
    "ScalarSpec",
    "Spec",
    "StrSpec",
    "TupleSpec",
]

T = TypeVar("T")


def _bad(path: str, why: str) -> ProtocolError:
    return ProtocolError("bad_field", f"{path}: {why}")


def _expect(value: object, types: tuple[type[T], ...], what: str, path: str) -> T:
    """The one "expected X, got Y" refusal; `type(...) in`, so a bool is never an int."""
    if type(value) not in types:
        raise _bad(path, f"expected {what}, got {_type_name(value)}")
    return cast(T, value)


def _length(size: int, lo: int, hi: int, path: str) -> None:
    if not lo <= size <= hi:
        raise _bad(path, f"length {size} not in {lo}..{hi}")


def _each(check: Callable[[object, str], T], items: Sequence[object], path: str) -> list[T]:
    """Every item checked. An item's own path (`path[i]`) is built only for the refusal:
    a hand of thirteen cards would otherwise format thirteen paths nobody reads. The
    checks are functions of the value, so the second pass fails where the first did."""
    try:
        return [check(v, path) for v in items]
    except ProtocolError:
        for i, v in enumerate(items):
            check(v, f"{path}[{i}]")
        raise


def _ints(items: list[object]) -> TypeGuard[list[int]]:
    """Every item an int (not a bool, which msgpack keeps apart); True when empty."""
    return not items or set(map(type, items)) == {int}


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    return {
        bool: "bool",
        int: "int",
        float: "float",
        str: "str",
        list: "array",
        tuple: "array",
        dict: "map",
    }.get(type(value), type(value).__name__)


class Spec:
    """Base of all specs; subclasses implement `check` and `describe`. A subclass's
    `check` says the type of the value it returns."""

    def check(self, value: object, path: str) -> object:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class IntSpec(Spec):
    lo: int
    hi: int
    label: str = ""

    def check(self, value: object, path: str) -> int:
        # bool is an int subclass in Python but a distinct msgpack type: reject it.
        if type(value) is int and self.lo <= value <= self.hi:
            return value  # the common case, without a call (every seat, card and id)
        number = _expect(value, (int,), "int", path)
        if not self.lo <= number <= self.hi:
            raise _bad(path, f"{number} out of range {self.lo}..{self.hi}")
        return number

    def describe(self) -> str:
        return self.label or f"int {self.lo}..{self.hi}"


@dataclass(frozen=True)
class FloatSpec(Spec):
    lo: float
    hi: float

    def check(self, value: object, path: str) -> float:
        number = float(_expect(value, (int, float), "number", path))
        if not math.isfinite(number) or not self.lo <= number <= self.hi:
            raise _bad(path, f"{value} out of range {self.lo:g}..{self.hi:g}")
        return number

    def describe(self) -> str:
        return f"float {self.lo:g}..{self.hi:g} (ints accepted)"


@dataclass(frozen=True)
class StrSpec(Spec):
    min_len: int
    max_len: int

    def check(self, value: object, path: str) -> str:
        text = _expect(value, (str,), "str", path)
        _length(len(text), self.min_len, self.max_len, path)
        return text

    def describe(self) -> str:
        return f"str, {self.min_len}..{self.max_len} chars"


@dataclass(frozen=True)
class BoolSpec(Spec):
    def check(self, value: object, path: str) -> bool:
        return _expect(value, (bool,), "bool", path)

    def describe(self) -> str:
        return "bool"


@dataclass(frozen=True)
class EnumSpec(Spec):
    values: tuple[str, ...]

    def check(self, value: object, path: str) -> str:
        if type(value) is not str or value not in self.values:
            raise _bad(path, f"expected one of {list(self.values)}, got {value!r}")
        return value

    def describe(self) -> str:
        return " \\| ".join(f'"{v}"' for v in self.values)


@dataclass(frozen=True)
class ScalarSpec(Spec):
    """A loosely typed option value (int, bool or short str); semantic checks are the
    server's job (RulesConfig.from_dict -> bad_rules), so any int msgpack can carry is
    well formed here and an out-of-range one is refused as a rule, not as a frame."""

    max_str: int = 64

    def check(self, value: object, path: str) -> int | bool | str:
        if type(value) is bool:
            return value
        if type(value) is int:
            return MSGPACK_INT.check(value, path)
        if type(value) is str:
            return StrSpec(0, self.max_str).check(value, path)
        raise _bad(path, f"expected int, bool or str, got {_type_name(value)}")

    def describe(self) -> str:
        return "int \\| bool \\| str"


@dataclass(frozen=True)
class NullableSpec(Spec):
    inner: Spec

    def check(self, value: object, path: str) -> object:
        return None if value is None else self.inner.check(value, path)

    def describe(self) -> str:
        return f"{self.inner.describe()} \\| null"


def _as_list(value: object, path: str) -> Sequence[object]:
    if not isinstance(value, list | tuple):
        raise _bad(path, f"expected array, got {_type_name(value)}")
    return value


@dataclass(frozen=True)
class ListSpec(Spec):
    item: Spec
    min_len: int
    max_len: int

    def check(self, value: object, path: str) -> list[object]:
        items = _as_list(value, path)
        _length(len(items), self.min_len, self.max_len, path)
        return _each(self.item.check, items, path)

    def describe(self) -> str:
        n = f"{self.min_len}" if self.min_len == self.max_len else f"{self.min_len}..{self.max_len}"
        return f"[{self.item.describe()}] × {n}"


@dataclass(frozen=True)
class CardSetSpec(Spec):
    """A set of cards: distinct ints 0..51, normalised to ascending order."""

    min_len: int
    max_len: int

    def check(self, value: object, path: str) -> list[int]:
        if type(value) is list and self.min_len <= len(value) <= self.max_len and _ints(value):
            # Distinct ints 0..51 checked in C (a prompt's legal cards, a hand): the
            # item-by-item checks below only run to say what is wrong.
            cards = sorted(set(value))
            if len(cards) == len(value) and (
                not cards or (cards[0] >= CARD.lo and cards[-1] <= CARD.hi)
            ):
                return cards
        items = _as_list(value, path)
        _length(len(items), self.min_len, self.max_len, path)
        cards = _each(CARD.check, items, path)
        if len(set(cards)) != len(cards):
            raise _bad(path, "duplicate card")
        return sorted(cards)

    def describe(self) -> str:
        n = f"{self.min_len}" if self.min_len == self.max_len else f"{self.min_len}..{self.max_len}"
        return f"card set ({n} distinct cards, sorted)"


@dataclass(frozen=True)
class TupleSpec(Spec):
    """A fixed-length heterogeneous array such as [seat, card]."""

    items: tuple[Spec, ...]
    label: str = ""

    def check(self, value: object, path: str) -> list[object]:
        items = _as_list(value, path)
        if len(items) != len(self.items):
            raise _bad(path, f"expected {len(self.items)} items, got {len(items)}")
        try:
            return [s.check(v, path) for s, v in zip(self.items, items)]
        except ProtocolError:  # again, to name the item (as `_each`)
            for i, (s, v) in enumerate(zip(self.items, items)):
                s.check(v, f"{path}[{i}]")
            raise

    def describe(self) -> str:
        return self.label or "[" + ", ".join(s.describe() for s in self.items) + "]"


@dataclass(frozen=True)
class MapSpec(Spec):
    """A string-keyed map with free keys (e.g. a rules dict)."""

    value: Spec
    max_items: int
    max_key: int = 32

    def check(self, value: object, path: str) -> dict[str, object]:
        if not isinstance(value, Mapping):
            raise _bad(path, f"expected map, got {_type_name(value)}")
        if len(value) > self.max_items:
            raise _bad(path, f"{len(value)} entries, at most {self.max_items}")
        out: dict[str, object] = {}
        for key in sorted(value, key=str):
            if type(key) is not str or not 1 <= len(key) <= self.max_key:
                raise _bad(path, f"bad key {key!r}")
            out[key] = self.value.check(value[key], f"{path}.{key}")
        return out

    def describe(self) -> str:
        return f"map str → {self.value.describe()} (≤ {self.max_items} keys, sorted on encode)"


@dataclass(frozen=True)
class ArgSpec(Spec):
    """(1.4) One argument of a coded notice or refusal: an int, bool, short str or null,
    or a list of ints or short strs (seats, cards, option values). The client words the
    code with these in its own language, so they carry facts, never prose."""

    max_str: int = 200
    max_items: int = 52

    def check(self, value: object, path: str) -> Fact:
        if value is None or type(value) is bool:
            return value
        if type(value) is int:
            return MSGPACK_INT.check(value, path)
        if type(value) is str:
            return StrSpec(0, self.max_str).check(value, path)
        if isinstance(value, list | tuple):
            items = _as_list(value, path)
            _length(len(items), 0, self.max_items, path)
            return [self._item(v, f"{path}[{i}]") for i, v in enumerate(items)]
        raise _bad(path, f"expected int, bool, str, null or array, got {_type_name(value)}")

    def _item(self, value: object, path: str) -> int | str:
        if type(value) is int:
            return MSGPACK_INT.check(value, path)
        if type(value) is str:
            return StrSpec(0, 64).check(value, path)
        raise _bad(path, f"expected int or str, got {_type_name(value)}")

    def describe(self) -> str:
        return "int \\| bool \\| str \\| null \\| [int \\| str]"


_REQUIRED = object()


@dataclass(frozen=True)
class RecordSpec(Spec):
    """A nested structure with known keys. Unknown keys are dropped (forward compatible);
    optional keys get their defaults, so the normalised value always has every key."""

    name: str
    fields: tuple[tuple[str, Spec, object], ...]

    @staticmethod
    def of(record_name: str, /, **fields: Spec | tuple[Spec, object]) -> RecordSpec:
        spec_fields: list[tuple[str, Spec, object]] = []
        for key, entry in fields.items():
            if isinstance(entry, tuple):
                spec_fields.append((key, entry[0], entry[1]))
            else:
                spec_fields.append((key, entry, _REQUIRED))
        return RecordSpec(record_name, tuple(spec_fields))

    def check(self, value: object, path: str) -> dict[str, object]:
        if not isinstance(value, Mapping):
            raise _bad(path, f"expected map ({self.name}), got {_type_name(value)}")
        try:
            return self._fields(value, path, False)
        except ProtocolError:  # again, to name the field (as `_each`)
            return self._fields(value, path, True)

    def _fields(self, value: Mapping[object, object], path: str, named: bool) -> dict[str, object]:
        out: dict[str, object] = {}
        for key, spec, default in self.fields:
            if key in value:
                out[key] = spec.check(value[key], f"{path}.{key}" if named else path)
            elif default is _REQUIRED:
                raise ProtocolError("missing_field", f"{path}.{key}: required")
            else:
                out[key] = default
        return out

    def describe(self) -> str:
        return self.name

    def is_required(self, key: str) -> bool:
        return any(k == key and d is _REQUIRED for k, _, d in self.fields)


INT32 = IntSpec(-(2**31), 2**31 - 1, "int (32-bit signed)")
#: Every int msgpack can carry (int 64 to uint 64).
MSGPACK_INT = IntSpec(-(2**63), 2**64 - 1, "int")
NON_NEG = IntSpec(0, 2**31 - 1, "int ≥ 0")
REQ_ID = IntSpec(0, 2**31 - 1, "request id, int 0..2³¹−1")
CARD = IntSpec(0, 51, "card (int 0..51)")
SEAT = IntSpec(0, 3, "seat (int 0..3)")
SEAT_CARD = TupleSpec((SEAT, CARD), "[seat, card]")
PER_SEAT_INT = ListSpec(INT32, 4, 4)
#: (1.4) The arguments of a coded notice or refusal, by name.
ARGS = MapSpec(ArgSpec(), 16)
#: (1.4) A stable code naming a notice, a refusal's rule or a seat's controller reason.
CODE = StrSpec(1, 64)
