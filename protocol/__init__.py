"""The Leekha wire protocol, sans-IO in the style of h11.

Bytes in, messages out (`Decoder.feed`); messages in, bytes out (`encode`); the session
rules on top of both (`Connection`). No sockets, no Twisted: the server and clients own the
I/O and call into this package. docs/protocol.md is the specification; it is partly
generated from this package so the two cannot drift.
"""

from . import catalogue
from .auth import challenge_payload
from .catalogue import *  # noqa: F403 (every message class, listed in catalogue.__all__)
from .codec import DEFAULT_MAX_FRAME, Decoder, encode, encode_body
from .connection import Connection, LocalProtocolError, State
from .errors import APPLICATION_ERRORS, ENGINE_ERRORS, PROTOCOL_ERRORS, ProtocolError
from .message import CLIENT_TYPES, MESSAGE_TYPES, SERVER_TYPES, Message, from_dict, to_dict
from .people import PHRASES, GetProfile, Phrase, PhraseSaid, Profile, QuickPlay
from .tournaments import (
    CancelTournament,
    CreateTournament,
    EnterTournament,
    GetTournament,
    ListTournaments,
    TournamentList,
    TournamentState,
)
from .version import (
    FEATURES,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    Feature,
    negotiate,
    require_handshake,
    speaks,
)

__all__ = [
    "APPLICATION_ERRORS",
    "CLIENT_TYPES",
    "DEFAULT_MAX_FRAME",
    "ENGINE_ERRORS",
    "FEATURES",
    "MESSAGE_TYPES",
    "PHRASES",
    "PROTOCOL_ERRORS",
    "PROTOCOL_VERSION",
    "SERVER_TYPES",
    "SUPPORTED_VERSIONS",
    "CancelTournament",
    "Connection",
    "CreateTournament",
    "Decoder",
    "EnterTournament",
    "Feature",
    "GetProfile",
    "GetTournament",
    "ListTournaments",
    "LocalProtocolError",
    "Message",
    "Phrase",
    "PhraseSaid",
    "Profile",
    "ProtocolError",
    "QuickPlay",
    "State",
    "TournamentList",
    "TournamentState",
    "challenge_payload",
    "encode",
    "encode_body",
    "from_dict",
    "negotiate",
    "require_handshake",
    "speaks",
    "to_dict",
]
__all__ += catalogue.__all__
