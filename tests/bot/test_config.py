"""Start-up settings: a missing or malformed setting is one clear line, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE_PATH, ConfigError, load_settings
from tests.timing import seconds

REPO = Path(__file__).resolve().parents[2]
TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0Mw.GAbCdE.abcdefghijklmnopqrstuvwxyz0123456789AB"


def run_bot(cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=seconds(60),
        env={"PYTHONPATH": str(REPO), **env},
    )


def test_no_token_is_one_line_and_a_failure_exit(tmp_path: Path) -> None:
    result = run_bot(tmp_path, {})
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DISCORD_TOKEN is not set" in lines[0]
    assert "Traceback" not in result.stderr
    assert not (tmp_path / DEFAULT_DATABASE_PATH).exists()


def test_a_malformed_token_in_dotenv_is_refused_without_echoing_it(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=not-a-token-at-all\n")
    result = run_bot(tmp_path, {})
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        "error: DISCORD_TOKEN has 1 part where a bot token has three separated by dots: "
        "copy it again from the developer portal"
    ]
    assert "not-a-token-at-all" not in result.stderr


def test_defaults(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, dotenv_path=tmp_path / ".env")
    assert settings.token == TOKEN
    assert settings.database_path == Path(DEFAULT_DATABASE_PATH)
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert TOKEN not in repr(settings)


def test_the_environment_wins_over_dotenv(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH=from-file.sqlite3\nDEV_GUILD_ID=42\n")
    settings = load_settings(
        {"DATABASE_PATH": "from-env.sqlite3", "LOG_LEVEL": "debug"}, dotenv_path=dotenv
    )
    assert settings.token == TOKEN
    assert settings.database_path == Path("from-env.sqlite3")
    assert settings.dev_guild_id == 42
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DISCORD_TOKEN": f"Bot {TOKEN}"}, "without the 'Bot ' prefix"),
        # Three parts separated by dots, which it is: too short is what is wrong.
        ({"DISCORD_TOKEN": "abc.def.ghi"}, "DISCORD_TOKEN is too short for a bot token"),
        ({"DISCORD_TOKEN": "abc.def"}, "has 2 parts where a bot token has three"),
        ({"DISCORD_TOKEN": TOKEN.replace("G", "é")}, "has characters a bot token never has"),
        ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID must be a server id"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
    ],
)
def test_malformed_settings(tmp_path: Path, env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(env, dotenv_path=tmp_path / ".env")


def test_a_database_url_wins_over_the_path_and_its_password_is_never_shown(tmp_path: Path) -> None:
    assert load_settings({"DISCORD_TOKEN": TOKEN}, dotenv_path=None).database == Path(
        DEFAULT_DATABASE_PATH
    )
    settings = load_settings(
        {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://bot:s3cret@db:5432/boardbot"},
        dotenv_path=None,
    )
    assert settings.database == "postgresql://bot:s3cret@db:5432/boardbot"
    assert "s3cret" not in repr(settings)
    with pytest.raises(ConfigError, match="DATABASE_URL must be") as refused:
        load_settings(
            {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "mysql://bot:s3cret@db/x"}, dotenv_path=None
        )
    assert "s3cret" not in str(refused.value)


def test_shards() -> None:
    def shards(**values: str) -> tuple[int | None, tuple[int, ...] | None]:
        settings = load_settings({"DISCORD_TOKEN": TOKEN, **values}, dotenv_path=None)
        return settings.shard_count, settings.shard_ids

    assert shards() == (None, None)
    assert shards(SHARD_COUNT="4") == (4, None)
    postgres = {"DATABASE_URL": "postgresql://bot@db/boardbot"}
    assert shards(SHARD_COUNT="4", SHARD_IDS="3, 1", **postgres) == (4, (1, 3))
    assert shards(SHARD_COUNT="2", SHARD_IDS="0,1") == (2, (0, 1))  # every shard: one file
    for wrong in (
        {"SHARD_IDS": "0"},
        {"SHARD_COUNT": "0"},
        {"SHARD_COUNT": "two"},
        {"SHARD_COUNT": "2", "SHARD_IDS": "2"},
        {"SHARD_COUNT": "2", "SHARD_IDS": "0,0"},
        {"SHARD_COUNT": "2", "SHARD_IDS": "0;1"},
    ):
        with pytest.raises(ConfigError, match="SHARD_"):
            shards(**wrong)


def test_rules_link_only_when_set() -> None:
    assert load_settings({"DISCORD_TOKEN": TOKEN}, dotenv_path=None).rules_url_base == ""
    given = load_settings(
        {"DISCORD_TOKEN": TOKEN, "RULES_URL_BASE": "https://x.org/rules/"}, dotenv_path=None
    )
    assert given.rules_url_base == "https://x.org/rules"
    with pytest.raises(ConfigError, match="RULES_URL_BASE must be a web address"):
        load_settings({"DISCORD_TOKEN": TOKEN, "RULES_URL_BASE": "docs/rules"}, dotenv_path=None)


def test_some_shards_on_a_sqlite_file_are_refused() -> None:
    for database in ({}, {"DATABASE_URL": "sqlite:///bot.sqlite3"}):
        with pytest.raises(ConfigError, match="SHARD_IDS=0 runs only some of the 2 shards"):
            load_settings(
                {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2", "SHARD_IDS": "0", **database},
                dotenv_path=None,
            )


def test_some_shards_on_a_sqlite_file_stop_the_bot_in_one_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2", "SHARD_IDS": "0"})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: SHARD_IDS=0 runs only some of the 2 shards, which needs a PostgreSQL "
        "DATABASE_URL shared by every process: on a SQLite file, leave SHARD_IDS empty "
        "(one process, every shard)"
    ]


@pytest.mark.parametrize(
    ("name", "wrong", "message"),
    [
        ("DATABASE_POOL_SIZE", "0", "DATABASE_POOL_SIZE must be a whole number of connections"),
        ("DATABASE_POOL_SIZE", "ten", "DATABASE_POOL_SIZE must be a whole number of connections"),
        ("DATABASE_PGBOUNCER", "maybe", "DATABASE_PGBOUNCER must be 1 .on. or 0 .off."),
        ("PROCESS_LEASE_SECONDS", "0.5", "PROCESS_LEASE_SECONDS must be a number of seconds"),
        ("PROCESS_LEASE_SECONDS", "soon", "PROCESS_LEASE_SECONDS must be a number of seconds"),
        ("HEALTH_PORT", "70000", "HEALTH_PORT must be a TCP port number"),
        ("HEALTH_PORT", "http", "HEALTH_PORT must be a TCP port number"),
    ],
)
def test_operations_settings(name: str, wrong: str, message: str) -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, dotenv_path=None)
    assert (
        settings.database_pool_size,
        settings.database_pgbouncer,
        settings.process_lease,
        settings.health_port,
    ) == (10, False, 30.0, None)
    changed = load_settings(
        {
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_POOL_SIZE": "4",
            "DATABASE_PGBOUNCER": "1",
            "PROCESS_LEASE_SECONDS": "2.5",
            "HEALTH_PORT": "8080",
        },
        dotenv_path=None,
    )
    assert (
        changed.database_pool_size,
        changed.database_pgbouncer,
        changed.process_lease,
        changed.health_port,
    ) == (4, True, 2.5, 8080)
    with pytest.raises(ConfigError, match=message):
        load_settings({"DISCORD_TOKEN": TOKEN, name: wrong}, dotenv_path=None)


def test_a_wrong_health_port_stops_the_bot_in_one_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, {"DISCORD_TOKEN": TOKEN, "HEALTH_PORT": "99999"})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: HEALTH_PORT must be"), result.stderr
