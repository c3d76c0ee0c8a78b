"""Slash commands, one module per area. Each module has ``async def setup(bot)``."""

EXTENSIONS = ("bot.cogs.challenge", "bot.cogs.play", "bot.cogs.info", "bot.cogs.review",
              "bot.cogs.records", "bot.cogs.ratings", "bot.cogs.correspondence")
