"""The client's sans-IO core: what any client role knows of its server, folded from messages.

No terminal, no socket, no Twisted: the connection's status, the lobby, the table, the chat
by place, the tournaments and the replies matched to requests. `ClientCore` (core.py)
composes them: every message folded once into typed changes, every request built from a
typed intent and tracked. The bot is a policy over it, and the terminal client runs on one
(client/tui/on_core.py).
"""
