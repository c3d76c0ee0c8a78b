"""Refusals end to end: whatever a member gets wrong is answered privately and changes
nothing: no new board post, and the right move still works afterwards."""

from __future__ import annotations

import pytest

from tests.fakediscord import Channel, FakeDiscord, Interaction, Member, Message
from tests.fakediscord.process import BotProcess
from tests.timing import seconds

from .conftest import World
from .driver import WAIT, Table, planned_moves, start_game

OPTIONS = {"size": 3}
SEED = 1


@pytest.fixture
async def table(world: World, botproc: BotProcess) -> Table:
    t = await start_game(world.fake, world.channel, world.alice, world.bob, "lifeline", OPTIONS)
    await t.play(planned_moves("lifeline", OPTIONS, SEED)[0])
    return t


async def refused(table: Table, member: Member, move: str) -> str:
    fake = table.fake
    mark = fake.mark()
    ix = await fake.run_command(member, "move", {"move": move}, channel=table.thread)
    answer = await ix.reply(WAIT)
    assert answer.ephemeral, answer.content
    assert answer.pinged == set()
    assert ix.response_delay is not None and ix.response_delay < seconds(3)
    assert fake.posts(table.thread, after=mark) == []
    assert table.thread.parent is not None and fake.posts(table.thread.parent, after=mark) == []
    return answer.content


async def test_a_non_player_cannot_move(table: Table, carol: Member) -> None:
    legal = table.state.legal_moves()[0]
    text = await refused(table, carol, legal)
    assert "not playing" in text


async def test_a_player_cannot_move_out_of_turn(table: Table) -> None:
    legal = table.state.legal_moves()[0]
    text = await refused(table, table.waiting, legal)
    assert "not your turn" in text
    await table.play(legal)  # the player to move still can


@pytest.mark.parametrize("kind", ["occupied", "garbage", "two words"])
async def test_an_illegal_or_garbled_move_is_refused(table: Table, kind: str) -> None:
    occupied = next(c for c in table.state.board.cells if table.state.stone_at(c) is not None)
    move = {"occupied": occupied, "garbage": "hello; DROP TABLE games", "two words": "c3 please"}[
        kind
    ]
    assert not table.state.is_legal(move)
    text = await refused(table, table.to_move, move)
    assert "can't be played" in text
    await table.play(table.state.legal_moves()[-1])  # nothing changed: a legal move works


async def test_a_button_pressed_out_of_turn_is_refused(
    world: World, botproc: BotProcess, carol: Member
) -> None:
    """Asli's komi pie: the komi button of the opening post belongs to the first player."""
    fake = world.fake
    t = await start_game(fake, world.channel, world.alice, world.bob, "asli", {"size": 5})
    opening = t.posts[-1]
    komi = next(d for d in t.state.decisions() if d.number)  # the game asks for a number
    button = next(b for b in opening.buttons if b["label"] == komi.label)
    for member in (t.waiting, carol):
        mark = fake.mark()
        click = await fake.click(member, opening, custom_id=button["custom_id"])
        answer = await click.reply(WAIT)
        assert answer.ephemeral and answer is not opening, answer.content
        assert fake.posts(t.thread, after=mark) == []
    assert opening.button(custom_id=button["custom_id"])  # still there for the right player


async def private_refusal(fake: FakeDiscord, ix: Interaction, channel: Channel, mark: int) -> str:
    """The refusal of ``ix``: the one message left of its answers, private, and nothing
    public left in ``channel`` (a public "thinking" placeholder is deleted)."""

    def answered() -> list[Message] | None:
        shown = {m.id: m for m in ix.messages if not m.deleted and not m.loading}
        return list(shown.values()) or None

    shown = await fake.wait_until(answered, WAIT, f"the refusal of /{ix.name}")
    assert len(shown) == 1 and shown[0].ephemeral, [(m.content, m.ephemeral) for m in shown]
    await fake.wait_until(
        lambda: all(m.deleted or not m.loading for m in ix.messages), WAIT, "no placeholder left"
    )
    assert fake.posts(channel, after=mark) == [], "a refusal went public"
    return shown[0].content


@pytest.mark.parametrize("command", ["board", "review", "replay", "export"])
async def test_a_public_command_without_a_game_is_refused_privately(
    world: World, botproc: BotProcess, command: str
) -> None:
    fake = world.fake
    mark = fake.mark()
    ix = await fake.run_command(world.alice, command, {"public": True}, channel=world.channel)
    text = await private_refusal(fake, ix, world.channel, mark)
    assert "game" in text, text
