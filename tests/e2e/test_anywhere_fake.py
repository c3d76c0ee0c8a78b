"""The fake Discord's contexts beyond a server that installed the bot: the bot's DMs,
group DMs, servers without the bot (a member's own install), the 15-minute token,
the follow-up limit and a server's external-apps switch; exercised by a minimal,
unmodified discord.py client."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands

from tests.fakediscord.client import point_discord_py_at
from tests.fakediscord.fake import FOLLOWUP_LIMIT, TOKEN_LIFETIME
from tests.timing import seconds

from .conftest import World

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
BOTH = app_commands.AppInstallationType(guild=True, user=True)


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class AnywhereBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.errors: list[int] = []
        self.gate = asyncio.Event()

        @self.tree.command(description="Where am I")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                f"context {interaction.context.guild}/{interaction.context.dm_channel}"
                f"/{interaction.context.private_channel}"
                f" user-installed {interaction.is_user_integration()}"
                f" guild-installed {interaction.is_guild_integration()}"
            )

        @self.tree.command(description="Many follow-ups")
        async def chatter(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            for n in range(FOLLOWUP_LIMIT + 1):
                try:
                    await interaction.followup.send(f"more {n}")
                except discord.HTTPException as error:
                    self.errors.append(error.code)

        @self.tree.command(description="Post in the channel")
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("trying", ephemeral=True)
            try:
                await self.http.send_message(interaction.channel_id or 0, params=_text("hi"))
            except discord.HTTPException as error:
                self.errors.append(error.code)

        @self.tree.command(description="Answer much later")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await self.gate.wait()
            try:
                await interaction.followup.send("at last")
            except discord.HTTPException as error:
                self.errors.append(error.code)

        for command in self.tree.get_commands():  # every command so far, anywhere
            command.allowed_contexts, command.allowed_installs = EVERYWHERE, BOTH

        @self.tree.command(description="Server only")
        @app_commands.guild_only()
        @app_commands.guild_install()
        async def moderate(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("moderated")

    async def setup_hook(self) -> None:
        await self.tree.sync()


def _text(content: str) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content=content)


@pytest.fixture
async def bot(world: World) -> AsyncIterator[AnywhereBot]:
    fake = world.fake
    with point_discord_py_at(fake):
        client = AnywhereBot()
        await client.login(fake.token)
        task = asyncio.create_task(client.connect())
        await fake.wait_until_ready()
        await client.wait_until_ready()
        await fake.wait_for_commands("where", "moderate")
        yield client
        await client.close()
        await asyncio.wait_for(task, seconds(5))


async def test_contexts_and_installs_reach_the_bot(world: World, bot: AnywhereBot) -> None:
    fake = world.fake
    dana = fake.add_user("dana")  # installed the app, in no server of the bot
    ix = await fake.run_command(dana, "where", channel=fake.dm_channel(dana))
    assert ix.context == 1 and ix.payload["authorizing_integration_owners"] == {"1": str(dana.id)}
    assert "guild_id" not in ix.payload and "user" in ix.payload
    answer = await ix.reply()
    assert answer.content == "context False/True/False user-installed True guild-installed False"

    group = fake.group_dm(dana, world.alice.user)
    ix = await fake.run_command(dana, "where", channel=group)
    assert ix.context == 2
    assert (await ix.reply()).content.startswith("context False/False/True")

    elsewhere = fake.add_guild("No Bot Here", with_bot=False)
    room = fake.add_text_channel(elsewhere, "general")
    fake.join(elsewhere, dana)
    ix = await fake.run_command(dana, "where", channel=room)
    assert ix.context == 0 and ix.payload["authorizing_integration_owners"] == {"1": str(dana.id)}
    reply = await ix.reply()
    assert not reply.ephemeral and reply.channel is room
    assert elsewhere.id not in [g.id for g in bot.guilds]  # the bot never heard of it

    # Where the user's install is the only way in, a server's command is not offered;
    # in the server that installed the bot, it is (and the old payload is unchanged).
    with pytest.raises(ValueError, match="not offered"):
        await fake.run_command(dana, "moderate", channel=room)
    with pytest.raises(ValueError, match="not offered"):
        await fake.run_command(dana, "moderate", channel=fake.dm_channel(dana))
    ix = await fake.run_command(world.alice, "moderate", channel=world.channel)
    assert ix.payload["authorizing_integration_owners"] == {"0": str(world.guild.id)}
    assert (await ix.reply()).content == "moderated"
    # A member who never installed the app can't use it where the bot isn't.
    erin = fake.add_member(elsewhere, "erin")
    with pytest.raises(ValueError):
        await fake.run_command(erin, "where", channel=room)


async def test_a_server_without_the_bot_refuses_its_posts(world: World, bot: AnywhereBot) -> None:
    fake = world.fake
    elsewhere = fake.add_guild("No Bot Here", with_bot=False)
    room = fake.add_text_channel(elsewhere, "general")
    dana = fake.join(elsewhere, fake.add_user("dana"))
    ix = await fake.run_command(dana, "post", channel=room)
    await fake.wait_until(lambda: bot.errors, seconds(10), "the refused post")
    assert bot.errors == [50001] and fake.posts(room) == []
    assert (await ix.reply()).content == "trying"
    bot.errors.clear()
    group = fake.group_dm(dana.user, world.alice.user)
    await fake.run_command(dana, "post", channel=group)
    await fake.wait_until(lambda: bot.errors, seconds(10), "the refused post")
    assert bot.errors == [50001] and group.messages[-1].ephemeral


async def test_follow_ups_are_limited_where_only_a_user_installed_it(
    world: World, bot: AnywhereBot
) -> None:
    fake = world.fake
    elsewhere = fake.add_guild("No Bot Here", with_bot=False)
    room = fake.add_text_channel(elsewhere, "general")
    dana = fake.join(elsewhere, fake.add_user("dana"))
    ix = await fake.run_command(dana, "chatter", channel=room)
    await fake.wait_until(lambda: bot.errors, seconds(10), "the refused follow-up")
    assert bot.errors == [40094] and len(ix.followups) == FOLLOWUP_LIMIT
    bot.errors.clear()
    ix = await fake.run_command(world.alice, "chatter", channel=world.channel)  # installed
    await fake.wait_until(
        lambda: len(ix.followups) == FOLLOWUP_LIMIT + 1, seconds(10), "every follow-up"
    )
    assert bot.errors == []


async def test_external_apps_off_makes_answers_private(world: World, bot: AnywhereBot) -> None:
    fake = world.fake
    strict = fake.add_guild("Strict", with_bot=False)
    strict.external_apps = False
    room = fake.add_text_channel(strict, "general")
    dana = fake.join(strict, fake.add_user("dana"))
    ix = await fake.run_command(dana, "chatter", channel=room)
    await fake.wait_until(lambda: len(ix.followups) == FOLLOWUP_LIMIT, seconds(10), "follow-ups")
    assert (await ix.reply()).ephemeral and all(m.ephemeral for m in ix.followups)
    assert fake.posts(room) == []


async def test_the_token_dies_after_fifteen_minutes(world: World, bot: AnywhereBot) -> None:
    fake = world.fake
    fake.clock = clock = ManualClock()
    ix = await fake.run_command(world.alice, "later", channel=world.channel)
    await ix.response()
    clock.now += TOKEN_LIFETIME + 1
    bot.gate.set()
    await fake.wait_until(lambda: bot.errors, seconds(10), "the refused follow-up")
    assert bot.errors == [50027] and ix.followups == []


async def test_the_bot_may_dm_a_user_who_installed_it(world: World, bot: AnywhereBot) -> None:
    fake = world.fake
    dana, fred = fake.add_user("dana"), fake.add_user("fred", installed=False)
    sent = await (await bot.create_dm(discord.Object(dana.id))).send("hello dana")
    assert fake.dm_channel(dana).messages[-1].id == sent.id
    with pytest.raises(discord.Forbidden) as refused:
        await (await bot.create_dm(discord.Object(fred.id))).send("hello fred")
    assert refused.value.code == 50007
