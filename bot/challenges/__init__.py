"""Challenges: offered to a member or to anyone, accepted (a game starts),
declined, cancelled, expired, and rematches; ``/challenge`` and its buttons."""
