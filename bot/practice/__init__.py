"""Practice games against the bot: the AI answers the moves."""
