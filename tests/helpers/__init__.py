"""Helpers shared by the test folders (engine/, protocol/, server/, client/, bots/, harness/).

pytest puts tests/ on sys.path (`pythonpath` in pyproject.toml), so a test imports them as
`from helpers.server import Harness`. Nothing here is collected as a test.
"""
