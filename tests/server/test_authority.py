"""Who may act for a seat: its own token, its own key, nothing else.

A hypothesis state machine drives hellos (guests and keys, right and wrong names),
proves, resumes, drops and restarts through the real lobby on a fake clock, with a
database on disk so that restarts restore from it. Its invariant: a seat is only ever
held by the principal (a guest's device, or a key) that sat down in it, and a refused
hello claims no name. Also here: the data of an older server that stored the bad claim
(issue 25) comes back with the guest still a guest.
"""

from __future__ import annotations

import base64
import shutil
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from helpers.server import VERSIONS, FakeClient, Harness
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from leekha.client.identity import Identity
from leekha.protocol import catalogue as M
from leekha.protocol.auth import challenge_payload
from leekha.protocol.message import Message
from leekha.server.domain.identities import name_key
from leekha.server.domain.persistence import Store, db_path

V12 = [[1, 2]]
NAMES = ("carol", "dave", "  carol ")
KEYS = [Identity.generate() for _ in range(2)]


def key_hello(c: FakeClient, ident: Identity, name: str, *, sign_as: str | None = None) -> Message:
    """hello with a key and the answer to its challenge: the welcome or the refusal."""
    challenge = c.request(M.Hello(id=c.rid(), versions=V12, name=name, key=ident.public_key))
    if not isinstance(challenge, M.Challenge):
        return challenge
    nonce = base64.b64decode(challenge.nonce)
    payload = challenge_payload(challenge.server, sign_as or name, ident.public_key, nonce)
    signature = base64.b64encode(ident.sign(payload)).decode()
    c.send(M.Prove(re=challenge.re, signature=signature))
    c.read()
    reply = next(m for m in c.inbox if getattr(m, "re", None) == challenge.re)
    c.inbox.remove(reply)
    if isinstance(reply, M.Welcome):
        c.token = reply.token
    return reply


class Device:
    """One machine: a guest's own identity, or one of a key's machines (its token file)."""

    def __init__(self, label: str, key: Identity | None) -> None:
        self.label = label
        self.key = key
        self.token: str | None = None
        self.conn: FakeClient | None = None

    @property
    def principal(self) -> str:
        """Who this device speaks for: its key, or itself as a guest."""
        return self.key.public_key if self.key is not None else self.label


class Authority(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="leekha-authority-"))
        self.h = self._server()
        self.devices = [
            Device("guest-a", None),
            Device("guest-b", None),
            Device("key0-laptop", KEYS[0]),
            Device("key0-desktop", KEYS[0]),
            Device("key1", KEYS[1]),
        ]
        #: (table id, seat) -> the principal that sat down there.
        self.sat: dict[tuple[int, int], str] = {}

    def _server(self) -> Harness:
        return Harness(store=Store.in_dir(self.folder), seat_grace_s=1e6)

    def teardown(self) -> None:
        self.h.lobby.shutdown()
        self.h.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _fresh(self, d: Device) -> FakeClient:
        if d.conn is not None:
            d.conn.drop()
        d.conn = self.h.connect()
        return d.conn

    def _welcomed(self, d: Device, reply: Message) -> None:
        if not isinstance(reply, M.Welcome):
            assert isinstance(reply, M.Error), reply
            d.conn = None if d.conn is None or d.conn.closed else d.conn
            return
        d.token = reply.token
        assert reply.verified == (d.key is not None)
        if reply.table_id is not None and reply.seat is not None:
            # A welcome that hands over a seat hands it to the one who sat there.
            assert self.sat[(reply.table_id, reply.seat)] == d.principal, (d.label, reply)

    def _claims(self) -> dict[str, str | None]:
        return {n: self.h.store.claimed_key(name_key(n.strip())) for n in NAMES}

    # ---- rules -------------------------------------------------------------------------
    @rule(who=st.integers(0, 1), name=st.sampled_from(NAMES))
    def guest_hello(self, who: int, name: str) -> None:
        d = self.devices[who]
        c = self._fresh(d)
        before = self._claims()
        reply = c.request(M.Hello(id=c.rid(), versions=V12, name=name))
        if isinstance(reply, M.Welcome):
            c.token = reply.token
        else:
            assert self._claims() == before, "a refused hello changed a claim"
        self._welcomed(d, reply)

    @rule(who=st.integers(2, 4), name=st.sampled_from(NAMES), forged=st.booleans())
    def key_hello(self, who: int, name: str, forged: bool) -> None:
        d = self.devices[who]
        assert d.key is not None
        c = self._fresh(d)
        before = self._claims()
        reply = key_hello(c, d.key, name, sign_as="someone else" if forged else None)
        if forged:
            assert isinstance(reply, M.Error), "a forged answer was welcomed"
        if not isinstance(reply, M.Welcome):
            assert self._claims() == before, "a refused hello changed a claim"
        self._welcomed(d, reply)

    @rule(who=st.integers(0, 4), steal=st.integers(0, 4))
    def resume(self, who: int, steal: int) -> None:
        """Resume with this device's token, or try another device's (what a thief might
        have seen is its own token only; a foreign one must not work for it)."""
        d, source = self.devices[who], self.devices[steal]
        if source.token is None:
            return
        c = self._fresh(d)
        reply = c.request(M.Resume(id=c.rid(), versions=VERSIONS, token=source.token))
        if isinstance(reply, M.Welcome) and source is not d:
            # Only the token's own holder could send it: the seat is the source's.
            if reply.table_id is not None and reply.seat is not None:
                assert self.sat[(reply.table_id, reply.seat)] == source.principal
            c.drop()
            d.conn = None
            return
        self._welcomed(d, reply)

    @rule(who=st.integers(0, 4))
    def sit(self, who: int) -> None:
        d = self.devices[who]
        if d.conn is None or d.conn.closed or d.conn.requests.session is None:
            return
        reply = d.conn.request(M.CreateTable(id=d.conn.rid(), name="t"))
        if isinstance(reply, M.Snapshot):
            self.sat[(int(reply.table["id"]), 0)] = d.principal

    @rule(who=st.integers(0, 4))
    def drop(self, who: int) -> None:
        d = self.devices[who]
        if d.conn is not None:
            d.conn.drop()
            d.conn = None

    @rule(crash=st.booleans())
    def restart(self, crash: bool) -> None:
        """Stop (cleanly, or as a crash after the last commit) and start on the same data."""
        self.h.lobby.outbox.flush()
        if crash:
            self.h.lobby.outbox.stop()
            for table in self.h.lobby.tables.values():
                table.shutdown()
        else:
            self.h.lobby.shutdown()
            self.h.lobby.outbox.flush()
        self.h.store.close()
        for d in self.devices:
            d.conn = None
        self.h = self._server()

    # ---- the invariant -----------------------------------------------------------------
    @invariant()
    def every_seat_is_held_by_whoever_sat_in_it(self) -> None:
        for d in self.devices:
            if d.conn is None or d.conn.requests.session is None:
                continue
            session = d.conn.requests.session
            assert session.verified == (d.key is not None)
            if d.key is not None:
                assert session.key == d.key.public_key
            table = self.h.lobby.tables.get(session.table_id or -1)
            seat = table.seat_of(session.token) if table is not None else None
            if table is not None and seat is not None:
                assert self.sat[(table.id, seat)] == d.principal, d.label


