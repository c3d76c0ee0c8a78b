"""/export and /import: a complete game of each game exported and imported back through
the commands, in both forms; records with an illegal move or unreadable are refused,
saying where and why."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from bot.review.commands import FORMATS, ReviewCommands
from rules.record import from_json, parse_record
from tests.bot.conftest import ANA, CY, GUILD, OTHER_GUILD, Env, start_game
from tests.bot.interactions import invoke
from tests.bot.support import StandIn, play_out
from tests.e2e.driver import PLANS, planned_moves


async def export(env: Env, game_id: int, fmt: str = "text", *, guild_id: int = GUILD) -> StandIn:
    asked = StandIn(env, CY, guild_id=guild_id)
    kind = next(choice for choice in FORMATS if choice.value == fmt)
    await invoke(ReviewCommands.export, ReviewCommands(), asked, str(game_id), kind, False)
    return asked


async def import_(
    env: Env, text: str | None = None, file: object = None, *, game: str | None = None
) -> StandIn:
    asked = StandIn(env, ANA)
    await invoke(ReviewCommands.import_, ReviewCommands(), asked, text, file, False, game)
    return asked


def attachment(data: bytes) -> SimpleNamespace:
    async def read() -> bytes:
        return data

    return SimpleNamespace(size=len(data), read=read, filename="game.txt")


@pytest.mark.parametrize("game", sorted(PLANS))
@pytest.mark.parametrize("fmt", ["text", "json"])
async def test_export_then_import_a_complete_game(env: Env, game: str, fmt: str) -> None:
    options, seed = PLANS[game]
    moves = planned_moves(game, options, seed)
    game_id = await start_game(env, game, **options)
    await play_out(env, game_id, moves)
    row = await env.games.get_game(GUILD, game_id)

    exported = await export(env, game_id, fmt)
    name, data = exported.file()
    assert name == f"{game}-{game_id}.{'txt' if fmt == 'text' else 'json'}"
    assert exported.answer["ephemeral"]
    record = parse_record(data.decode()) if fmt == "text" else from_json(json.loads(data))
    assert list(record.moves) == moves
    assert [p.name for p in record.players] == list(row.player_names)
    assert record.result == row.result and record.termination.by_rules

    imported = await import_(env, file=attachment(data))
    assert imported.answer["ephemeral"]
    text = imported.answer["content"]
    assert f"{len(moves)} moves, all legal" in text
    assert f"Final position: {row.result}." in text
    _, picture = imported.file()
    assert picture.endswith(f"{game} ply {len(moves)} dark".encode())  # the final position


async def test_a_record_pasted_as_text_is_checked_too(env: Env) -> None:
    text = '[Game "Asli"]\n[Size "5"]\n[First "Ana"]\n[Second "Bo"]\n\n1. komi 3  2. white'
    imported = await import_(env, text)
    assert "2 moves, all legal" in imported.answer["content"]
    assert "Position after 2 moves: Ana to play" in imported.answer["content"]


@pytest.mark.parametrize("game", sorted(PLANS))
async def test_our_own_record_pasted_into_the_option_arrives_on_one_line(
    env: Env, game: str
) -> None:
    """A slash command's option holds no line break: the export pasted there is one line."""
    options, seed = PLANS[game]
    moves = planned_moves(game, options, seed)
    game_id = await start_game(env, game, **options)
    await play_out(env, game_id, moves)
    _, data = (await export(env, game_id)).file()
    pasted = " ".join(data.decode().split("\n"))
    imported = await import_(env, pasted)
    assert f": Ana vs Bo, {len(moves)} moves, all legal." in imported.answer["content"]


async def test_moves_alone_with_the_game_option(env: Env) -> None:
    imported = await import_(env, "komi 3 white c3", game="asli")
    text = imported.answer["content"]
    assert text.startswith("**Asli** record (size 13), 3 moves, all legal.")
    assert "?" not in text  # no "? vs ?" for a record that names nobody
    assert "Position after 3 moves: " in text and " to play" in text
    asked = await import_(env, "1. komi 3, 2. white")
    assert asked.answer["content"].startswith(
        "That record does not say which game it is: pick the game in the `game` option"
    )
    one = await import_(env, "komi 3, white, c3, hold", game="asli")
    assert "4 moves, all legal" in one.answer["content"]
    assert "1 move, all legal" in (await import_(env, "c3", game="sliglube")).answer["content"]


