"""Fixtures for tests against the fake Discord: a started fake with one guild, a
channel and two members, which fails the test if the client broke any rule."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from tests.fakediscord import Channel, FakeDiscord, Guild, Member


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
    return World(fake, guild, channel, fake.add_member(guild, "alice"),
                 fake.add_member(guild, "bob"))
