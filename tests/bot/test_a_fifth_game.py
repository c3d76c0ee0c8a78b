"""A fifth game needs its rules module (declaring its painter and its guide), those
plug-ins and a registry line, and no edit in bot/: a throwaway 3×3 tic-tac-toe, written
in tests/tictactoe.py, is registered, challenged, played through the services to its
end, drawn (every board, the replay) and exported, and its one-page /rules guide is
shown."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image

import render
import render.games
import rules
from bot.config import Settings
from bot.core.members import MemberSettings
from bot.learning.commands import LearningCommands
from bot.model import Member
from bot.pictures import render_board
from bot.review import records
from bot.services import Services
from rules import Game, Termination
from rules.record import from_json, parse_record, replay_record
from rules.testing import registry_restored
from tests.bot.conftest import ANA, BO, CHANNEL, GUILD, Env
from tests.bot.interactions import invoke
from tests.bot.learning.support import Reader
from tests.bot.practice.test_service import Harness
from tests.tictactoe import TicTacToe

#: A draw: no line of three for either.
DRAW = ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"]


@pytest.fixture
def tictactoe() -> Iterator[Game]:
    """The game registered for this test only: its rules, and with them the plug-ins
    they declare (its painter, its guide)."""
    with registry_restored():
        yield rules.register(TicTacToe())
    render.games.painter_colors.cache_clear()


@pytest.fixture
async def drawn_env(env: Env, tictactoe: Game) -> Env:
    """The services with real pictures, and the end of a game as in the bot."""
    real = Env.compose(env.path, env.db, env.poster, env.clock, renderer=render_board)
    real.endings.finale = real.epilogue
    return real


def picture(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


async def test_a_fifth_game_is_played_drawn_and_exported_with_no_edit_in_the_bot(
    drawn_env: Env, tmp_path: Path
) -> None:
    env = drawn_env
    challenge = await env.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ANA, game="tictactoe", opponent=BO
    )
    assert challenge.options == {}
    started = await env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    game_id = started.game.id
    assert started.game.player_ids == (ANA.id, BO.id)
    thread = started.game.thread_id
    offered = await env.autocomplete.move_suggestions(
        guild_id=GUILD, channel_id=thread, member_id=ANA.id, typed=""
    )
    assert [s.value for s in offered] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]

    for ply, move in enumerate(DRAW):
        player = (ANA, BO)[ply % 2]
        update = await env.moves.play_move(
            guild_id=GUILD,
            game_id=game_id,
            text=move.upper(),
            member=Member(player.id, player.name),
        )
        assert update.move == move
    row = await env.games.get_game(GUILD, game_id)
    assert (row.status, row.winner_seat, row.end_reason, row.result) == (
        "finished",
        None,
        Termination.GOAL,
        "Draw: the board is full",
    )

    posts = env.poster.posts_for(game_id)
    boards = [post for post in posts if post.filename.endswith(".png")]
    assert len(boards) == len(DRAW) + 1  # the opening board and one per move
    final = picture(boards[-1].picture)
    assert final.format == "PNG" and final.width > 100
    rgb = final.convert("RGB")

    def colour_at(cell: str) -> tuple[int, int, int]:
        return rgb.getpixel(tuple(round(v) for v in render.cell_center(update.state, cell)))

    red, _, blue = colour_at("a1")  # an x: the painter's red
    assert red > 150 > blue
    red, _, blue = colour_at("b2")  # an o: its blue
    assert blue > 150 > red
    assert "Draw: the board is full" in boards[-1].content
    summary = boards[-1]  # the end of the game is one post
    replay, _ = summary.attachments
    assert picture(replay.data).n_frames == len(DRAW) + 1
    assert "**Game over.** Draw: the board is full.\n" in summary.content  # said once
    assert "ratings are unchanged" not in summary.content  # a rated game that counts
    assert "Ratings: Ana 1500 → 1500 (+0), Bo 1500 → 1500 (+0)." in summary.content

    stored = await env.records.load(row)
    name, data = records.export(stored, "text", generated=env.clock())
    text = data.decode()
    assert name == f"tictactoe-{game_id}.txt"
    assert '[Game "Tic-tac-toe"]' in text and '[Termination "goal"]' in text
    assert '[Result "Draw: the board is full"]' in text and '[Outcome "1/2-1/2"]' in text
    assert "  ".join(f"{n}. {move}" for n, move in enumerate(DRAW, 1)) in text
    name, data = records.export(stored, "json", generated=env.clock())
    exported = json.loads(data)
    assert name == f"tictactoe-{game_id}.json"
    assert exported["header"]["game"]["name"] == "Tic-tac-toe"
    assert (exported["header"]["termination"], exported["header"]["result-text"]) == (
        "goal",
        "Draw: the board is full",
    )
    assert [move for turn in exported["moves"] for move in turn] == DRAW


async def test_its_record_reads_back(drawn_env: Env) -> None:
    env = drawn_env
    challenge = await env.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ANA, game="tictactoe", opponent=BO
    )
    update = await env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    for ply, move in enumerate(DRAW):
        player = (ANA, BO)[ply % 2]
        update = await env.moves.play_move(
            guild_id=GUILD, game_id=update.game.id, text=move, member=player
        )
    stored = await env.records.load(update.game)
    for fmt in ("text", "json"):
        _, data = records.export(stored, fmt, generated=env.clock())
        record = parse_record(data.decode()) if fmt == "text" else from_json(json.loads(data))
        assert (record.game, list(record.moves)) == ("tictactoe", DRAW)
        assert (record.termination, record.winner, record.result) == (
            Termination.GOAL,
            None,
            "Draw: the board is full",
        )
        assert replay_record(record).outcome == update.state.outcome


class DarkThemes:
    async def theme(self, member_id: int, *, private: bool = True) -> str:
        return "dark"


async def test_its_rules_are_the_one_page_guide_it_declares(tictactoe: Game) -> None:
    services = Services(Settings())
    services.add(DarkThemes(), kind=MemberSettings)
    reader = Reader(SimpleNamespace(services=services), ANA)
    await invoke(LearningCommands.rules, LearningCommands(), reader, "tictactoe", 1)
    answer = reader.answer
    embed = answer["embed"]
    assert answer["ephemeral"] is True
    assert embed.title == "Tic-tac-toe: Three in a row"
    assert "Three of your marks in a row" in embed.description
    assert embed.footer.text == "Page 1 of 1 · Tic-tac-toe by traditional"
    assert embed.image.url == "attachment://tictactoe-goal.png"
    assert [(field.name, field.value) for field in embed.fields] == [
        ("Options for /challenge", "None"),
        ("In the picture", "X's a1, b2 and c3: X wins."),
    ]
    assert answer["view"].children == []  # one page: nothing to turn
    name, data = reader.file()
    diagram = picture(data)
    assert name == "tictactoe-goal.png" and diagram.width > 100
    state = tictactoe.replay(["a1", "b1", "b2", "c1", "c3"])
    x, y = render.cell_center(state, "a1")
    red, _, blue = diagram.convert("RGB").getpixel((round(x), round(y)))
    assert red > 150 > blue  # an x, drawn by the painter it declares


async def test_it_is_practised_against_the_bot(tictactoe: Game, tmp_path: Path) -> None:
    harness = Harness(tmp_path / "practice.db")
    app = await harness.start()
    try:
        started = await app.practice.start_game(
            guild_id=GUILD, channel_id=CHANNEL, member=ANA, game="tictactoe", level="easy"
        )
        game_id = started.game.id
        pick = random.Random(3)
        for _ in range(9):
            await harness.heard.turn_of(game_id, ANA.id)
            row = await app.games.get_game(GUILD, game_id)
            if not row.is_active:
                break
            state = await app.games.state_of(row)
            assert row.player_ids[state.to_move] == ANA.id, "the bot answered every move"
            await app.moves.play_move(
                guild_id=GUILD, game_id=game_id, member=ANA, text=pick.choice(state.legal_moves())
            )
        await harness.heard.turn_of(game_id, ANA.id)
        row = await app.games.get_game(GUILD, game_id)
        assert not row.is_active and row.result
        assert harness.ai.chosen  # the search chose the bot's moves, with the defaults
        [record] = await app.practice.record(guild_id=GUILD, member_id=ANA.id)
        assert record.wins + record.losses + record.draws == 1
    finally:
        await harness.stop()
