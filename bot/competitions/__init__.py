"""Competitions run by the bot: tournaments (round robin, Swiss, knockout), their
pairings, standings and games."""
