"""Where things go when no server the bot is in holds a game (issue 29): the scope an
interaction means, a challenge sent to the opponent's DMs, and a DM game's boards in
both players' DMs, their buttons kept in step, nothing sent twice on a repeat."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import places, texts
from bot.challenges.service import Elsewhere
from bot.i18n import _, speaking
from bot.i18n.languages import Languages
from bot.model import UserError
from bot.poster import DiscordPoster
from bot.storage import queries
from bot.storage.rows import ChallengeRow, GameRow
from bot.ui.context import answers_only, guild_of
from tests.bot.conftest import ANA, BO, Env
from tests.bot.correspondence.table import FakeMessenger
from tests.bot.fakes import PNG_SIGNATURE, FakeClock
from tests.bot.support import area_views

_ids = itertools.count(50_000)
#: The new columns and queries, the same on either database.
pytestmark = pytest.mark.both_backends


def interaction(guild_id: int | None, *, guild_installed: bool, dm: bool = False) -> Any:
    return SimpleNamespace(
        guild_id=guild_id,
        is_guild_integration=lambda: guild_installed,
        context=SimpleNamespace(dm_channel=dm),
    )


def test_the_scope_of_an_interaction(backend: str) -> None:
    in_server = interaction(7, guild_installed=True)
    assert guild_of(in_server) == 7 and not answers_only(in_server)
    in_bot_dm = interaction(None, guild_installed=False, dm=True)
    assert guild_of(in_bot_dm) == places.DMS and not answers_only(in_bot_dm)
    botless = interaction(8, guild_installed=False)  # only the member installed the app
    assert guild_of(botless) == places.DMS and answers_only(botless)
    group_dm = interaction(None, guild_installed=False)
    assert guild_of(group_dm) == places.DMS and answers_only(group_dm)


@dataclass
class Sent:
    channel: DM
    kwargs: dict[str, Any]
    id: int = field(default_factory=lambda: next(_ids))

    async def edit(self, **changes: Any) -> None:
        self.channel.edits.append((self.id, changes))


@dataclass
class DM:
    user_id: int
    refuses: bool = False
    id: int = field(default_factory=lambda: next(_ids))
    messages: list[Sent] = field(default_factory=list)
    edits: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    nonces: dict[str, Sent] = field(default_factory=dict)

    async def send(self, **kwargs: Any) -> Sent:
        if self.refuses:
            raise discord.Forbidden(SimpleNamespace(status=403, reason="x"), "closed DMs")
        nonce = kwargs.get("nonce")
        if nonce is not None and nonce in self.nonces:  # Discord's enforced nonce
            return self.nonces[nonce]
        message = Sent(self, kwargs)
        self.messages.append(message)
        if nonce is not None:
            self.nonces[nonce] = message
        return message

    def get_partial_message(self, message_id: int) -> Sent:
        return Sent(self, {}, id=message_id)


class Client:
    """discord.py's client as the poster uses it for DMs."""

    def __init__(self) -> None:
        self.dms: dict[int, DM] = {}
        self.user = SimpleNamespace(id=999)

    async def create_dm(self, user: Any) -> DM:
        return self.dms.setdefault(user.id, DM(user.id))

    def get_channel(self, channel_id: int) -> Any:
        return next((dm for dm in self.dms.values() if dm.id == channel_id), None)

    async def fetch_channel(self, channel_id: int) -> Any:
        raise discord.NotFound(SimpleNamespace(status=404, reason="x"), "no channel")


@pytest.fixture
async def setup(database_url: Path | str):
    client = Client()
    views = await area_views()
    env = await Env.start(
        database_url,
        DiscordPoster(client, views.post_view, views.challenge_view),
        FakeClock(),
        rng=random.Random(3),
    )
    yield client, env
    await env.db.close()


async def dm_challenge(env: Env, game: str = "lifeline", **options: Any) -> ChallengeRow:
    """Ana challenges Bo to a game in the DMs."""
    return await env.challenges.create(
        guild_id=places.DMS,
        channel_id=1,
        challenger=ANA,
        opponent=BO,
        game=game,
        options=options or None,
        where=Elsewhere("dms"),
    )


async def dm_game(env: Env, **options: Any) -> GameRow:
    """Ana challenges Bo to a game of Lifeline in the DMs, and Bo accepts."""
    made = await dm_challenge(env, **options)
    update = await env.challenges.accept(guild_id=places.DMS, challenge_id=made.id, member=BO)
    return update.game


