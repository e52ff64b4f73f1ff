"""The message base class, the type registry and dict conversion.

A message is a frozen dataclass whose fields each carry a `Spec`, declared with
`@message(tag, sender, doc)` and `spec_field(spec, doc)`. Construction validates
and normalises, so an instance that exists is always encodable, whether it came off the
wire or was built by the server.

A declared class becomes its dataclass when it is first used (`realize`: built, or its
fields asked for), not when the catalogue is imported. Making the ~70 dataclasses was the
largest cost of importing the protocol, and a process uses a third of them before it has
anything to show (`leekha play` to its first table). Until then the class is registered
and has its tag, sender and doc; `dataclasses.fields` refuses it (loudly: it is not yet a
dataclass) rather than answering with no fields, and everything here realizes first.
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Literal,
    TypeAlias,
    TypedDict,
    TypeVar,
    dataclass_transform,
    overload,
)

from .errors import ProtocolError
from .schema import Spec

__all__ = [
    "CLIENT_TYPES",
    "MESSAGE_TYPES",
    "SERVER_TYPES",
    "FieldMeta",
    "Message",
    "Sender",
    "Wire",
    "from_dict",
    "message",
    "meta",
    "realize",
    "realize_all",
    "register",
    "spec_field",
    "to_dict",
    "verify_trusted",
    "wire_fields",
    "wire_map",
]

Sender = Literal["client", "server", "both"]
T = TypeVar("T")
#: A value as msgpack carries it: the shape of a message's wire map (`to_dict`), which
#: only the codec's edge handles; past it, the messages' typed fields and views.
Wire: TypeAlias = (
    bool | int | float | str | bytes | list["Wire"] | tuple["Wire", ...] | dict[str, "Wire"] | None
)


class FieldMeta(TypedDict):
    """What a message field's metadata holds: its spec, the wire key when it differs from
    the attribute name (`from` is a Python keyword), and a one-line meaning for the docs."""

    spec: Spec
    wire: str | None
    doc: str


def meta(spec: Spec, *, wire: str | None = None, doc: str = "") -> FieldMeta:
    """A field's metadata (`FieldMeta`)."""
    return {"spec": spec, "wire": wire, "doc": doc}


@overload
def spec_field(spec: Spec, doc: str, *, default: T, wire: str | None = None) -> T: ...


@overload
def spec_field(
    spec: Spec, doc: str, *, default_factory: Callable[[], T], wire: str | None = None
) -> T: ...


@overload
def spec_field(spec: Spec, doc: str, *, wire: str | None = None) -> Any: ...


def spec_field(
    spec: Spec,
    doc: str,
    *,
    default: object = MISSING,
    default_factory: Callable[[], object] | None = None,
    wire: str | None = None,
) -> object:
    """A message field: its spec, its meaning for the docs, and a default when optional.
    Typed as `dataclasses.field` is: the field's value type, from its default (a required
    field's comes from its annotation)."""
    metadata = meta(spec, wire=wire, doc=doc)
    if default_factory is not None:
        return field(default_factory=default_factory, metadata=metadata)
    if default is not MISSING:
        return field(default=default, metadata=metadata)
    return field(metadata=metadata)


class Message:
    """Base of every wire message. `TYPE` is the wire tag, `SENDER` who may send it."""

    TYPE: ClassVar[str] = ""
    SENDER: ClassVar[Sender] = "both"
    DOC: ClassVar[str] = ""
    #: The protocol version that added this message: a peer that negotiated an older one
    #: never receives it (it could not decode it).
    SINCE: ClassVar[tuple[int, int]] = (1, 0)
    if TYPE_CHECKING:  # every declared class, once realized (it is not one before)
        __dataclass_fields__: ClassVar[dict[str, Field[object]]]

    def __init__(self, **values: object) -> None:
        """Only the first construction of a declared class comes here: it makes the class
        its dataclass, whose own `__init__` builds this message and every later one."""
        cls = type(self)
        if not realize(cls):
            raise TypeError(f"{cls.__name__} is not a message declared with @message")
        cls.__init__(self, **values)

    def __post_init__(self) -> None:
        for name, path, check in _checks(type(self)):
            object.__setattr__(self, name, check(getattr(self, name), path))

    @classmethod
    def trusted(cls: type[Msg], **values: object) -> Msg:
        """The message built from values this process already holds as valid (the
        engine's events, a seat's legal cards, a request's id, table summaries checked
        when they changed): the server's own output on its hottest paths, built valid
        once rather than checked again field by field (a page of 25 table summaries costs
        ~1 ms to check).
        Every field not given takes its default. With `verify_trusted(True)` (the test
        suite's setting, `LEEKHA_VERIFY_TRUSTED=1`) it is also built the checked way and
        must come out the same, in bytes and in value: a value the checks would refuse
        or normalise is a bug at the call site, found by the tests that build it."""
        plan = _PLANS.get(cls)
        if plan is None:
            plan = _plan(cls)
        msg = object.__new__(cls)
        state = msg.__dict__
        fixed, made = plan
        state.update(fixed)
        for name, factory in made:
            if name not in values:
                state[name] = factory()
        state.update(values)
        if _VERIFY_TRUSTED:
            _verify(msg, values)
        return msg


