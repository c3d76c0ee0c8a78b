"""Conditional moves (replies played at once on a player's behalf) and private notes."""
