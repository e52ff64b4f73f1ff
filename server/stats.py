"""Counts of connection events, logged as one summary line a minute instead of one line
per event, so that a fuzzer or a reconnect flood cannot fill the log.

Each event is logged on its own only at debug level; Twisted builds a debug event before
the level filter drops it, so the line is not even built unless the server logs at debug.
`summary` is called by the server's TimerService once a minute.
"""

from __future__ import annotations

from twisted.logger import Logger

from leekha.server.domain.clock import Clock

log = Logger()

#: Seconds between summary lines (the TimerService's step).
SUMMARY_EVERY_S = 60.0

#: The summary lines: the counts each one reports (and resets), logged when one is not 0.
_SUMMARY_LINES = (
    (
        ("violations", "refused", "dropped"),
        "{violations} protocol violations or refused connections, {refused} connections"
        " refused with rate_limited and {dropped} peers dropped in the last {s:.0f} s{latest}",
    ),
    (
        ("opened", "hellos", "resumes"),
        "{opened} connections opened, {hellos} hellos, {resumes} resumes in the last"
        " {s:.0f} s; {open} open",
    ),
)


class ConnectionStats:
    def __init__(self, clock: Clock, *, debug: bool) -> None:
        self.clock = clock
        self.debug = debug
        #: Protocol violations and connections refused after they were built.
        self.violations = 0
        #: New connections refused with `rate_limited` (penalty box, new-connection rate).
        self.refused = 0
        #: Peers dropped for not reading, silence or an unfinished frame.
        self.dropped = 0
        self.opened = 0
        self.hellos = 0
        self.resumes = 0
        self._since = clock.seconds()
        self._latest = ""

    def violation(self, ip: str, code: str, message: str) -> None:
        """A protocol violation or a refused connection."""
        if self.debug:
            log.debug("refused {ip}: {code} {msg}", ip=ip, code=code, msg=message)
        self.violations += 1
        self.note(ip, code)

    def note(self, ip: str, code: str) -> None:
        """Remember the latest refusal for the summary line."""
        self._latest = f" (latest from {ip}: {code})"

    def summary(self, open_connections: int) -> None:
        """One info line for each kind of event seen since the last summary, then reset."""
        now = self.clock.seconds()
        for names, text in _SUMMARY_LINES:
            counts = {name: getattr(self, name) for name in names}
            if any(counts.values()):
                log.info(
                    text, s=now - self._since, latest=self._latest, open=open_connections, **counts
                )
            for name in names:
                setattr(self, name, 0)
        self._latest = ""
        self._since = now