Msg = TypeVar("Msg", bound=Message)
M = TypeVar("M", bound=type[Message])

MESSAGE_TYPES: dict[str, type[Message]] = {}
CLIENT_TYPES: frozenset[str] = frozenset()
SERVER_TYPES: frozenset[str] = frozenset()


def register(cls: M) -> M:
    """Add a message class to MESSAGE_TYPES under its TYPE tag."""
    global CLIENT_TYPES, SERVER_TYPES
    if not cls.TYPE or cls.TYPE in MESSAGE_TYPES:
        raise ValueError(f"bad or duplicate message type {cls.TYPE!r}")
    MESSAGE_TYPES[cls.TYPE] = cls
    if cls.SENDER in ("client", "both"):
        CLIENT_TYPES = CLIENT_TYPES | {cls.TYPE}
    if cls.SENDER in ("server", "both"):
        SERVER_TYPES = SERVER_TYPES | {cls.TYPE}
    return cls


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(spec_field,))
def message(
    tag: str, sender: Sender, doc: str, *, since: tuple[int, int] = (1, 0)
) -> Callable[[type[Msg]], type[Msg]]:
    """Declare a message class: its wire tag, who may send it, its doc text and the version
    that added it. The class becomes a frozen keyword-only dataclass (checked by mypy as
    one) and is registered."""

    def declare(cls: type[Msg]) -> type[Msg]:
        cls.TYPE, cls.SENDER, cls.DOC, cls.SINCE = tag, sender, doc, since
        # A class without a docstring gets one from `dataclass`, which formats its
        # signature for it: a tenth of the time a dataclass takes to make.
        cls.__doc__ = cls.__doc__ or doc
        _DECLARED.add(cls)
        return register(cls)

    return declare


#: Whether `Message.trusted` also builds each message the checked way and compares.
_VERIFY_TRUSTED = os.environ.get("LEEKHA_VERIFY_TRUSTED") == "1"
#: Per class: the fields' plain defaults, and (name, factory) of those made per message.
_Plan = tuple[dict[str, object], tuple[tuple[str, Callable[[], object]], ...]]
_PLANS: dict[type[Message], _Plan] = {}


def verify_trusted(on: bool) -> bool:
    """Check every `Message.trusted` against its specs from now on (or stop); returns
    the setting before. The test suite turns it on (tests/conftest.py); a server leaves
    it off, so its own messages are built once, unchecked."""
    global _VERIFY_TRUSTED
    before, _VERIFY_TRUSTED = _VERIFY_TRUSTED, on
    return before


def _plan(cls: type[Message]) -> _Plan:
    realize(cls)
    fixed: dict[str, object] = {}
    made: list[tuple[str, Callable[[], object]]] = []
    for f in fields(cls):
        if f.default_factory is not MISSING:
            made.append((f.name, f.default_factory))
        elif f.default is not MISSING:
            fixed[f.name] = f.default
    plan = _PLANS[cls] = (fixed, tuple(made))
    return plan


def _verify(msg: Message, values: Mapping[str, object]) -> None:
    """`msg`, built by `Message.trusted` from `values`, is what the checked constructor
    makes of them: same fields, same values and types, same wire bytes."""
    import msgpack  # here: only the test suite runs this check

    cls = type(msg)
    checked = cls(**values)  # raises ProtocolError for a value its spec refuses
    given = msgpack.packb(_wire_dict(msg), use_bin_type=True)
    canonical = msgpack.packb(_wire_dict(checked), use_bin_type=True)
    if checked != msg or given != canonical:
        raise AssertionError(
            f"{cls.TYPE} built trusted differs from its checked form:"
            f" {_wire_dict(msg)!r} against {_wire_dict(checked)!r}"
        )


#: Declared classes not yet made dataclasses (`realize`).
_DECLARED: set[type[Message]] = set()
_REALIZING = threading.RLock()


