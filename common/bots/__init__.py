"""Bot strategies: pure functions of a seat view, shared by server bots and the bot client."""

#: Every built-in strategy name, levels first: the one list every command and the server's
#: refusals show (`base.strategy_names()` is the registry itself, which imports every bot;
#: a test keeps the two equal). Levels are for people, tiers say how a bot works.
LEVELS = ("easy", "medium", "hard")
TIERS = ("random", "heuristic", "net", "search1", "search", "search-eg")
BUILTIN = (*LEVELS, *TIERS)
