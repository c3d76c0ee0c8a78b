"""Posting to a game's thread when Discord gets in the way: archived, deleted, forbidden.

The poster is driven through the services, as in the bot, with stand-ins for
discord.py's channel and thread objects (same method names and errors)."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import rules
from bot.poster import DiscordPoster
from tests.bot.conftest import ANA, BO, CHANNEL, GUILD, Env
from tests.bot.fakes import PNG_SIGNATURE, FakeClock
from tests.bot.support import area_views

_ids = itertools.count(10_000)


def http_error(kind: type[discord.HTTPException], status: int) -> discord.HTTPException:
    return kind(SimpleNamespace(status=status, reason="test"), "refused by the fake")


@dataclass
class Message:
    channel: Any
    kwargs: dict[str, Any]
    id: int = field(default_factory=lambda: next(_ids))

    async def create_thread(self, *, name: str, auto_archive_duration: int) -> Thread:
        return self.channel.client.add_thread(name, starter=self.id)

    async def edit(self, **changes: Any) -> None:
        self.channel.edits.append((self.id, changes))


@dataclass
class Thread:
    client: Any
    name: str
    starter: int | None
    id: int = field(default_factory=lambda: next(_ids))
    archived: bool = False
    locked: bool = False
    failure: discord.HTTPException | None = None
    messages: list[Message] = field(default_factory=list)
    edits: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def get_partial_message(self, message_id: int) -> Message:
        return Message(self, {}, id=message_id)

    async def send(self, **kwargs: Any) -> Message:
        if self.failure is not None:
            raise self.failure
        if self.archived and self.locked:
            raise http_error(discord.Forbidden, 403)
        self.archived = False  # Discord unarchives a thread that gets a message
        message = Message(self, kwargs)
        self.messages.append(message)
        return message

    async def edit(self, *, archived: bool) -> None:
        self.archived = archived


@dataclass
class Channel:
    client: Any
    id: int
    threads_allowed: bool = True
    messages: list[Message] = field(default_factory=list)

    async def send(self, **kwargs: Any) -> Message:
        message = Message(self, kwargs)
        self.messages.append(message)
        return message

    def get_partial_message(self, message_id: int) -> Message:
        return Message(self, {}, id=message_id)

    async def create_thread(self, *, name: str, type: Any, auto_archive_duration: int) -> Thread:
        return self.client.add_thread(name, starter=None)

    def __getattribute__(self, name: str) -> Any:
        if name == "create_thread" and not object.__getattribute__(self, "threads_allowed"):
            raise AttributeError(name)
        return object.__getattribute__(self, name)


class Client:
    def __init__(self) -> None:
        self.channels: dict[int, Any] = {}
        self.channel = self.channels[CHANNEL] = Channel(self, CHANNEL)

    def add_thread(self, name: str, starter: int | None) -> Thread:
        if not self.channel.threads_allowed:
            raise http_error(discord.Forbidden, 403)
        thread = Thread(self, name, starter)
        self.channels[thread.id] = thread
        return thread

    def get_channel(self, channel_id: int) -> Any:
        return self.channels.get(channel_id)

    async def fetch_channel(self, channel_id: int) -> Any:
        raise http_error(discord.NotFound, 404)


@pytest.fixture
async def setup(tmp_path: Path):
    client = Client()
    env = await Env.start(
        tmp_path / "bot.sqlite3",
        DiscordPoster(client, (views := await area_views()).post_view, views.challenge_view),
        FakeClock(),
        rng=random.Random(3),
    )
    yield client, env
    await env.db.close()


async def start(service: Env, game: str = "lifeline", **options: Any):
    challenge = await service.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ANA, game=game, opponent=BO, options=options
    )
    await service.challenges.set_message(challenge.id, 4242)
    return await service.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)


async def play_one(service: Env, game_id: int):
    row = await service.games.get_game(GUILD, game_id)
    state = await service.games.state_of(row)
    member = ANA if row.player_ids[state.to_move] == ANA.id else BO
    return await service.moves.play_move(
        guild_id=GUILD, game_id=game_id, member=member, text=state.legal_moves()[-1]
    )


async def test_the_thread_grows_from_the_challenge_and_gets_the_board(setup) -> None:
    client, service = setup
    update = await start(service, "lifeline", size=4, opening="komi-pie")
    thread = client.channels[update.game.thread_id]
    assert (thread.name, thread.starter) == (f"Lifeline #{update.game.id} · Ana vs Bo", 4242)
    [message] = thread.messages
    assert message.kwargs["files"][0].fp.read().startswith(PNG_SIGNATURE)
    assert [user.id for user in message.kwargs["allowed_mentions"].users] == [ANA.id]
    assert message.kwargs["allowed_mentions"].everyone is False
    # The komi is asked for with a button that opens a number field.
    [button] = message.kwargs["view"].children
    assert button.item.label == "Choose the komi"
    assert button.custom_id == f"bb:number:{update.game.id}:0:0"  # the first decision at ply 0
    assert update.game.last_message_id == message.id


async def test_the_colour_choice_gets_buttons(setup) -> None:
    client, service = setup
    update = await start(service, "sliglube", size=5)
    await play_one(service, update.game.id)
    thread = client.channels[update.game.thread_id]
    asking = thread.messages[-1]
    labels = [button.item.label for button in asking.kwargs["view"].children]
    assert labels == ["Play black", "Play white"]
    # Choosing with /move instead of a button: the buttons are taken off that post.
    await play_one(service, update.game.id)
    assert thread.edits == [(asking.id, {"view": None})]
    await play_one(service, update.game.id)
    assert len(thread.edits) == 1


async def test_an_archived_locked_thread_is_unarchived(setup) -> None:
    client, service = setup
    update = await start(service, "astralis", size=7)
    thread = client.channels[update.game.thread_id]
    thread.archived = thread.locked = True
    await play_one(service, update.game.id)
    assert not thread.archived
    assert len(thread.messages) == 2


async def test_a_deleted_thread_is_replaced_and_the_game_moves_there(setup) -> None:
    client, service = setup
    update = await start(service, "astralis", size=7)
    old = client.channels.pop(update.game.thread_id)
    moved = await play_one(service, update.game.id)
    new_id = moved.game.thread_id
    assert new_id != old.id
    notice = client.channel.messages[-1].kwargs["content"]
    assert notice == f"**Astralis #{update.game.id}** continues here: its thread was deleted."
    assert "played" in client.channels[new_id].messages[-1].kwargs["content"]
    await play_one(service, update.game.id)  # and the next move goes to the new thread too
    assert len(client.channels[new_id].messages) == 2


async def test_no_thread_at_all_falls_back_to_the_channel_and_says_so(setup) -> None:
    client, service = setup
    update = await start(service, "astralis", size=7)
    thread = client.channels[update.game.thread_id]
    thread.failure = http_error(discord.Forbidden, 403)
    client.channel.threads_allowed = False
    moved = await play_one(service, update.game.id)
    content = client.channel.messages[-1].kwargs["content"]
    assert content.startswith(
        f"*(Astralis #{update.game.id}: I can no longer post in its thread, so I'm posting here.)*"
    )
    assert moved.posted.message_id == client.channel.messages[-1].id
    assert moved.game.thread_id == thread.id  # permissions may come back: keep trying it


async def test_a_challenge_in_a_channel_without_threads_plays_in_the_channel(setup) -> None:
    client, service = setup
    client.channel.threads_allowed = False
    update = await start(service, next(iter(rules.GAMES)))
    assert update.game.thread_id is None
    assert client.channel.messages[-1].kwargs["files"][0].fp.read().startswith(PNG_SIGNATURE)
