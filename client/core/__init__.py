"""The client's sans-IO core: what any client role knows of its server, folded from messages.

No terminal, no socket, no Twisted: the connection's status, the lobby, the chat by place
and the replies matched to requests. The terminal client composes these into its screens
(client/tui/model.py); other roles may use them as they are.
"""