async def test_a_game_of_the_dms_is_shown_in_both_players_dms(setup) -> None:
    client, env = setup
    made = await dm_challenge(env, "sliglube", size=5)
    [card] = client.dms[BO.id].messages  # the card went to Bo's DMs, with its buttons
    assert made.message_id == card.id and made.place == "dms"
    assert [b.item.label for b in card.kwargs["view"].children] == ["Accept", "Decline", "Cancel"]

    update = await env.challenges.accept(guild_id=places.DMS, challenge_id=made.id, member=BO)
    game = update.game
    assert game.place == "dms" and game.guild_id == places.DMS and game.thread_id is None
    ana_dm, bo_dm = client.dms[ANA.id], client.dms[BO.id]
    [opening] = ana_dm.messages
    assert opening.kwargs["files"][0].fp.read().startswith(PNG_SIGNATURE)
    assert bo_dm.messages[-1].kwargs["content"] == opening.kwargs["content"]
    assert bo_dm.edits[-1][0] == card.id  # the card says it was accepted

    # The colour choice: buttons in both DMs; after the choice, both lose them.
    state = await env.games.state_of(game)
    move = state.legal_moves()[0]
    await env.moves.play_move(guild_id=places.DMS, game_id=game.id, member=ANA, text=move)
    asking = [ana_dm.messages[-1], bo_dm.messages[-1]]
    assert all(m.kwargs.get("view") is not None for m in asking)
    recorded = await env.db.read(queries.button_posts_of_game(game.id))
    assert {m for _, m in recorded} == {m.id for m in asking}
    state = await env.games.state_of(await env.games.get_game(places.DMS, game.id))
    seat = state.to_move
    chooser = ANA if game.player_ids[seat] == ANA.id else BO
    await env.moves.play_move(
        guild_id=places.DMS, game_id=game.id, member=chooser, text=state.legal_moves()[0]
    )
    assert {m.id for m in asking} <= {mid for dm in (ana_dm, bo_dm) for mid, _ in dm.edits}
    assert len(ana_dm.messages) == len(bo_dm.messages) - 1 == 3  # a board each, no doubles

    # Games of the DMs are not found from a server, nor a server's from the DMs.
    with pytest.raises(UserError):
        await env.games.get_game(111, game.id)


async def test_a_challenge_to_someone_the_bot_cant_dm_is_refused(setup) -> None:
    client, env = setup
    client.dms[BO.id] = DM(BO.id, refuses=True)
    with pytest.raises(UserError, match="can't send Bo a direct message"):
        await dm_challenge(env)
    async with env.db.reading() as conn:
        assert await queries.pending_challenges_of(conn, places.DMS, ANA.id) == []


async def test_a_loss_on_time_reaches_both_dms(setup) -> None:
    client, env = setup
    game = await dm_game(env, size=3)  # the default clock: 3 days a move
    env.clock.advance(days=3, seconds=2)
    await env.clocks.run_due()
    row = await env.games.get_game(places.DMS, game.id)
    assert not row.is_active
    for user in (ANA, BO):
        final = client.dms[user.id].messages[-1].kwargs["content"]
        assert "Game over" in final and "time" in final, final
    # A rematch of a DM game: its card goes to the opponent's DMs too.
    before = len(client.dms[ANA.id].messages)
    again = await env.challenges.rematch(guild_id=places.DMS, game_id=row.id, member=BO)
    assert again.place == "dms" and again.guild_id == places.DMS
    card = client.dms[ANA.id].messages[before]
    assert again.message_id == card.id and "Accept" in [
        b.item.label for b in card.kwargs["view"].children
    ]


async def test_review_suggestions_in_dms_are_the_members_own(setup) -> None:
    _, env = setup
    game = await dm_game(env)
    mine = await env.autocomplete.server_game_suggestions(
        guild_id=places.DMS, typed="", member_id=ANA.id
    )
    assert [choice.value for choice in mine] == [str(game.id)]
    assert (
        await env.autocomplete.server_game_suggestions(guild_id=places.DMS, typed="", member_id=3)
        == []
    )


async def test_each_player_reads_a_game_of_the_dms_in_their_own_language(setup) -> None:
    """A German and a Japanese member's game of the DMs: each board and the final post
    arrive in each DM in its reader's language (issue 30), the buttons too."""
    client, env = setup
    languages = env.services.get(Languages)
    await languages.member_seen(ANA.id, "de")
    await languages.member_seen(BO.id, "ja")
    game = await dm_game(env, size=3)
    ana_dm, bo_dm = client.dms[ANA.id], client.dms[BO.id]
    state = await env.games.state_of(game)
    mover = ANA if game.player_ids[state.to_move] == ANA.id else BO
    await env.moves.play_move(
        guild_id=places.DMS, game_id=game.id, member=mover, text=state.legal_moves()[0]
    )
    german, japanese = ana_dm.messages[-1].kwargs, bo_dm.messages[-1].kwargs
    assert "du bist am Zug" in german["content"], german["content"]
    assert "あなたの手番です" in japanese["content"], japanese["content"]
    assert "Zug" not in japanese["content"]  # nothing of the German text, deadline included
    assert german["files"] and japanese["files"]  # the board in both

    # Bo resigns: the one final post, in both DMs
    await env.moves.resign(guild_id=places.DMS, game_id=game.id, member=BO)
    german, japanese = ana_dm.messages[-1].kwargs, bo_dm.messages[-1].kwargs
    assert "Gut gespielt" in german["content"], german["content"]
    assert "お見事でした" in japanese["content"], japanese["content"]
    assert "Gut gespielt" not in japanese["content"]
    with speaking("de"):
        assert _("Rematch") in [b.item.label for b in german["view"].children]
    with speaking("ja"):
        assert _("Rematch") in [b.item.label for b in japanese["view"].children]


async def test_a_reminder_of_a_game_of_the_dms_is_the_members_own(database_url) -> None:
    """A game of the DMs has no thread: a reminder is a DM to its member, in their
    language, whatever their notice preference."""
    messenger = FakeMessenger()
    client = Client()
    views = await area_views()
    env = await Env.start(
        database_url,
        DiscordPoster(client, views.post_view, views.challenge_view),
        FakeClock(),
        messenger=messenger,
    )
    try:
        await env.services.get(Languages).member_seen(BO.id, "ja")
        await env.notifier.set_preference(BO.id, "thread")
        game = await dm_game(env)
        await env.notifier.remind(game, game.player_seat(BO.id), env.clock())
        [reminder] = messenger.to(BO.id)
        assert reminder.startswith("リマインダー：") and f"**{texts.label(game)}**" in reminder
    finally:
        await env.db.close()
