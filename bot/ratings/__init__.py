"""Ratings: Glicko-2 per member per game per server, updated at the end of each game
that counts; ``/leaderboard`` and ``/profile``."""
