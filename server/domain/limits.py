"""Limits that keep one hostile or buggy client from hurting anybody else.

Everything here runs on an injected clock so tests can drive time exactly.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

from leekha.server.domain.clock import Clock
from leekha.server.domain.errors import Refused
from leekha.server.domain.lookalikes import prototypes


class TokenBucket:
    """Allows `rate` events per second on average with bursts of up to `burst`."""

    def __init__(self, clock: Clock, rate: float, burst: float) -> None:
        self._clock = clock
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self._last = clock.seconds()

    def _refill(self) -> None:
        now = self._clock.seconds()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now

    def full(self) -> bool:
        """True when the bucket has refilled to its burst (nothing to remember)."""
        self._refill()
        return self.tokens >= self.burst

    def empty(self) -> None:
        """Spend every token: the next event waits for the refill."""
        self._refill()
        self.tokens = 0.0

    def take(self, cost: float = 1.0) -> bool:
        """Spend `cost` tokens if there are enough; False means the caller is over the limit."""
        self._refill()
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


#: A burst of new connections from one address may be this many seconds' worth of its rate.
NEW_CONNECTION_BURST_S = 5.0
#: Past this many addresses, buckets that are full again (idle addresses) are forgotten.
MAX_IDLE_BUCKETS = 1024


class AddressCounter:
    """Counts open connections in total and per client address, and limits how fast one
    address may open new ones (`new_per_s`, bursts of NEW_CONNECTION_BURST_S seconds'
    worth), so a client that is kicked cannot come straight back again and again.

    `admit` (new-connection rate and penalty box) runs before a connection object exists,
    `acquire` (open-connection caps) once it does; `penalize` shuts an address out of new
    connections for a while and empties its burst, open connections are not touched."""

    def __init__(
        self,
        max_total: int,
        max_per_ip: int,
        *,
        clock: Clock | None = None,
        new_per_s: float | None = None,
    ) -> None:
        self.max_total = max_total
        self.max_per_ip = max_per_ip
        self.total = 0
        self.per_ip: Counter[str] = Counter()
        self._clock = clock
        self.new_per_s = new_per_s
        self._new: dict[str, TokenBucket] = {}
        #: Address -> clock time until which its new connections are refused.
        self._penalty: dict[str, float] = {}

    def _bucket(self, ip: str) -> TokenBucket | None:
        if self._clock is None or self.new_per_s is None:
            return None
        bucket = self._new.get(ip)
        if bucket is None:
            if len(self._new) >= MAX_IDLE_BUCKETS:
                for key in [k for k, b in self._new.items() if b.full()]:
                    del self._new[key]
            burst = max(1.0, self.new_per_s * NEW_CONNECTION_BURST_S)
            bucket = self._new[ip] = TokenBucket(self._clock, self.new_per_s, burst)
        return bucket

    def admit(self, ip: str) -> bool:
        """May `ip` open a new connection now (not in the penalty box, within its rate)?"""
        bucket = self._bucket(ip)
        if self._penalty and self._clock is not None:
            until = self._penalty.get(ip)
            if until is not None:
                if self._clock.seconds() < until:
                    return False
                # Out of the box with an empty burst: one connection now, then the rate.
                del self._penalty[ip]
                if bucket is not None:
                    bucket.empty()
                return True
        return bucket is None or bucket.take()

    def penalize(self, ip: str, seconds: float) -> None:
        """Refuse new connections from `ip` for `seconds`; after that it starts again with
        one connection and an empty burst, refilling at the new-connection rate."""
        if self._clock is None or seconds <= 0:
            return
        now = self._clock.seconds()
        if len(self._penalty) >= MAX_IDLE_BUCKETS:
            for key in [k for k, t in self._penalty.items() if t <= now]:
                del self._penalty[key]
        self._penalty[ip] = now + seconds

    def acquire(self, ip: str) -> str | None:
        """Count a new connection; returns why it is refused, or None when admitted."""
        if self.total >= self.max_total:
            return f"the server is full ({self.max_total} connections)"
        if self.per_ip[ip] >= self.max_per_ip:
            return f"too many connections from {ip} (limit {self.max_per_ip})"
        self.total += 1
        self.per_ip[ip] += 1
        return None

    def release(self, ip: str) -> None:
        self.total = max(0, self.total - 1)
        self.per_ip[ip] -= 1
        if self.per_ip[ip] <= 0:
            del self.per_ip[ip]


def _has_control(text: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text)


def clean_name(text: str, max_len: int) -> str:
    """A display name (player or table): trimmed, printable, within the server's limit."""
    name = " ".join(text.split())
    if not name:
        raise Refused("bad_name", "a name needs at least one visible character")
    if len(name) > max_len:
        raise Refused("name_too_long", f"names are at most {max_len} characters")
    if _has_control(name):
        raise Refused("bad_name", "names may not contain control or format characters")
    return name


def clean_chat(text: str, max_len: int) -> str:
    """Chat text: trimmed, no control characters except newlines, within the limit."""
    body = text.strip()
    if len(body) > max_len:
        raise Refused("chat_too_long", f"chat messages are at most {max_len} characters")
    body = "".join(ch for ch in body if ch == "\n" or not _has_control(ch))
    if not body.strip():
        raise Refused("bad_field", "chat text is empty")
    return body


def skeleton(text: str) -> str:
    """A name as it looks (UTS #39 skeleton): decomposed, each character replaced by its
    confusable prototype, case folded. Names with equal skeletons look alike."""
    table = prototypes()
    once = "".join([table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)])
    return unicodedata.normalize("NFD", once).casefold()


def name_keys(name: str) -> frozenset[str]:
    """What a name must not share with another online name: its case-folded form (Ali,
    ALI) and its skeleton (Cyrillic ԁ beside Latin d, I beside l)."""
    return frozenset((name.casefold(), skeleton(name)))
