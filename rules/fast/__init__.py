"""Fast search positions, one module per game (``rules/fast/<game name>.py``),
each with ``position(state) -> rules.position.SearchPosition``, declared as the game's
``fast`` plug-in (``rules.Plugins``). See :mod:`rules.position`."""
