"""The discord.py side, without Discord: commands, intents, buttons, error answers."""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

import bot.__main__ as entry
from bot import places
from bot.challenges.views import ChallengeButton
from bot.client import BoardBot, DatabaseUnavailable, make_client
from bot.config import Settings
from bot.core.options import MyGame
from bot.model import Post, UserError
from bot.play.views import DecisionButton, NumberButton, ResignButton
from bot.ui.errors import APOLOGY, report
from rules import Decision, NumberChoice
from tests.bot.test_config import TOKEN

BIG = 2**63 - 1  # the largest snowflake / row id


def game(game_id: int) -> Any:
    """What the buttons of a post use of its game's row."""
    return SimpleNamespace(id=game_id)


def settings(tmp_path: Path) -> Settings:
    return Settings(
        token="x.y.z",
        database_path=tmp_path / "bot.sqlite3",
        dev_guild_id=None,
        log_level="INFO",
        rules_url_base="https://example.org/rules",
    )


@pytest.fixture
async def client(tmp_path: Path):
    instance = BoardBot(settings(tmp_path))
    await instance.load_areas()
    yield instance
    await instance.close()


def test_no_privileged_intents(tmp_path: Path) -> None:
    intents = BoardBot(settings(tmp_path)).intents
    assert intents.guilds
    assert not (intents.members or intents.presences or intents.message_content)


def test_shard_settings_make_a_sharded_client(tmp_path: Path) -> None:
    assert not isinstance(make_client(settings(tmp_path)), discord.AutoShardedClient)
    sharded = make_client(replace(settings(tmp_path), shard_count=4, shard_ids=(1, 3)))
    assert isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])


async def test_the_slash_commands_and_their_payloads(client: BoardBot) -> None:
    commands = {command.name: command for command in client.tree.get_commands()}
    assert {
        "challenge",
        "move",
        "board",
        "games",
        "resign",
        "rules",
        "review",
        "replay",
        "export",
        "import",
        "leaderboard",
        "profile",
    } <= set(commands)
    for command in commands.values():
        payload = command.to_dict(client.tree)
        assert re.fullmatch(r"[a-z0-9]{1,32}", payload["name"])  # Discord takes digits
        assert 1 <= len(payload["description"]) <= 100
        for option in payload.get("options", []):
            assert re.fullmatch(r"[a-z_]{1,32}", option["name"])
            assert 1 <= len(option["description"]) <= 100
        if command.name != "rules":
            assert payload.get("contexts") == [0] or payload.get("dm_permission") is False
    move = {o["name"]: o for o in commands["move"].to_dict(client.tree)["options"]}
    assert move["move"]["autocomplete"] and move["move"]["required"]
    assert move["game"]["autocomplete"] and not move["game"]["required"]


@pytest.mark.parametrize(
    "item",
    [
        ChallengeButton("decline", BIG),
        DecisionButton(BIG, 999_999, "yellow"),
        DecisionButton(BIG, 999_999, "c3 e5", "a move of two cells"),
        NumberButton(BIG, 999_999, 999_999, "Choose the komi"),
        ResignButton(BIG, BIG),
    ],
)
async def test_buttons_carry_their_ids_within_discords_limit(item: Any, client: BoardBot) -> None:
    custom_id = item.custom_id
    assert len(custom_id) <= 100
    match = type(item).__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    again = await type(item).from_custom_id(None, item.item, match)
    assert again.custom_id == custom_id
    assert type(item).__discord_ui_compiled_template__ in client.component_templates


def test_decision_buttons(client: BoardBot) -> None:
    post_view = client.views.post_view
    assert post_view(game(1), Post("x")) is None
    view = post_view(game(7), Post("x", decisions=(Decision("Swap", "swap"),), ply=1))
    assert [child.custom_id for child in view.children] == ["bb:choice:7:1:swap"]
    komi = Decision("Choose the komi", number=NumberChoice("Komi (0–25)", "komi {}", 0, 25))
    view = post_view(
        game(7),
        Post(
            "x",
            decisions=(komi, Decision("Play black", "black"), Decision("Play white", "white")),
            ply=1,
        ),
    )
    assert [child.item.label for child in view.children] == [
        "Choose the komi",
        "Play black",
        "Play white",
    ]
    assert [child.custom_id for child in view.children] == [
        "bb:number:7:1:0",
        "bb:choice:7:1:black",
        "bb:choice:7:1:white",
    ]


class FakeInteraction:
    """What :func:`report` uses of a discord.Interaction."""

    def __init__(
        self,
        *,
        done: bool = False,
        kind: discord.InteractionType = discord.InteractionType.application_command,
    ):
        self.type = kind
        self.command = None
        self.data: dict[str, Any] = {}
        self.said: list[tuple[str, str, bool]] = []
        self.response = SimpleNamespace(is_done=lambda: done, send_message=self._respond)
        self.followup = SimpleNamespace(send=self._follow)

    async def _respond(self, text: str, *, ephemeral: bool) -> None:
        self.said.append(("response", text, ephemeral))

    async def _follow(self, text: str, *, ephemeral: bool) -> None:
        self.said.append(("followup", text, ephemeral))


