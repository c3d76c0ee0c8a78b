"""Settings, read once at start-up from the environment and ``.env``.

Every setting and its default is listed in ``.env.example``. A bad setting is
a :class:`ConfigError` whose message is one line a person can act on; the
entry point prints it and exits non-zero (no traceback).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from bot.shards import Shards

DEFAULT_DATABASE_PATH = "./boardbot.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# A bot token is three base64url parts separated by dots (user id, timestamp, HMAC).
_TOKEN = re.compile(r"[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of the bot, read once (:func:`load_settings`) and given to the
    composition root, which hands each service what it takes. The defaults are those
    of ``.env.example`` (tests build a Settings with what they change)."""

    token: str = ""
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    #: Where the full rules live online (``<base>/<game>.md``); "" for no link.
    rules_url_base: str = ""
    #: Share of a turn's time after which the player to move is reminded (0 < share < 1).
    reminder_share: float = 0.8
    #: Each member's vacation per calendar year, in days.
    vacation_days: int = 14
    #: Days a challenge waits for an answer before it expires (0: never).
    challenge_expiry_days: int = 7
    #: ``postgresql://…`` or ``sqlite:///…``; empty: the SQLite file at ``database_path``.
    database_url: str = ""
    #: Discord's shards of the whole bot (None: one connection, no sharding) …
    shard_count: int | None = None
    #: … and the ones this process runs (None: all of them).
    shard_ids: tuple[int, ...] | None = None

    #: Worker processes of the AI (the bot's moves in practice games).
    ai_workers: int = 1
    #: Tests only: every AI level searches this many playouts, no more (None: as built).
    ai_test_playouts: int | None = None

    #: Connections to PostgreSQL this process keeps at most.
    database_pool_size: int = 10
    #: PostgreSQL is reached through PgBouncer in transaction pooling: no statement cache,
    #: no session state.
    database_pgbouncer: bool = False
    #: Seconds a process's lease on its shards lasts without a heartbeat: the others see
    #: a dead process, and take over its clocks and posts, that long after it died.
    process_lease: float = 30.0
    #: The port of the liveness endpoint ``/healthz`` (None: none).
    health_port: int | None = None

    @property
    def shards(self) -> Shards:
        """This process's Discord shards, among the processes sharing the database."""
        return Shards(self.shard_count, self.shard_ids)

    @property
    def database(self) -> str | Path:
        """The database the bot opens (``DATABASE_URL``, else ``DATABASE_PATH``)."""
        return self.database_url or self.database_path

    def __repr__(self) -> str:  # never show the token, even in a debug log
        return (
            f"Settings(token=<hidden>, database_path={str(self.database_path)!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"rules_url_base={self.rules_url_base!r}, "
            f"reminder_share={self.reminder_share!r}, vacation_days={self.vacation_days!r}, "
            f"challenge_expiry_days={self.challenge_expiry_days!r}, "
            f"database_url={hidden_password(self.database_url)!r}, "
            f"shard_count={self.shard_count!r}, shard_ids={self.shard_ids!r}, "
            f"ai_workers={self.ai_workers!r}, ai_test_playouts={self.ai_test_playouts!r}, "
            f"database_pool_size={self.database_pool_size!r}, "
            f"database_pgbouncer={self.database_pgbouncer!r}, "
            f"process_lease={self.process_lease!r}, health_port={self.health_port!r})"
        )


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv_path: str | Path | None = ".env"
) -> Settings:
    """Settings from ``environ`` (default ``os.environ``) over the ``.env`` file.

    The environment wins over ``.env``, as with python-dotenv's ``load_dotenv``.
    """
    values: dict[str, str] = {}
    if dotenv_path is not None and Path(dotenv_path).is_file():
        values.update({k: v for k, v in dotenv_values(dotenv_path).items() if v is not None})
    values.update(os.environ if environ is None else environ)

    def get(name: str, default: str = "") -> str:
        return (values.get(name) or default).strip()

    settings = Settings(
        token=_token(get("DISCORD_TOKEN")),
        database_path=Path(get("DATABASE_PATH", DEFAULT_DATABASE_PATH)),
        dev_guild_id=_guild_id(get("DEV_GUILD_ID")),
        log_level=_log_level(get("LOG_LEVEL", "INFO")),
        rules_url_base=_url_base(get("RULES_URL_BASE")),
        reminder_share=_reminder_share(get("REMINDER_SHARE", "0.8")),
        vacation_days=_vacation_days(get("VACATION_DAYS", "14")),
        challenge_expiry_days=_challenge_expiry_days(get("CHALLENGE_EXPIRY_DAYS", "7")),
        database_url=_database_url(get("DATABASE_URL")),
        **_shards(get("SHARD_COUNT"), get("SHARD_IDS")),
        ai_workers=_ai_workers(get("AI_WORKERS", "1")),
        ai_test_playouts=_ai_test_playouts(get("AI_TEST_PLAYOUTS")),
        database_pool_size=_pool_size(get("DATABASE_POOL_SIZE", "10")),
        database_pgbouncer=_flag("DATABASE_PGBOUNCER", get("DATABASE_PGBOUNCER", "0")),
        process_lease=_process_lease(get("PROCESS_LEASE_SECONDS", "30")),
        health_port=_health_port(get("HEALTH_PORT")),
    )
    _one_file_serves_every_shard(settings)
    return settings


