"""The exit statuses every `leekha` command shares (README.md, "Exit codes"), named once
for the entry point, the event loop and the screens' keys."""

from __future__ import annotations

#: Interrupted: Ctrl-C, whether a SIGINT or a key on a full screen (128 + SIGINT).
INTERRUPTED = 130
#: The reader of stdout went away (`leekha id show | head -1`): 128 + SIGPIPE, what a
#: shell reports for a program that the signal ended.
BROKEN_PIPE = 141
