"""What the ``move`` and ``game`` options suggest while a member types. Never raises:
an autocomplete can only answer with choices (at most 25). Every move suggested
plays as it is; when there is none to suggest, one choice says why, and sent anyway
it plays nothing (``/move`` answers with the reason)."""

from __future__ import annotations

import asyncio

from bot import texts
from bot.core.games import Games, shown
from bot.core.move_choices import LIMIT, MAX_LENGTH, MoveChoice, move_choices
from bot.i18n import _
from bot.model import UserError
from bot.places import DMS
from bot.storage import queries

#: The start of the value of a choice that only explains: ``/move`` plays nothing.
NOTHING_TO_PLAY = "?? "


def explanation(text: str) -> list[MoveChoice]:
    """The one choice of an autocomplete with no move to offer: it says why."""
    name = text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 1] + "…"
    return [MoveChoice(name, (NOTHING_TO_PLAY + text)[:MAX_LENGTH])]


class Autocomplete:
    def __init__(self, games: Games) -> None:
        self.games = games

    async def move_suggestions(
        self, *, guild_id: int, channel_id: int, member_id: int, typed: str, ref: str | None = None
    ) -> list[MoveChoice]:
        """The legal moves of the game meant, for the player to move only."""
        try:
            row = await self.games.find_game(
                guild_id=guild_id, channel_id=channel_id, member_id=member_id, ref=ref
            )
        except UserError as error:
            return explanation(error.message)
        if not row.is_active:
            return explanation(texts.over_text(row))
        if row.seat_of(member_id) is None:
            return explanation(_("You are not playing in {game}.", game=texts.label(row)))
        state = await self.games.state_of(row)
        if state.to_move is None:
            return explanation(texts.over_text(row, state))
        if row.player_ids[state.to_move] != member_id:
            return explanation(
                _(
                    "It's {name}'s turn in {game}: nothing for you to play yet.",
                    name=row.player_names[state.to_move],
                    game=texts.label(row),
                )
            )
        legal = await asyncio.to_thread(state.legal_moves)
        found = move_choices(legal, typed, parse=state.parse)
        if not found:
            return explanation(
                _(
                    "No legal move in {game} starts with “{typed}”: clear the field to see them.",
                    game=texts.label(row),
                    typed=shown(typed),
                )
            )
        return found

    async def game_suggestions(
        self, *, guild_id: int, member_id: int, typed: str
    ) -> list[MoveChoice]:
        """The member's active games, theirs to move first."""
        listing = await self.games.list_games(guild_id=guild_id, member_id=member_id)
        needle = typed.strip().lstrip("#").lower()
        mine: list[MoveChoice] = []
        theirs: list[MoveChoice] = []
        for row, state in listing.active:
            opponent = row.opponent_name(member_id)
            my_turn = state.to_move is not None and row.player_ids[state.to_move] == member_id
            name = (
                _("{game} vs {name} · your turn", game=texts.label(row), name=opponent)
                if my_turn
                else _("{game} vs {name} · their turn", game=texts.label(row), name=opponent)
            )
            if needle and needle not in name.lower():
                continue
            (mine if my_turn else theirs).append(MoveChoice(name[:100], str(row.id)))
        return (mine + theirs)[:LIMIT]

    async def server_game_suggestions(
        self, *, guild_id: int, typed: str, member_id: int = 0
    ) -> list[MoveChoice]:
        """Autocomplete for games to review: the server's recent games, newest first (in
        the DMs' scope, only ``member_id``'s own: a DM game is its players' alone)."""
        needle = typed.strip().lstrip("#").lower()
        async with self.games.db.reading() as conn:
            rows = await queries.recent_games(conn, guild_id, limit=100)
        found = []
        for row in rows:
            if guild_id == DMS and row.seat_of(member_id) is None:
                continue
            state = _("in progress") if row.is_active else texts.result_text(row)
            name = _(
                "{game} · {first} vs {second} · {state}",
                game=texts.label(row),
                first=row.player_names[0],
                second=row.player_names[1],
                state=state,
            )
            if needle and needle not in name.lower():
                continue
            found.append(MoveChoice(name if len(name) <= 100 else name[:99] + "…", str(row.id)))
        return found[:LIMIT]
