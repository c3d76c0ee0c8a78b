"""The fake Discord itself, exercised by a minimal, unmodified discord.py client:
login, gateway, command sync, slash commands, autocomplete, buttons, uploads,
validation against the OpenAPI description, and injected faults."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands

from tests.fakediscord.client import point_discord_py_at
from tests.fakediscord.fake import RESPONSE_DEADLINE
from tests.timing import seconds

from .conftest import World

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x03\x08\x02\x00\x00"
    b"\x00\x00\x00\x00\x00"
)


class Again(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Again", custom_id="echo:again", style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="clicked", view=None)


class MiniBot(discord.Client):
    """A few lines of app commands and a button: the client the fake must satisfy."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.bad_request: discord.HTTPException | None = None
        self.gate = asyncio.Event()

        @self.tree.command(description="Say something back")
        async def echo(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(
                f"{interaction.user.mention}: {text}", view=Again()
            )

        @self.tree.command(description="Play a move")
        @app_commands.describe(text="the move")
        async def move(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(f"played {text}", ephemeral=True)

        @move.autocomplete("text")
        async def move_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            cells = [f"{c}{r}" for c in "abcdefg" for r in range(1, 8)]
            return [app_commands.Choice(name=c, value=c) for c in cells if c.startswith(current)][
                :25
            ]

        @self.tree.command(description="Draw the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(
                "the board", file=discord.File(io.BytesIO(PNG), "board.png")
            )

        @self.tree.command(description="Send too much")
        async def shout(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            try:
                await interaction.followup.send("x" * 2500)
            except discord.HTTPException as exc:
                self.bad_request = exc
                await interaction.followup.send("that was too long")

        @self.tree.command(description="Post in the channel")
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("posting", ephemeral=True)
            await interaction.channel.send("posted")  # type: ignore[union-attr]

        @self.tree.command(description="Answer when the test says so")
        async def late(interaction: discord.Interaction) -> None:
            await self.gate.wait()
            await interaction.response.send_message("sorry, late")

        @self.tree.command(description="Too many suggestions")
        async def many(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(text)

        @many.autocomplete("text")
        async def many_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f"choice {i}", value=str(i)) for i in range(26)]

    async def setup_hook(self) -> None:
        self.add_view(Again())
        await self.tree.sync()


@pytest.fixture
async def bot(world: World) -> AsyncIterator[MiniBot]:
    fake = world.fake
    with point_discord_py_at(fake):
        client = MiniBot()
        await client.login(fake.token)
        task = asyncio.create_task(client.connect())
        await fake.wait_until_ready()
        await client.wait_until_ready()
        yield client
        await client.close()
        await asyncio.wait_for(task, seconds(5))


async def test_login_sync_and_ready(world: World, bot: MiniBot) -> None:
    fake = world.fake
    cmds = await fake.wait_for_commands("echo", "move", "board")
    assert {c["name"] for c in cmds} == {"echo", "move", "board", "shout", "post", "late", "many"}
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    assert [g.id for g in bot.guilds] == [world.guild.id]
    assert bot.get_channel(world.channel.id) is not None
    assert fake.gateway_log == ["identify"]


async def test_slash_command_answer_and_button_click(world: World, bot: MiniBot) -> None:
    fake = world.fake
    await fake.wait_for_commands("echo")
    ix = await fake.run_command(world.alice, "echo", {"text": "hello"}, channel=world.channel)
    msg = await ix.reply()
    assert msg.content == f"{world.alice.mention}: hello"
    assert not msg.ephemeral
    assert ix.response_delay is not None and ix.response_delay < seconds(3)
    assert msg.button(label="Again")["custom_id"] == "echo:again"
    assert fake.posts(world.channel) == [msg]

    click = await fake.click(world.bob, msg, label="Again")
    updated = await click.reply()
    assert updated is msg and msg.content == "clicked" and msg.components == []


async def test_autocomplete_and_ephemeral_answer(world: World, bot: MiniBot) -> None:
    fake = world.fake
    await fake.wait_for_commands("move")
    choices = await fake.autocomplete(
        world.alice, "move", {"text": "c"}, "text", channel=world.channel
    )
    assert [c["value"] for c in choices] == [f"c{r}" for r in range(1, 8)]
    ix = await fake.run_command(world.alice, "move", {"text": "c3"}, channel=world.channel)
    answer = await ix.reply()
    assert answer.ephemeral and answer.content == "played c3"
    assert fake.posts(world.channel) == []


async def test_deferred_followup_uploads_a_file(world: World, bot: MiniBot) -> None:
    fake = world.fake
    await fake.wait_for_commands("board")
    ix = await fake.run_command(world.alice, "board", channel=world.channel)
    assert (await ix.response())["type"] == 5
    msg = await ix.reply()
    assert msg.content == "the board"
    att = msg.attachment(".png")
    assert att.data == PNG and att.filename == "board.png"
    multipart = [r for r in fake.requests if r.files]
    assert multipart and multipart[0].operation_id == "execute_webhook"


async def test_plain_channel_message(world: World, bot: MiniBot) -> None:
    fake = world.fake
    await fake.wait_for_commands("post")
    mark = fake.mark()
    await fake.run_command(world.bob, "post", channel=world.channel)
    msg = await fake.wait_for_message(world.channel, after=mark)
    assert msg.content == "posted" and msg.author is fake.bot_user


async def test_a_request_discord_would_reject_is_caught(world: World, bot: MiniBot) -> None:
    fake = world.fake
    await fake.wait_for_commands("shout")
    ix = await fake.run_command(world.alice, "shout", channel=world.channel)
    await ix.followup(0)
    assert isinstance(bot.bad_request, discord.HTTPException)
    assert bot.bad_request.status == 400 and bot.bad_request.code == 50035
    assert len(fake.violations) == 1, fake.violations
    assert fake.violations[0].startswith(
        "POST /webhooks/{webhook_id}/{webhook_token} (execute_webhook): content: "
    )
    assert fake.violations[0].endswith("content: 2500 characters, at most 2000")
    fake.violations.clear()  # this test wanted them


async def test_invalid_body_field_is_caught_by_the_spec(world: World, bot: MiniBot) -> None:
    fake = world.fake
    # flags must be an integer: a body Discord rejects, sent through discord.py's own HTTP.
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=world.channel.id
    )
    with point_discord_py_at(fake), pytest.raises(discord.HTTPException) as caught:
        await bot.http.request(route, json={"content": "hi", "flags": "loud"})
    assert caught.value.status == 400
    assert fake.violations == [
        "POST /channels/{channel_id}/messages (create_message): "
        "flags: 'loud' is not of type 'integer', 'null'"
    ]
    assert fake.posts(world.channel) == []
    fake.violations.clear()


async def test_429_and_500_are_retried(world: World, bot: MiniBot) -> None:
    fake = world.fake
    await fake.wait_for_commands("post")
    limited = fake.inject("POST /channels/{channel_id}/messages", 429, retry_after=0.05)
    broken = fake.inject("create_message", 500)
    mark = fake.mark()
    await fake.run_command(world.bob, "post", channel=world.channel)
    msg = await fake.wait_for_message(world.channel, after=mark, timeout=seconds(10))
    assert msg.content == "posted"
    assert (limited.hits, broken.hits) == (1, 1)
    statuses = [r.status for r in fake.requests if r.operation_id == "create_message"]
    assert statuses == [429, 500, 200]


async def test_a_fault_after_the_action_is_retried_and_the_nonce_keeps_one_message(
    world: World, bot: MiniBot
) -> None:
    """Discord posted the message but answered 500; discord.py sends the same request
    again, with the same nonce (and enforce_nonce): Discord returns the first message."""
    fake = world.fake
    await fake.wait_for_commands("post")
    late = fake.inject("create_message", 500, after=True)
    mark = fake.mark()
    await fake.run_command(world.bob, "post", channel=world.channel)
    await fake.wait_until(
        lambda: (
            [r.status for r in fake.requests if r.operation_id == "create_message"] == [500, 200]
        ),
        10,
        "the retry",
    )
    assert late.hits == 1
    assert [m.content for m in fake.posts(world.channel, after=mark)] == ["posted"]
    first, again = [r.body for r in fake.requests if r.operation_id == "create_message"]
    assert first["nonce"] == again["nonce"] and first["enforce_nonce"] is True


async def test_an_enforced_nonce_is_remembered_for_minutes(world: World, bot: MiniBot) -> None:
    fake = world.fake
    now = [1000.0]
    fake.clock = lambda: now[0]
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("one", nonce="item-1")
    again = await channel.send("one again", nonce="item-1")
    other = await channel.send("two", nonce="item-2")
    assert again.id == first.id and other.id != first.id
    now[0] += 10 * 60  # long after: the nonce is free again
    later = await channel.send("one, later", nonce="item-1")
    assert later.id != first.id
    assert [m.content for m in fake.posts(world.channel)] == ["one", "two", "one, later"]


async def test_a_stalled_request_waits_for_its_release(world: World, bot: MiniBot) -> None:
    fake = world.fake
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    held = fake.inject("create_message", 500, stall=True, after=True)
    sending = asyncio.ensure_future(channel.send("held", nonce="held-1"))
    await fake.wait_until(lambda: held.hits == 1, seconds(10), "the request to arrive")
    assert [m.content for m in fake.posts(world.channel)] == ["held"]  # carried out
    assert not sending.done()
    held.release()
    message = await asyncio.wait_for(sending, seconds(10))  # the retry finds the first message
    assert message.content == "held" and len(fake.posts(world.channel)) == 1


@pytest.mark.parametrize("invalidate", [False, True], ids=["resume", "reidentify"])
async def test_gateway_drop(world: World, bot: MiniBot, invalidate: bool) -> None:
    fake = world.fake
    await fake.wait_for_commands("echo")
    await fake.drop_gateway(invalidate=invalidate)
    # An interaction sent while the bot is away is delivered when it resumes.
    ix = (
        None
        if invalidate
        else await fake.run_command(
            world.alice, "echo", {"text": "while away"}, channel=world.channel
        )
    )
    await fake.wait_until_ready(timeout=seconds(15))
    expected = (
        ["identify", "drop", "invalid_session", "identify"]
        if invalidate
        else ["identify", "drop", "resume"]
    )
    assert fake.gateway_log == expected
    if ix is None:
        ix = await fake.run_command(world.alice, "echo", {"text": "back"}, channel=world.channel)
    msg = await ix.reply(timeout=seconds(10))
    assert msg.content.endswith("while away" if not invalidate else "back")


async def test_archived_thread_and_member_who_left(world: World, bot: MiniBot) -> None:
    fake = world.fake
    await fake.wait_for_commands("post")
    starter = await bot.get_channel(world.channel.id).send("a game")  # type: ignore[union-attr]
    thread = await starter.create_thread(name="alice vs bob")
    fake_thread = fake.channels[thread.id]
    assert fake_thread.parent is world.channel and not fake_thread.archived
    fake.archive_thread(fake_thread)
    with pytest.raises(ValueError, match="archived"):
        await fake.run_command(world.alice, "post", channel=fake_thread)
    await thread.send("still here")  # posting unarchives, as on Discord
    assert not fake_thread.archived
    fake.remove_member(world.bob)
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    with pytest.raises(discord.NotFound):
        await guild.fetch_member(world.bob.id)
    fake.delete_channel(fake_thread)
    with pytest.raises(discord.NotFound):
        await thread.send("gone")


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_an_answer_after_three_seconds_is_refused(world: World, bot: MiniBot) -> None:
    fake = world.fake
    await fake.wait_for_commands("late")
    fake.clock = clock = ManualClock()
    ix = await fake.run_command(world.alice, "late", channel=world.channel)
    await fake.wait_until(lambda: ix.sent_at is not None, seconds(5), "the interaction to go out")
    late = RESPONSE_DEADLINE + 0.2  # Discord's 3 s, on this machine (tests/timing.py)
    clock.now += late  # the bot "took" that long
    bot.gate.set()
    await fake.wait_until(lambda: fake.violations, seconds(5), "the late answer")
    assert fake.violations == [
        f"first answer to interaction 'late' came after {late:.2f}s "
        f"(Discord allows {RESPONSE_DEADLINE}s)"
    ]
    assert ix.callbacks == [] and fake.posts(world.channel) == []
    fake.violations.clear()


async def test_too_many_autocomplete_choices_are_refused(world: World, bot: MiniBot) -> None:
    fake = world.fake
    await fake.wait_for_commands("many")
    ix = fake._command_interaction(world.alice, "many", {"text": ""}, world.channel, focused="text")
    await fake.wait_until(lambda: fake.violations, seconds(5), "the autocomplete answer")
    assert fake.violations[0].endswith("data/choices: 26 items, at most 25")
    assert ix.callbacks == []
    fake.violations.clear()


def _row(n: int, prefix: str = "b") -> dict[str, object]:
    return {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": str(i), "custom_id": f"{prefix}{i}"} for i in range(n)
        ],
    }


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"content": "x" * 2001}, "content: 2001 characters, Discord allows 2000"),
        ({"components": [_row(6)]}, "components/0/components: 6 items, at most 5"),
        ({"components": [_row(2), _row(2)]}, "duplicate custom_id 'b0'"),
        ({"components": [_row(1, "x" * 101)]}, "custom_id: 102 characters, at most 100"),
        ({"components": [_row(1)] * 6}, "6 action rows, Discord allows 5"),
        ({}, "Cannot send an empty message"),
    ],
    ids=["content", "six-buttons", "duplicate-id", "long-custom-id", "six-rows", "empty"],
)
async def test_limits_beyond_the_spec_are_enforced(
    world: World, bot: MiniBot, body: dict[str, object], reason: str
) -> None:
    fake = world.fake
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=world.channel.id
    )
    with point_discord_py_at(fake), pytest.raises(discord.HTTPException) as caught:
        await bot.http.request(route, json=body)
    assert caught.value.status == 400
    assert any(reason in v for v in fake.violations), fake.violations
    assert fake.posts(world.channel) == []
    fake.violations.clear()