def _one_file_serves_every_shard(settings: Settings) -> None:
    """A SQLite file belongs to one process: that process must run every shard (several
    processes, each on its own file, would each see only their own games)."""
    if settings.database_url.startswith(("postgresql://", "postgres://")):
        return
    if settings.shard_count is None or settings.shard_ids is None:
        return
    if set(settings.shard_ids) != set(range(settings.shard_count)):
        raise ConfigError(
            f"SHARD_IDS={','.join(map(str, settings.shard_ids))} runs only some of the "
            f"{settings.shard_count} shards, which needs a PostgreSQL DATABASE_URL shared by "
            "every process: on a SQLite file, leave SHARD_IDS empty (one process, every shard)"
        )


def _pool_size(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise ConfigError(
            f"DATABASE_POOL_SIZE must be a whole number of connections from 1 to 1000, not {text!r}"
        )
    return int(text)


def _flag(name: str, text: str) -> bool:
    value = text.lower()
    if value not in ("0", "1", "true", "false", "yes", "no", "on", "off"):
        raise ConfigError(f"{name} must be 1 (on) or 0 (off), not {text!r}")
    return value in ("1", "true", "yes", "on")


def _process_lease(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 1 <= seconds <= 3600:
        raise ConfigError(
            f"PROCESS_LEASE_SECONDS must be a number of seconds from 1 to 3600, not {text!r}"
        )
    return seconds


def _health_port(text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ConfigError(
            f"HEALTH_PORT must be a TCP port number from 1 to 65535, or empty, not {text!r}"
        )
    return int(text)


def _shards(count: str, ids: str) -> dict[str, Any]:
    if not count:
        if ids:
            raise ConfigError(
                "SHARD_IDS needs SHARD_COUNT: the number of shards of the whole "
                "bot (e.g. SHARD_COUNT=4 SHARD_IDS=0,1)"
            )
        return {}
    if not count.isdigit() or not 1 <= int(count) <= 10_000:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards from 1, not {count!r}")
    shard_count = int(count)
    if not ids:
        return {"shard_count": shard_count}
    parts = [part.strip() for part in ids.split(",")]
    if not all(part.isdigit() and int(part) < shard_count for part in parts) or len(
        set(parts)
    ) != len(parts):
        raise ConfigError(
            f"SHARD_IDS must list different shard numbers from 0 to "
            f"{shard_count - 1}, separated by commas (e.g. 0,1), not {ids!r}"
        )
    return {"shard_count": shard_count, "shard_ids": tuple(sorted(int(p) for p in parts))}


def _database_url(text: str) -> str:
    if text and not text.startswith(("sqlite:///", "postgresql://", "postgres://")):
        raise ConfigError(
            "DATABASE_URL must be sqlite:///path/to/file.sqlite3 or "
            "postgresql://user:password@host:port/database, not "
            f"{hidden_password(text)!r}"
        )
    return text


def hidden_password(url: str) -> str:
    """A database URL fit for a log line or an error message."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def _reminder_share(text: str) -> float:
    try:
        share = float(text)
    except ValueError:
        share = -1.0
    if not 0 < share < 1:
        raise ConfigError(
            f"REMINDER_SHARE must be a fraction between 0 and 1 "
            f"(0.8 = when 80% of the time has passed), not {text!r}"
        )
    return share


def _vacation_days(text: str) -> int:
    if not text.isdigit() or int(text) > 366:
        raise ConfigError(
            f"VACATION_DAYS must be a whole number of days from 0 to 366, not {text!r}"
        )
    return int(text)


def _challenge_expiry_days(text: str) -> int:
    if not text.isdigit() or int(text) > 365:
        raise ConfigError(
            f"CHALLENGE_EXPIRY_DAYS must be a whole number of days from 0 to 365 "
            f"(0: challenges never expire), not {text!r}"
        )
    return int(text)


def _url_base(text: str) -> str:
    if text and not re.fullmatch(r"https?://\S+", text):
        raise ConfigError(
            f"RULES_URL_BASE must be a web address (https://…) or empty, not {text!r}"
        )
    return text.rstrip("/")


def _ai_workers(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise ConfigError(
            f"AI_WORKERS must be a whole number of processes from 1 to 64, not {text!r}"
        )
    return int(text)


def _ai_test_playouts(text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ConfigError(
            f"AI_TEST_PLAYOUTS must be a whole number of playouts (1 or more), "
            f"or empty, not {text!r}"
        )
    return int(text)


def _token(text: str) -> str:
    if not text:
        raise ConfigError(
            "DISCORD_TOKEN is not set: put the bot's token in the environment "
            "or in .env (see .env.example and the README)"
        )
    if text.lower().startswith("bot "):
        raise ConfigError("DISCORD_TOKEN must be the bare token, without the 'Bot ' prefix")
    if not _TOKEN.fullmatch(text):
        parts = text.split(".")
        if len(parts) != 3:
            what = (
                f"has {len(parts)} part{'s' if len(parts) != 1 else ''} where a bot "
                "token has three separated by dots"
            )
        elif not all(re.fullmatch(r"[A-Za-z0-9_-]+", part) for part in parts):
            what = (
                "has characters a bot token never has (only letters, digits, - and _ "
                "between its two dots)"
            )
        else:
            what = "is too short for a bot token (one is about 70 characters)"
        raise ConfigError(f"DISCORD_TOKEN {what}: copy it again from the developer portal")
    return text


def _guild_id(text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {text!r}")
    return int(text)


def _log_level(text: str) -> str:
    level = text.upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {text!r}")
    return level


def configure_logging(level: str) -> None:
    """Log to stderr; discord.py's own loggers follow the same level (never below INFO,
    since its DEBUG output includes raw gateway payloads)."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))
