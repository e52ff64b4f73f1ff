"""The lobby's sessions: who is who, across connections and restarts.

A session is made by a `hello` (a guest's, or a key's that proved itself), found again by
its token (`resume`) or by the key it proved, and forgotten once it has nothing to come
back to. The names of sessions that are online or hold a seat are reserved. Every refusal
comes before any change: a refused hello claims no name and makes no session. The lobby
(leekha.server.domain.lobby) holds a `SessionDesk` (it does not subclass it) and shares its table
registry with it; the desk hears back through a narrow port, `DeskOwner`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from leekha.protocol.message import Message
from leekha.server.domain.clock import Clock
from leekha.server.domain.config import DomainSettings
from leekha.server.domain.errors import Refused
from leekha.server.domain.identities import Identities, KeyCheck
from leekha.server.domain.limits import TokenBucket, clean_name, name_keys
from leekha.server.domain.persistence import SessionRow, Store, TableRow
from leekha.server.domain.session import Peer, Session, new_token, token_id
from leekha.server.domain.table import Table
from leekha.server.domain.tablechat import SYSTEM_SENDER
from leekha.server.domain.timers import FixedDelay


class DeskOwner(Protocol):
    """What the desk needs of the lobby that holds it."""

    closing: bool

    def peer_changed(self, session: Session) -> None:
        """A session's connection came or went (the tournaments hear it)."""

    def counts_changed(self) -> None:
        """The lobby's counts may have changed (it tells the LAN announcement)."""


