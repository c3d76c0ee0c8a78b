"""Fast search positions, one module per game (``rules/fast/<game name>.py``),
each with ``position(state) -> rules.position.SearchPosition``. See :mod:`rules.position`."""
