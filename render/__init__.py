"""Pictures of game positions (Pillow). Imports ``rules`` only."""
