"""The server's domain: the lobby, the tables, tournaments, quick play, chat and phrases,
and the store they write through. It knows no transport and imports nothing of Twisted but
its logger (contract `domain-sans-twisted` in pyproject.toml); the adapters of
leekha.server (TCP, WebSocket, TLS, the reactor, the commands) hold it and call into it.
"""
