"""Names vulture (`.ci/vulture`) cannot see used, each with where it is used from.

A line here says "alive, though nothing in the tree calls it by name": keep it short, and
delete code rather than list it. The dispatch tables (`handle_*` on the server,
`_on_*` in the bot client) are left out by name pattern in `.ci/vulture` instead.
"""

# ruff: noqa: B018, F821
# mypy: ignore-errors

_: object

# Keys of TypedDicts, written as dict literals (the JSON report of `leekha match`, wire views).
points_per_round  # client/arena/match.py
points_ci95
games_won
diff_vs_others
diff_ci95
relative_to_others
rule_overrides
games_finished
control_reason  # protocol/views.py
winner_entrants

# Carried to `pybabel extract` only: argparse's own msgids (client/argparse_words.py).
WORDS
_plurals

# Parameters a caller's signature fixes: zeroconf's handler, argparse's Action, Twisted's
# reactor and transport interfaces (structural types and overrides).
service_type  # client/discovery.py
namespace  # client/idcmd.py
option_string
secondsFromNow  # protocol/reactor.py
eventType
protocolFactory  # server/app.py
streaming  # server/socketsend.py

# Attributes and methods a framework reads or calls: Twisted (factories, protocols, TLS
# connection creators) and prompt_toolkit (Application, UIControl).
_.noisy  # client/session.py, server/connection.py
noisy
_.clientConnectionForTLS  # client/trust.py
_.connectionMade  # client/wire.py, server/connection.py, server/transport.py
_.stopProducing  # server/transport.py (a push producer)
_.ttimeoutlen  # client/tui/app.py, client/tui/replay.py
_.after_key_press
_.create_content  # client/tui/layout.py
_.is_focusable

# Read by name through a format string (server/stats.py's summary line).
_.hellos

# The value network's input planes, named for the layout they document
# (common/bots/features.py; the code indexes them by offset).
PLAYED
RECEIVED
ABSENT
DOUBLED

# A strategy reached by `module:Class` from `leekha match` (docs/bots.md).
NeverDoubleHeuristic

# twisted.web.websocket calls these on the protocol it holds (server/websocket.py).
_.pongReceived
_.textMessageReceived
_.bytesMessageReceived
_.negotiationStarted
_.negotiationFinished
_._plural_page  # client/webwords.py:78
_.note_codes  # protocol/views.py:205
_.isLeaf  # server/web.py:112
_.getChild  # server/web.py:148
_.displayTracebacks  # server/web.py:208
_.writeSequence  # server/websocket.py:167
