"""``/move``, ``/resign``, ``/board`` and ``/games``."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import places, texts
from bot.core.autocomplete import NOTHING_TO_PLAY, Autocomplete
from bot.core.boards import Boards
from bot.core.game_settings import GameDeadlines
from bot.core.games import Games
from bot.core.members import MemberSettings
from bot.core.moves import Moves
from bot.core.options import MyGame, game_meant
from bot.core.views import own_note
from bot.i18n import _, said
from bot.model import UserError, names
from bot.pictures import render_hints
from bot.play import views
from bot.play.views import confirm_move, played_text, resign_view
from bot.storage import ChallengeRow, GameRow
from bot.ui.answers import reply
from bot.ui.areas import AreaHost, PostViews
from bot.ui.context import (
    answers_only,
    channel_of,
    guild_of,
    has_service,
    member_of,
    service,
)

MyGameOption = app_commands.Transform[GameRow, MyGame]
GAME_MEANT = "Which game (implied inside a game's thread)"


async def legal_moves(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Legal moves of the game meant (its thread, the ``game`` option, or the only one)."""
    suggestions = await service(interaction, Autocomplete).move_suggestions(
        guild_id=guild_of(interaction),
        channel_id=channel_of(interaction),
        member_id=interaction.user.id,
        typed=current,
        ref=getattr(interaction.namespace, "game", None),
    )
    return [app_commands.Choice(name=s.name, value=s.value) for s in suggestions]


