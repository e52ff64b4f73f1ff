"""Bot strategies: pure functions of a seat view, shared by server bots and the bot client."""