async def test_an_illegal_move_is_refused_with_its_number_and_reason(env: Env) -> None:
    text = (
        '[Game "Asli"]\n[Size "5"]\n[First "Ana"]\n[Second "Bo"]\n\n'
        "1. komi 3  2. white  3. c3  4. c3"
    )
    refused = await import_(env, text)
    message = refused.answer["content"]
    assert refused.answer["ephemeral"]
    assert message.startswith("That record has an illegal move: move 4 (c3): ")
    assert "occupied" in message


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "The record is empty"),
        ('[Game "Chess"]\n\n1. e4', "That record can't be read: "),
        ('[Game "Asli"]\n[Size "99"]\n\n1. komi 3', "That record can't be read: line 2"),
        ('{"header": {}}', "That record can't be read: header must have 'game'"),
        ("{not json", "That JSON record can't be read: "),
        (
            '[Game "Asli"]\n[Size "5"]\n[Outcome "1-0"]\n[Termination "rules"]\n\n1. komi 3',
            "That record does not hold together: ",
        ),
    ],
)
async def test_unreadable_records_are_refused_politely(env: Env, text: str, says: str) -> None:
    refused = await import_(env, file=attachment(text.encode()))
    assert refused.answer["content"].startswith(says), refused.answer["content"]
    assert refused.answer["ephemeral"]


async def test_import_wants_exactly_one_of_text_or_file(env: Env) -> None:
    both = await import_(env, "x", attachment(b"x"))
    neither = await import_(env)
    for refused in (both, neither):
        assert refused.calls == [
            (
                "send_message",
                {
                    "content": "Give the record either pasted in `record` or as a `file`, one of "
                    "the two.",
                    "ephemeral": True,
                },
            )
        ]
    binary = await import_(env, file=attachment(b"\xff\xfe\x00junk"))
    assert binary.answer["content"] == ("That file is not a text record (it is not UTF-8 text).")


async def test_a_live_game_exports_as_unfinished_and_only_in_its_server(env: Env) -> None:
    game_id = await start_game(env, "asli", size=5)
    await play_out(env, game_id, ["komi 3"])
    exported = await export(env, game_id)
    assert exported.answer["content"] == f"The record of **Asli #{game_id}** (1 move)."
    _, data = exported.file()
    record = parse_record(data.decode())
    assert record.moves == ("komi 3",) and record.outcome == "*" and record.result is None
    assert record.site == "Discord" and record.game_id == str(game_id)
    other = await export(env, game_id, guild_id=OTHER_GUILD)
    assert other.answer["content"] == f"There is no game #{game_id} in this server."


@pytest.mark.parametrize("pasted", [False, True])
async def test_a_record_naming_its_players_by_colour_shows_their_names(
    env: Env, pasted: bool
) -> None:
    """Records from elsewhere often name players by colour only ([Black]/[White]): the
    colours the moves give each seat tell who is who."""
    lines = [
        '[Game "Asli"]',
        '[Size "5"]',
        '[White "Ana"]',
        '[Black "Zoë"]',
        "",
        "1. komi 3  2. black",
    ]
    text = (" " if pasted else "\n").join(lines)
    imported = await import_(env, text)
    said = imported.answer["content"]
    # the second player chose black: Zoë is the second player, Ana the first
    assert said.startswith("**Asli** record (size 5): Ana vs Zoë, 2 moves, all legal."), said
    assert "Position after 2 moves: Zoë to play" in said
    named = '[Game "Asli"] [Size "5"] [First "Bo"] [Second "Cy"] [Black "Zoë"] 1. komi 3 2. black'
    assert ": Bo vs Cy, 2 moves" in (await import_(env, named)).answer["content"]  # seats decide