class SessionDesk:
    """The sessions of the lobby (see the module doc)."""

    def __init__(
        self,
        owner: DeskOwner,
        clock: Clock,
        settings: DomainSettings,
        store: Store,
        identities: Identities,
        max_name: int,
        tables: dict[int, Table],
    ) -> None:
        self.owner = owner
        self.clock = clock
        self.settings = settings
        self.store = store
        self.identities = identities
        self.max_name = max_name
        #: The lobby's table registry (the same dict: the lobby adds and removes tables).
        self.tables = tables
        #: Sessions by id (leekha.server.domain.session: the digest of their first token).
        self.sessions: dict[str, Session] = {}
        #: Sessions by the digest of the token that resumes them now.
        self._secrets: dict[str, Session] = {}
        #: The name keys (case-folded form and look-alike skeleton, limits.name_keys) of the
        #: sessions that have a connection now (a resumed session may share its name with a
        #: newer one, hence a count), kept so that `hello` never walks every session.
        self._online: Counter[str] = Counter()
        #: Name key (limits.name_keys) -> its sessions: a disconnected session's name stays
        #: reserved while it holds a seat (see `hello`).
        self._by_name: dict[str, set[Session]] = {}
        #: Sessions with a connection now.
        self.connected = 0
        #: Connected sessions not at a table that asked for the table list: they get updates.
        self.watchers: set[Session] = set()
        #: Host token -> ids of the tables it may host (checked against table.host_token on
        #: use), so a closing connection does not walk every table.
        self._hosting: dict[str, set[int]] = {}
        #: Lobby sessions left without a connection are forgotten after the seat grace.
        self._expiries = FixedDelay(self.clock, max(self.settings.seat_grace_s, 1.0))

    # ---- sessions ----------------------------------------------------------------------
    def _session(self, token: str, name: str, key: str | None = None, secret: str = "") -> Session:
        rate = self.settings.chat_rate_per_min
        bucket = TokenBucket(self.clock, rate / 60.0, rate)
        session = Session(token, name, bucket, secret=secret, key=key)
        self.sessions[token] = session
        self._secrets[session.secret] = session
        for name_key in name_keys(name):
            self._by_name.setdefault(name_key, set()).add(session)
        return session

    def stored_session(self, token: str, name: str, stored: dict[str, SessionRow]) -> Session:
        """A session of the database back in memory, bound to the key it proved when it
        began (never to what its name has become since)."""
        row = stored.get(token)
        if row is None:  # a seat without its session row: a guest, resumable by token
            session = self._session(token, name)
        else:
            session = self._session(token, row.name, row.key, row.secret)
        session.stored = True
        return session

    def _start(self, peer: Peer, name: str, key: str | None = None) -> tuple[Session, str]:
        """A new session for `peer`, and the token only its client will ever see."""
        token = new_token()
        session = self._session(token_id(token), name, key)
        self._set_peer(session, peer)
        self.owner.counts_changed()
        return session, token

    def _named(self, name: str) -> set[Session]:
        """The sessions whose name is `name` or looks like it (limits.name_keys)."""
        return {s for key in name_keys(name) for s in self._by_name.get(key, ())}

    def _holds_seat(self, name: str) -> bool:
        """Someone by this name is away from a seat that is still theirs."""
        for session in self._named(name):
            table = self.tables.get(session.table_id) if session.table_id is not None else None
            if table is not None and table.seat_of(session.token) is not None:
                return True
        return False

    def _set_peer(self, session: Session, peer: Peer | None) -> None:
        """Attach or detach a session's connection, keeping the online index in step."""
        if (session.peer is None) != (peer is None):
            for key in name_keys(session.name):
                if peer is None:
                    self._online[key] -= 1
                    if self._online[key] <= 0:
                        del self._online[key]
                else:
                    self._online[key] += 1
            self.connected += -1 if peer is None else 1
        session.peer = peer
        self.watch(session, session.watching_lobby)
        self.owner.peer_changed(session)

    def watch(self, session: Session, watching: bool) -> None:
        session.watching_lobby = watching
        if watching and session.peer is not None:
            self.watchers.add(session)
        else:
            self.watchers.discard(session)

    def _free(self, name: str) -> None:
        """Refuse a name someone here is using or holds a seat under (changes nothing)."""
        if name == SYSTEM_SENDER or any(key in self._online for key in name_keys(name)):
            raise Refused("bad_name", f"the name {name!r} (or one that looks like it) is in use")
        if self._holds_seat(name):
            raise Refused(
                "bad_name",
                f"{name!r} holds a seat here: that player comes back with their session "
                "(resume), or pick another name",
            )

    def hello(self, peer: Peer, wanted: str) -> tuple[Session, str]:
        """A guest's new session and its token."""
        name = clean_name(wanted, self.max_name)
        self._free(name)
        return self._start(peer, name)

    def claimed_hello(self, peer: Peer, check: KeyCheck) -> tuple[Session, str, bool]:
        """A hello whose key proved itself (`Identities.prove`): it takes back the seat of
        a session that proved the same key, from any machine, with a fresh token (True),
        or claims the name if it is still free and starts a new session (False). Every
        refusal comes before the claim, so a refused hello claims nothing."""
        name = clean_name(check.hello.name, self.max_name)
        for session in self._named(name):
            table = self.table_at(session)
            if session.key != check.key or table is None:
                continue
            if table.seat_of(session.token) is not None:
                token = self._rekey(session)
                return self.resume(peer, token), token, True
        self._free(name)
        self.identities.claim(check)
        session, token = self._start(peer, name, check.key)
        return session, token, False

    def _rekey(self, session: Session) -> str:
        """A fresh token for `session`; the one it had stops working."""
        token = new_token()
        self._secrets.pop(session.secret, None)
        session.secret = token_id(token)
        self._secrets[session.secret] = session
        if session.stored:
            self.store.set_secret(session.token, session.secret)
        return token

    def resume(self, peer: Peer, token: str) -> Session:
        """The session this token resumes (the token as the client holds it)."""
        session = self._secrets.get(token_id(token))
        if session is None:
            raise Refused("bad_token", "unknown or expired session token; send hello")
        self.cancel_expiry(session)
        old = session.peer
        self._set_peer(session, peer)
        if old is not None and old is not peer:
            old.kick("session_replaced", "this session was resumed on another connection")
        return session

    def where(self, session: Session) -> tuple[int | None, int | None]:
        """(table id, seat) of a session: (None, None) in the lobby, seat None spectating."""
        table = self.table_at(session)
        if table is None:
            return None, None
        return table.id, table.seat_of(session.token)

    def resumed(self, session: Session) -> None:
        """After `welcome`: give a seated player their snapshot and seat back."""
        table = self.table_at(session)
        if table is None:
            return
        session.send(table.snapshot(session.token))
        table.replay_chat(session.token)
        table.reconnected(session.token)

    def gone(self, session: Session, peer: Peer) -> None:
        """The session's connection closed (unless a resume already replaced it)."""
        if session.peer is not peer or self.owner.closing:
            return
        self._set_peer(session, None)
        self.watch(session, False)
        table = self.table_at(session)
        if table is not None:
            table.disconnected(session.token)
            if table.seat_of(session.token) is None:
                session.table_id = None
        if session.table_id is None and not self.hosts(session):
            # Nothing to come back to: forget the session after the grace period.
            session.expiry = self._expiries.call(self._expire, session)
        self.owner.counts_changed()

    def _expire(self, session: Session) -> None:
        session.expiry = None
        if session.peer is None and session.table_id is None and not self.hosts(session):
            self.sessions.pop(session.token, None)
            self._secrets.pop(session.secret, None)
            for key in name_keys(session.name):
                same = self._by_name.get(key)
                if same is not None:
                    same.discard(session)
                    if not same:
                        del self._by_name[key]

    def cancel_expiry(self, session: Session) -> None:
        if session.expiry is not None and session.expiry.active():
            session.expiry.cancel()
        session.expiry = None

    def hosts(self, session: Session) -> list[Table]:
        ids = self._hosting.get(session.token)
        if not ids:
            return []
        out = []
        for table_id in list(ids):
            table = self.tables.get(table_id)
            if table is not None and table.host_token == session.token:
                out.append(table)
            else:
                ids.discard(table_id)  # closed, or the host controls passed on
        if not ids:
            del self._hosting[session.token]
        return out

    def hosted(self, table: Table) -> None:
        """Index the table under its host (again after the host controls pass on)."""
        if table.host_token:
            self._hosting.setdefault(table.host_token, set()).add(table.id)

    def unhost(self, table: Table) -> None:
        """The table closed: its host no longer hosts it."""
        hosted = self._hosting.get(table.host_token or "")
        if hosted is not None:
            hosted.discard(table.id)
            if not hosted:
                del self._hosting[table.host_token or ""]

    def restore_seated(self, row: TableRow, stored: dict[str, SessionRow]) -> None:
        """The sessions of a stored table's seats and host, back in memory."""
        for seat in row.seats:
            if seat is not None and seat.token and seat.token not in self.sessions:
                session = self.stored_session(seat.token, seat.name, stored)
                session.table_id = row.id
        if row.host_token and row.host_token not in self.sessions:
            self.stored_session(row.host_token, "host", stored)

    def restore_all(self, stored: dict[str, SessionRow]) -> None:
        """Every stored session back in memory, so that its token works."""
        for token, kept in stored.items():
            if token not in self.sessions:
                self.stored_session(token, kept.name, stored)

    def persist(self, session: Session) -> None:
        if not session.stored:
            self.store.save_session(session.token, session.name, session.key, session.secret)
            session.stored = True

    def table_at(self, session: Session) -> Table | None:
        if session.table_id is None:
            return None
        table = self.tables.get(session.table_id)
        if table is None:
            session.table_id = None
        return table

    def hears(self, token: str, msg: type[Message]) -> bool:
        """Whether the session's connection would be sent a message of this type (one
        that is not connected hears nothing)."""
        session = self.sessions.get(token)
        return session is not None and session.peer is not None and session.peer.hears(msg)

    def deliver_all(self, token: str, msgs: Sequence[Message]) -> None:
        """Each message to the session's connection, in order, in one call: what a table's
        member hears of one change (the server's busiest delivery), without a hop per
        message through the lobby and the session (the lobby's `deliver_all`)."""
        session = self.sessions.get(token)
        if session is not None and session.peer is not None:
            session.peer.send_all(msgs)
