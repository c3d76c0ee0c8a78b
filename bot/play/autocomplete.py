"""What the ``move`` and ``game`` options suggest while a member types. Never raises:
an autocomplete can only answer with choices (at most 25)."""

from __future__ import annotations

import asyncio

from bot import texts
from bot.model import UserError
from bot.play.games import Games
from bot.play.suggest import LIMIT, Suggestion, suggest_moves


class Autocomplete:
    def __init__(self, games: Games) -> None:
        self.games = games

    async def move_suggestions(self, *, guild_id: int, channel_id: int, member_id: int,
                               typed: str, ref: str | None = None) -> list[Suggestion]:
        """The legal moves of the game meant, for the player to move only."""
        try:
            row = await self.games.find_game(guild_id=guild_id, channel_id=channel_id,
                                             member_id=member_id, ref=ref)
        except UserError:
            return []
        if not row.is_active:
            return []
        state = await self.games.state_of(row)
        if state.to_move is None or row.player_ids[state.to_move] != member_id:
            return []  # only the player to move gets suggestions
        legal = await asyncio.to_thread(state.legal_moves)
        return suggest_moves(legal, typed, parse=state.parse)

    async def game_suggestions(self, *, guild_id: int, member_id: int,
                               typed: str) -> list[Suggestion]:
        """The member's active games, theirs to move first."""
        listing = await self.games.list_games(guild_id=guild_id, member_id=member_id)
        needle = typed.strip().lstrip("#").lower()
        mine, theirs = [], []
        for row, state in listing.active:
            opponent = row.player_names[1 - row.seat_of(member_id)]
            my_turn = state.to_move is not None and row.player_ids[state.to_move] == member_id
            name = f"{texts.label(row)} vs {opponent} · " + ("your turn" if my_turn else
                                                              "their turn")
            if needle and needle not in name.lower():
                continue
            (mine if my_turn else theirs).append(Suggestion(name[:100], str(row.id)))
        return (mine + theirs)[:LIMIT]
