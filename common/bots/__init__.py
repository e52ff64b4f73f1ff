"""Bot strategies: pure functions of a seat view, shared by server bots and the bot client."""

#: Every built-in strategy name, levels first: the one list every command and the server's
#: refusals show (`base.strategy_names()` is the registry itself, which imports every bot;
#: a test keeps the two equal). Levels are for people, tiers say how a bot works.
LEVELS = ("easy", "medium", "hard")
TIERS = (
    "random",
    "heuristic",
    "net",
    "search1",
    "search",
    "search-eg",
    "search-net",
    "search-egn",
    "search-prior",
)
BUILTIN = (*LEVELS, *TIERS)
#: The module (in this package) that registers each built-in name: building one bot
#: imports its module alone (the net tier needs NumPy, which a table of search bots
#: should not wait for).
MODULE_OF = {
    "easy": "levels",
    "medium": "levels",
    "hard": "levels",
    "random": "random_bot",
    "heuristic": "heuristic",
    "net": "net",
    "search1": "search1",
    "search": "search",
    "search-eg": "learned",
    "search-net": "learned",
    "search-egn": "learned",
    "search-prior": "learned",
}