async def test_a_refusal_is_shown_as_it_is_and_only_to_the_member() -> None:
    interaction = FakeInteraction()
    command = SimpleNamespace(name="move")
    wrapped = app_commands.CommandInvokeError(command, UserError("It's not your turn."))
    await report(interaction, wrapped)
    assert interaction.said == [("response", "It's not your turn.", True)]


async def test_after_a_deferral_the_answer_is_a_followup() -> None:
    interaction = FakeInteraction(done=True)
    await report(interaction, UserError("That move is illegal."))
    assert interaction.said == [("followup", "That move is illegal.", True)]


async def test_an_unexpected_error_is_logged_and_apologised_for(caplog) -> None:
    interaction = FakeInteraction()
    await report(interaction, ZeroDivisionError("oops"))
    assert interaction.said == [("response", APOLOGY, True)]
    assert "ZeroDivisionError" in caplog.text


async def test_an_autocomplete_failure_sends_no_message() -> None:
    interaction = FakeInteraction(kind=discord.InteractionType.autocomplete)
    await report(interaction, ZeroDivisionError("oops"))
    assert interaction.said == []


def test_a_token_discord_rejects_is_one_line(monkeypatch, capsys, tmp_path: Path) -> None:
    async def rejected(_settings: Settings) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setattr(entry, "run", rejected)
    assert entry.main() != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: Discord rejected DISCORD_TOKEN")


async def test_an_unusable_database_stops_the_start_with_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    broken = Settings(
        token="x.y.z",
        database_path=tmp_path / "file" / "bot.sqlite3",
        dev_guild_id=None,
        log_level="INFO",
        rules_url_base="https://example.org",
    )
    client = BoardBot(broken)
    with pytest.raises(DatabaseUnavailable, match="cannot use the database at"):
        await client.setup_hook()
    await client.close()


def test_start_up_failures_are_one_line(monkeypatch, capsys, tmp_path: Path) -> None:
    async def unusable(_settings: Settings) -> None:
        raise DatabaseUnavailable("cannot use the database at x.sqlite3: disk I/O error")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setattr(entry, "run", unusable)
    assert entry.main() == 1
    assert capsys.readouterr().err == (
        "error: cannot use the database at x.sqlite3: disk I/O error\n"
    )


async def test_a_servers_command_outside_a_server_is_refused_before_it_runs(
    client: BoardBot,
) -> None:
    client.tree.open_anywhere()
    commands = {command.name: command for command in client.tree.get_commands()}

    def used(command: str, guild_id: int | None, guild_installed: bool) -> SimpleNamespace:
        return SimpleNamespace(
            guild_id=guild_id,
            command=commands[command],
            is_guild_integration=lambda: guild_installed,
        )

    for where in (used("tournament", None, False), used("tournament", 7, False)):
        with pytest.raises(app_commands.NoPrivateMessage):  # a DM; a server without me
            await client.tree.interaction_check(where)
    assert await client.tree.interaction_check(used("tournament", 7, True))
    for command in ("rules", "move", "challenge", "board"):  # anywhere
        assert await client.tree.interaction_check(used(command, None, False))
        assert await client.tree.interaction_check(used(command, 7, False))
    # A subcommand goes by its group: /conditional show anywhere, /tournament join not.
    show = commands["conditional"].get_command("show")  # type: ignore[union-attr]
    join = commands["tournament"].get_command("join")  # type: ignore[union-attr]
    dm = SimpleNamespace(guild_id=None, command=show, is_guild_integration=lambda: False)
    assert await client.tree.interaction_check(dm)
    with pytest.raises(app_commands.NoPrivateMessage):
        await client.tree.interaction_check(
            SimpleNamespace(guild_id=None, command=join, is_guild_integration=lambda: False)
        )
    interaction = FakeInteraction()
    await report(interaction, app_commands.NoPrivateMessage())
    assert interaction.said == [("response", places.SERVER_ONLY, True)]


async def test_an_option_refused_while_resolving_it_is_answered_as_it_is() -> None:
    """A refusal of an option's transformer (bot.core.options) reaches the member as the
    tree hands it over: wrapped in a TransformerError."""
    try:
        try:
            raise UserError("There is no game #12 in this server.")
        except UserError as refusal:
            raise app_commands.TransformerError(
                "#12", discord.AppCommandOptionType.string, MyGame()
            ) from refusal
    except app_commands.TransformerError as error:
        wrapped = error
    interaction = FakeInteraction()
    await report(interaction, wrapped)
    assert interaction.said == [("response", "There is no game #12 in this server.", True)]


async def test_no_voice_warnings_at_start_up(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """The bot never joins voice: discord.py's warnings that PyNaCl and davey are missing
    (given once per process, by the first client) would read as faults."""
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True  # a fresh process
    settings = Settings(
        token="x.y.z",
        database_path=tmp_path / "bot.sqlite3",
        dev_guild_id=None,
        log_level="INFO",
        rules_url_base="https://example.org",
    )
    with caplog.at_level(logging.WARNING, logger="discord"):
        client = BoardBot(settings)
    await client.close()
    assert [r.getMessage() for r in caplog.records if "voice" in r.getMessage()] == []
