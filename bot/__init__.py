"""The Discord bot. Imports ``rules`` and ``render``; nothing imports it."""
