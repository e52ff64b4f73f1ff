"""Our own clock and the bell: when the server acts for us, the one warning before it does,
and whether the terminal should ring.

The deadline is the server's figure counted on our clock from when its message arrived
(a resumed client counts down from the server's time left, 1.4 `turn`); nothing here
decides a timeout. The app rings and clears `ring`.
"""

from __future__ import annotations

from collections.abc import Callable

from leekha.client.i18n import ngettext
from leekha.client.tui.status import StatusLine

#: Seconds before a timer runs out when the player is warned (status line, and the bell
#: when it is on).
WARN_S = 10


class Alarm:
    def __init__(self, clock: Callable[[], float], line: StatusLine, bell: bool) -> None:
        self.clock = clock
        self.line = line
        self.bell = bell  # ring on your turn
        self.ring = False
        self.deadline_at: float | None = None
        self._warned_at: float | None = None  # the deadline already warned about

    def seconds_left(self) -> int | None:
        if self.deadline_at is None:
            return None
        return max(0, int(self.deadline_at - self.clock() + 0.999))

    def stop(self) -> None:
        self.deadline_at = None

    def your_turn(self) -> None:
        """Our turn: ring when the player asked for the bell."""
        self.ring = self.bell

    def warn(self, my_turn: bool) -> bool:
        """Warn once when our clock is about to run out; True when the screen changed."""
        left = self.seconds_left()
        if left is None or left > WARN_S or self._warned_at == self.deadline_at:
            return False
        if not my_turn:
            return False
        self._warned_at = self.deadline_at
        self.line.say(
            ngettext(
                "{n} second left: then the server plays for you",
                "{n} seconds left: then the server plays for you",
                left,
            ).format(n=left),
            error=True,
            transient=True,
        )
        self.ring = self.bell
        return True
