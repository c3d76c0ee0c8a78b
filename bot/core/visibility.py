"""Who may see a game where: the one rule, applied wherever a game is looked up by its
number (:meth:`bot.core.games.Games.find_game`).

With one pool of players across servers, a member's games are no longer all of one
server. A game is shown in a server only to its players, or to anyone there when both
players are members of that server:

- a game played in that server: to anyone there (both were members when it started;
  that is taken as the proof, no member list is asked);
- a game played in no server (in direct messages): to its players, and to anyone in a
  server where both players are members, when the caller knows it (``both_members``);
- a game played in another server: only where the caller knows both players are
  members (``both_members``); servers otherwise stay apart, its own players included
  (they see it in its server, and in DMs);
- in direct messages (``guild_id`` None): to its players only.
"""

from __future__ import annotations

from bot.storage import GameRow


def shown_here(
    row: GameRow, *, guild_id: int | None, viewer_id: int, both_members: bool = False
) -> bool:
    """Whether ``viewer_id`` may see the game ``row`` in the server ``guild_id`` (None:
    in DMs). ``both_members``: both players are known to be members of that server."""
    player = viewer_id in row.player_ids
    if guild_id is None:
        return player
    if row.guild_id == guild_id or both_members:
        return True
    return player and not row.guild_id  # a game of no server, to its players