def realize(cls: type[Message]) -> bool:
    """Make a declared message class the frozen keyword-only dataclass it declares, once
    (its declared bases first); False when `cls` is not a declared message. Every path
    here that needs the fields calls it; `realize_all` is for tools that read every
    class at once."""
    if cls not in _DECLARED:
        return "__dataclass_fields__" in cls.__dict__
    with _REALIZING:
        if cls in _DECLARED:
            for base in reversed(cls.__mro__[1:]):
                if base in _DECLARED:
                    realize(base)
            dataclass(frozen=True, kw_only=True)(cls)
            _DECLARED.discard(cls)
    return True


def realize_all() -> None:
    """Every registered message class as its dataclass (the docs' generator, the tests)."""
    for cls in list(MESSAGE_TYPES.values()):
        realize(cls)


def wire_fields(cls: type[Message]) -> list[tuple[str, str, Spec, object]]:
    """(attribute, wire key, spec, default or MISSING) per field, in wire order."""
    realize(cls)
    out: list[tuple[str, str, Spec, object]] = []
    for f in fields(cls):
        default: object = f.default
        if f.default_factory is not MISSING:
            default = f.default_factory()
        out.append((f.name, f.metadata.get("wire") or f.name, f.metadata["spec"], default))
    return out


_FIELDS: dict[type[Message], tuple[tuple[str, str, Spec, object], ...]] = {}


def _fields(cls: type[Message]) -> tuple[tuple[str, str, Spec, object], ...]:
    """`wire_fields` once per class: every message built, encoded or decoded walks them,
    and `dataclasses.fields` was the largest single cost of decoding a frame. The defaults
    here are only compared with MISSING, never handed out."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple(wire_fields(cls))
    return found


#: (attribute, path in a refusal, its spec's check) per field.
_Checks = tuple[tuple[str, str, Callable[[object, str], object]], ...]
_CHECKS: dict[type[Message], _Checks] = {}


def _checks(cls: type[Message]) -> _Checks:
    """(attribute, path in a refusal, its spec's check) per field, once per class: every
    message the server builds is checked, and formatting each field's path cost more
    than checking most of them."""
    found = _CHECKS.get(cls)
    if found is None:
        found = _CHECKS[cls] = tuple(
            (name, f"{cls.TYPE}.{key}", spec.check) for name, key, spec, _d in _fields(cls)
        )
    return found


def _wire_dict(msg: Message) -> dict[str, Wire]:
    out: dict[str, Wire] = {"type": msg.TYPE}
    for name, key, _spec, _default in _fields(type(msg)):
        out[key] = getattr(msg, name)
    return out


def wire_map(msg: Message) -> dict[str, Wire]:
    """The wire map of a message sharing its values, for read-only use where `to_dict`'s
    copy costs too much (the load generator handles every message of thousands of seats)."""
    return _wire_dict(msg)


def to_dict(msg: Message) -> dict[str, Wire]:
    """The wire map of a message (a fresh copy: mutating it never touches the message)."""
    if not isinstance(msg, Message) or type(msg).TYPE not in MESSAGE_TYPES:
        raise ProtocolError("unknown_type", f"not a registered message: {type(msg).__name__}")
    return copy.deepcopy(_wire_dict(msg))


def _request_id(data: Mapping[object, object]) -> int | None:
    rid = data.get("id")
    return rid if type(rid) is int and 0 <= rid < 2**31 else None


def from_dict(data: object, sender: Literal["client", "server"] | None = None) -> Message:
    """Validate a decoded wire map and build its message.

    `sender` is who sent it: a server passes "client" so a client cannot send `welcome`.
    Unknown keys are ignored (the evolution rules rely on it).
    """
    if not isinstance(data, Mapping):
        raise ProtocolError("bad_frame", "a message must be a map")
    re = _request_id(data)
    if "type" not in data:
        raise ProtocolError("missing_field", "type: required", re)
    tag = data["type"]
    if type(tag) is not str:
        raise ProtocolError("bad_field", "type: expected str", re)
    cls = MESSAGE_TYPES.get(tag)
    if cls is None:
        raise ProtocolError("unknown_type", f"unknown message type {tag[:64]!r}", re)
    if sender is not None and cls.SENDER not in (sender, "both"):
        raise ProtocolError("unknown_type", f"{tag!r} may not be sent by a {sender}", re)
    kwargs: dict[str, object] = {}
    for name, key, _spec, default in _fields(cls):
        if key in data:
            kwargs[name] = data[key]
        elif default is MISSING:
            raise ProtocolError("missing_field", f"{tag}.{key}: required", re)
    try:
        return cls(**kwargs)
    except ProtocolError as exc:
        raise ProtocolError(exc.code, exc.message, re) from None