class PlayCommands(commands.Cog):
    @app_commands.command(name="move", description="Play a move in one of your games")
    @app_commands.describe(
        move="The move, e.g. c3 (start typing to see the legal ones)", game=GAME_MEANT
    )
    @app_commands.autocomplete(move=legal_moves)
    async def move(
        self,
        interaction: discord.Interaction,
        move: app_commands.Range[str, 1, 100],
        game: MyGameOption | None = None,
    ) -> None:
        if move.startswith(NOTHING_TO_PLAY):  # the autocomplete's explanation, sent
            why = move.removeprefix(NOTHING_TO_PLAY).strip()
            await interaction.response.send_message(
                _("Nothing was played: {why}", why=why), ephemeral=True
            )
            return
        # The first answer before anything that may take a while (Discord's 3 seconds).
        # Where the bot can only answer (a server without it), the answer is the board.
        here = answers_only(interaction)
        await interaction.response.defer(ephemeral=not here, thinking=True)
        guild_id, member = guild_of(interaction), member_of(interaction.user)
        row = await game_meant(interaction, game)
        prefs = await service(interaction, MemberSettings).of(member.id)
        if prefs.confirm_moves and not here:
            await confirm_move(interaction, row.id, move, prefs.theme)
            return
        update = await service(interaction, Moves).play_move(
            guild_id=guild_id, game_id=row.id, member=member, text=move
        )
        if here:
            picture = await service(interaction, Boards).picture(update.game, update.state)
            files = [] if picture is None else [discord.File(io.BytesIO(picture), "board.png")]
            await reply(interaction, places.moved_here(texts.label(update.game)), attachments=files)
            return
        await reply(interaction, played_text(update))  # an edit of the deferred answer

    @app_commands.command(name="resign", description="Resign one of your games (asks first)")
    @app_commands.describe(game=GAME_MEANT)
    async def resign(
        self, interaction: discord.Interaction, game: MyGameOption | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild_id, member = guild_of(interaction), member_of(interaction.user)
        row = await game_meant(interaction, game)
        row, _state = await service(interaction, Moves).check_player(
            guild_id=guild_id, game_id=row.id, member=member
        )
        opponent = row.opponent_name(member.id)
        await interaction.followup.send(
            _(
                "Resign **{game}** against {name}? {name} wins; this can't be "
                "undone. (Dismiss this message to keep playing.)",
                game=texts.label(row),
                name=opponent,
            ),
            view=resign_view(row.id, member.id),
            ephemeral=True,
        )

    @app_commands.command(name="board", description="Show the current board of a game")
    @app_commands.describe(
        game=GAME_MEANT,
        public="Show it to everyone in the channel (default: only you)",
        marks="Mark where the player to move may play (shown only to you)",
    )
    async def board(
        self,
        interaction: discord.Interaction,
        game: MyGameOption | None = None,
        public: bool = False,
        marks: bool = False,
    ) -> None:
        public = public and not marks  # hints are for the one who asks
        await interaction.response.defer(ephemeral=not public, thinking=True)
        row = await game_meant(interaction, game)
        state = await service(interaction, Games).state_of(row)
        theme = await service(interaction, MemberSettings).theme(
            interaction.user.id, private=not public
        )
        picture: bytes | None
        if marks and row.is_active:
            picture = await render_hints(state, names(row), theme=theme)
        else:
            picture = await service(interaction, Boards).picture(row, state, theme=theme)
        head = _(
            "**{game}**: {first} vs {second} · move {number}",
            game=texts.label(row),
            first=texts.player(row, state, 0),
            second=texts.player(row, state, 1),
            number=state.ply,
        )
        if state.last_move:
            head += " " + _("(last: `{move}`)", move=state.last_move)
        lines = [head]
        if row.is_active:
            seat = state.to_move
            lines.append(
                _(
                    "{name} to play: {prompt}.",
                    name=row.player_names[seat],
                    prompt=said(state.prompt),
                )
                if seat is not None
                else ""
            )
            deadline = await service(interaction, GameDeadlines).deadline_of(row)
            if seat is not None and deadline is not None:
                lines.append(texts.deadline_line(row.player_names[seat], deadline))
        else:
            lines.append(texts.game_over(row, state))
        if not public:  # the asker's own note, in their private answer only
            lines.append(await own_note(interaction, row.id))
        file = (
            discord.File(io.BytesIO(picture), filename="board.png")
            if picture
            else discord.utils.MISSING
        )
        await interaction.followup.send(
            "\n".join(line for line in lines if line),
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
            file=file,
        )

    @app_commands.command(name="games", description="A member's games in progress and recent ones")
    @app_commands.describe(member="Whose games (default: yours)")
    async def games(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        guild_id = guild_of(interaction)
        who = member or interaction.user
        if guild_id == places.DMS and who.id != interaction.user.id:
            raise UserError(_(places.OWN_GAMES_ONLY))
        await interaction.response.defer(ephemeral=True, thinking=True)  # may replay games
        listing = await service(interaction, Games).list_games(guild_id=guild_id, member_id=who.id)
        embed = discord.Embed(title=_("{name}'s games", name=who.display_name))
        active = []
        for row, state in listing.active:
            where = texts.jump_url(guild_id, row.where_id)
            active.append(
                _(
                    "{game} vs {name}: {status}",
                    game=places.game_ref(texts.label(row), where, row.in_dms),
                    name=row.opponent_name(who.id),
                    status=texts.status_line(row, state, who.id),
                )
            )
        finished = []
        for row in listing.finished:
            seat = row.player_seat(who.id)
            outcome = (
                _("won")
                if row.winner_seat == seat
                else _("draw")
                if row.winner_seat is None
                else _("lost")
            )
            where = texts.jump_url(guild_id, row.where_id)
            finished.append(
                _(
                    "{game} vs {name}: {outcome} ({result})",
                    game=places.game_ref(texts.label(row), where, row.in_dms),
                    name=row.player_names[1 - seat],
                    outcome=outcome,
                    result=texts.result_text(row),
                )
            )
        embed.add_field(
            name=_("In progress ({count})", count=len(active)),
            value=_fit(active) or _("None: start one with /challenge."),
            inline=False,
        )
        embed.add_field(
            name=_("Recently finished"), value=_fit(finished) or _("None yet."), inline=False
        )
        fields: dict[str, Any] = {}
        if listing.challenges:
            waiting = [
                _(
                    "{challenge} to {name}",
                    challenge=_where(challenge),
                    name=challenge.opponent_name or _("anyone"),
                )
                for challenge in listing.challenges
            ]
            embed.add_field(
                name=_("Challenges waiting for an answer ({count})", count=len(waiting)),
                value=_fit(waiting),
                inline=False,
            )
            if who.id == interaction.user.id and has_service(interaction, PostViews):
                ids = [challenge.id for challenge in listing.challenges]
                fields["view"] = _cancels(service(interaction, PostViews), ids)
        await interaction.followup.send(embed=embed, ephemeral=True, **fields)


def _where(challenge: ChallengeRow) -> str:
    """A challenge by its game, linked to its message once posted."""
    title = rules.get_game(challenge.game).title
    if challenge.message_id is None:
        return _("{game} (being posted)", game=title)
    url = texts.jump_url(challenge.guild_id, challenge.channel_id, challenge.message_id)
    return f"[{title}]({url})"


def _cancels(views: PostViews, challenge_ids: list[int]) -> discord.ui.View:
    """A Cancel button for each of the member's waiting challenges (Discord's 25 at most)."""
    view = discord.ui.View(timeout=None)
    for challenge_id in challenge_ids[:25]:
        item = views.cancel_challenge(challenge_id)
        if item is not None:
            view.add_item(item)
    return view


def _fit(lines: list[str], limit: int = 1024) -> str:
    """Lines joined within an embed field's 1024 characters."""
    shown: list[str] = []
    for number, line in enumerate(lines):
        more = _("…and {count} more", count=len(lines) - number)
        if len("\n".join([*shown, line, more])) > limit:
            shown.append(more)
            break
        shown.append(line)
    return "\n".join(shown)


async def setup(bot: AreaHost) -> None:
    """The play area's commands, buttons in the bot."""
    await bot.add_cog(PlayCommands())
    bot.add_dynamic_items(*views.ITEMS)
    bot.views.add_to_every_post(views.decision_items)  # the decisions of the player to move
    bot.views.add_forms(*views.FORMS)