TestAuthority = Authority.TestCase
TestAuthority.settings = settings(
    max_examples=25,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _seated_guest(folder: Path) -> tuple[str, int]:
    """carol, a guest, sits at a table; the server stops. Her token and table id."""
    h = Harness(store=Store.in_dir(folder))
    carol = h.player("carol")
    snap = carol.request(M.CreateTable(id=carol.rid(), name="t"))
    assert isinstance(snap, M.Snapshot)
    h.stop()
    assert carol.token is not None
    return carol.token, int(snap.table["id"])


def test_a_key_that_proves_a_guests_name_is_refused_and_claims_nothing(tmp_path: Path) -> None:
    h = Harness(store=Store.in_dir(tmp_path))
    carol = h.player("carol")
    carol.request(M.CreateTable(id=carol.rid(), name="t"))
    thief = h.connect("10.0.0.9")
    reply = key_hello(thief, KEYS[0], "carol")
    assert isinstance(reply, M.Error) and reply.code == "bad_name"
    assert h.store.claimed_key(name_key("carol")) is None
    # Gone from the lobby, her seat still hers: still refused, still nothing claimed.
    carol.drop()
    reply = key_hello(h.connect("10.0.0.9"), KEYS[0], "carol")
    assert isinstance(reply, M.Error) and reply.code == "bad_name"
    assert h.store.claimed_key(name_key("carol")) is None


def test_the_bad_claim_of_an_older_server_gives_nobody_the_guests_seat(tmp_path: Path) -> None:
    token, tid = _seated_guest(tmp_path)
    # Make the data what a server before the fix left: tokens in plain text, no proven
    # keys, and the key's claim of carol's name stored after carol's session.
    with closing(sqlite3.connect(db_path(tmp_path))) as db, db:
        digest = db.execute("SELECT token FROM sessions").fetchone()[0]
        db.execute("ALTER TABLE sessions DROP COLUMN public_key")
        db.execute("ALTER TABLE sessions DROP COLUMN secret")
        db.execute("UPDATE sessions SET token = ?", (token,))
        db.execute("UPDATE seats SET token = ? WHERE token = ?", (token, digest))
        db.execute("UPDATE tables SET host_token = ? WHERE host_token = ?", (token, digest))
        db.execute("DELETE FROM meta WHERE key = 'token_hash'")
        db.execute(
            "INSERT INTO identities VALUES (?, 'carol', ?, 1e12)",
            (name_key("carol"), KEYS[0].public_key),
        )
    h = Harness(store=Store.in_dir(tmp_path))
    with closing(sqlite3.connect(db_path(tmp_path))) as db:
        dump = "\n".join(db.iterdump())
    assert token not in dump, "the token is stored as its digest after the upgrade"
    thief = key_hello(h.connect("10.0.0.9"), KEYS[0], "carol")
    assert isinstance(thief, M.Error) and thief.code == "bad_name"
    back = h.connect()
    welcome = back.request(M.Resume(id=1, versions=VERSIONS, token=token))
    assert isinstance(welcome, M.Welcome)
    assert welcome.table_id == tid and welcome.seat == 0 and not welcome.verified


def test_a_key_takes_its_seat_back_from_another_machine_with_a_fresh_token(
    tmp_path: Path,
) -> None:
    h = Harness(store=Store.in_dir(tmp_path))
    laptop = h.connect()
    first = key_hello(laptop, KEYS[1], "rana")
    assert isinstance(first, M.Welcome) and first.verified
    laptop.request(M.CreateTable(id=laptop.rid(), name="t"))
    laptop.drop()
    h.stop()
    h = Harness(store=Store.in_dir(tmp_path))
    desktop = h.connect()
    welcome = key_hello(desktop, KEYS[1], "rana")
    assert isinstance(welcome, M.Welcome) and welcome.resumed and welcome.seat == 0
    assert welcome.verified and welcome.token != first.token
    stale = h.connect().request(M.Resume(id=1, versions=VERSIONS, token=first.token))
    assert isinstance(stale, M.Error) and stale.code == "bad_token"
