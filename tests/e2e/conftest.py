"""Fixtures for tests against the fake Discord: a started fake with one guild, a
channel and two members, which fails the test if the client broke any rule."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fakediscord import Channel, FakeDiscord, Guild, Member
from tests.fakediscord.process import BotProcess


@dataclass
class World:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    alice: Member
    bob: Member


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A running fake; at teardown, no request may have broken Discord's rules."""
    async with FakeDiscord() as f:
        yield f
        assert not f.violations, "requests Discord would reject:\n" + "\n".join(f.violations)


@pytest.fixture
def world(fake: FakeDiscord) -> World:
    guild = fake.add_guild("Board Games")
    channel = fake.add_text_channel(guild, "games")
    return World(
        fake, guild, channel, fake.add_member(guild, "alice"), fake.add_member(guild, "bob")
    )


@pytest.fixture
async def botproc(world: World, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The real bot (``python -m bot``) connected to the fake, commands synced."""
    proc = BotProcess(world.fake, tmp_path)
    try:
        await proc.start("challenge", "move", "resign")
        yield proc
    finally:
        await proc.stop()
        print(proc.log())  # shown by pytest when the test fails


@pytest.fixture
def carol(world: World) -> Member:
    """A member who plays in none of the games."""
    return world.fake.add_member(world.guild, "carol")
