"""Key bindings: the key table of `keymap.py`, bound to prompt_toolkit.

Each entry's keys are live while its condition holds for the model as it is at the key
press; the hints and the help box read the same entries, so they name exactly these keys.
"""

from __future__ import annotations

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from leekha.client.tui import model as M
from leekha.client.tui.keyfilters import Actions, Press, Where, layer
from leekha.client.tui.keymap import CLIENT_KEYS
from leekha.client.tui.keytable import register

__all__ = ["Actions", "build_keys"]


def build_keys(m: M.ClientModel, act: Actions) -> KeyBindings:
    def press(event: KeyPressEvent) -> Press:
        def again() -> None:
            event.key_processor.feed_multiple(event.key_sequence, first=True)

        return Press(m, act, event.data, again)

    return register(KeyBindings(), CLIENT_KEYS, lambda: Where(m, layer(m)), press)
