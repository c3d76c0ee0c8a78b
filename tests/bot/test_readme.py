"""The README's commands table lists every command the bot registers, with every option,
and its settings list every setting of .env.example."""

from __future__ import annotations

import re
from pathlib import Path

from discord import app_commands

from bot.client import BoardBot
from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def command_rows(groups: frozenset[str] = frozenset()) -> dict[str, str]:
    """The first cell of each row of a commands table, by command name (a command of
    one of ``groups`` by its group and name: ``tournament join``)."""
    rows = {}
    for line in (ROOT / "README.md").read_text().splitlines():
        found = re.match(r"\| `/([a-z0-9_]+)([^`]*)` \|", line)
        if found:
            name, rest = found[1], found[2]
            if name in groups:
                sub, _, rest = rest.strip().partition(" ")
                name, rest = f"{name} {sub}", " " + rest
            rows[name] = rest
    return rows


async def test_the_commands_table_lists_every_command_and_option(tmp_path: Path) -> None:
    client = BoardBot(
        Settings(
            token="x.y.z",
            database_path=tmp_path / "bot.sqlite3",
            dev_guild_id=None,
            log_level="INFO",
            rules_url_base="https://example.org",
        )
    )
    await client.load_areas()
    registered = {}
    groups = set()
    for command in client.tree.get_commands():
        if isinstance(command, app_commands.Group):
            groups.add(command.name)
            for sub in command.commands:
                assert isinstance(sub, app_commands.Command)
                registered[f"{command.name} {sub.name}"] = [p.display_name for p in sub.parameters]
        else:
            registered[command.name] = [p.display_name for p in command.parameters]
    await client.close()
    rows = command_rows(frozenset(groups))
    assert sorted(set(registered) - set(rows)) == [], "commands missing from the README"
    assert sorted(set(rows) - set(registered)) == [], "the README lists unknown commands"
    for name, options in registered.items():
        written = re.findall(r"[a-z_]+", rows[name])
        assert written == options, f"/{name}: the README says {written}, the bot {options}"


def test_the_settings_paragraph_names_every_setting() -> None:
    settings = re.findall(r"^([A-Z][A-Z0-9_]+)=", (ROOT / ".env.example").read_text(), re.MULTILINE)
    readme = (ROOT / "README.md").read_text()
    paragraph = readme[readme.index("Settings (environment or `.env`") :]
    assert settings and [s for s in settings if f"- `{s}`" not in paragraph] == []
