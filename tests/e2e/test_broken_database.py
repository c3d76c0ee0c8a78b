"""``python -m bot`` on a database it cannot use: it stops within seconds, non-zero (so
that a service manager notices and restarts it), with one line saying why, before it
reaches Discord. Read-only files and folders, damaged files, a schema from a newer
bot, a disk with no room left.

The cases run side by side, each its own process. Read-only cases as root (who may
write anywhere) drop the capabilities that let root ignore file permissions, in the
child only."""

from __future__ import annotations

import asyncio
import ctypes
import os
import resource
import shutil
import signal
import sqlite3
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.storage import open_database, queries
from tests.fakediscord.process import REPO
from tests.timing import seconds

#: A token of the right shape: the database is checked before it is used.
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyzABCDEFGHIJ12"
#: Each takes under a second alone; the cases run side by side (8 at once), on a machine
#: perhaps slower (tests/timing.py).
SECONDS = seconds(15.0)
PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2
Prepare = Callable[[], None] | None


def as_plain_user() -> None:
    """In the child: root without the capabilities that ignore file permissions."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def no_room() -> None:
    """In the child: not one more byte may be written to any file (as a full disk)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write fails instead of killing
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


async def good_database(path: Path) -> None:
    db = await open_database(path)
    async with db.transaction() as tx:
        for _ in range(20):
            await queries.insert_game(
                tx,
                guild_id=1,
                channel_id=2,
                challenge_id=None,
                challenge_message_id=None,
                game="asli",
                options={"size": 5},
                settings={},
                player_ids=[10, 20],
                player_names=["Ana", "Bo"],
                created_at=datetime.now(UTC),
            )
    await db.close()


async def run_bot(database: Path, prepare: Prepare) -> tuple[int | None, float, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(
        DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(database), PYTHONPATH=str(REPO), LOG_LEVEL="INFO"
    )
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=database.parent.parent,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=prepare,
    )
    try:
        _, err = await asyncio.wait_for(proc.communicate(), SECONDS * 3)
    except TimeoutError:
        proc.kill()
        _, err = await proc.communicate()
        return None, time.monotonic() - started, err.decode()
    return proc.returncode, time.monotonic() - started, err.decode()


def damage_the_games_table(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    data = bytearray(path.read_bytes())
    data[page_size * (root - 1) : page_size * root] = b"\xa5" * page_size
    path.write_bytes(bytes(data))


async def test_an_unusable_database_stops_the_bot_at_once(tmp_path: Path) -> None:
    good = tmp_path / "good" / "bot.sqlite3"
    await good_database(good)
    cases: dict[str, tuple[Path, Prepare, str]] = {}

    def case(name: str, prepare: Prepare = None, says: str = "") -> Path:
        folder = tmp_path / name
        folder.mkdir()
        path = folder / "bot.sqlite3"
        shutil.copy(good, path)
        cases[name] = (path, prepare, says)
        return path

    case("garbage", says="not a database").write_bytes(os.urandom(3 * 4096))
    truncated = case("truncated", says="damaged")
    os.truncate(truncated, truncated.stat().st_size // 2)
    damage_the_games_table(case("bad pages", says="damaged"))
    newer = case("newer schema", says="made by a newer version of the bot")
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 999")
    conn.close()
    case("read-only file", as_plain_user, "read-only").chmod(0o444)
    read_only = case("read-only folder", as_plain_user, "read-only").parent
    cases["new file in a read-only folder"] = (
        read_only / "new.sqlite3",
        as_plain_user,
        "cannot be opened",
    )
    read_only.chmod(0o555)
    case("no room on the disk", no_room, "the disk could not be read or written")
    try:
        results = await asyncio.gather(
            *(run_bot(path, prepare) for path, prepare, _ in cases.values())
        )
    finally:
        read_only.chmod(0o755)

    wrong = []
    for (name, (path, _, says)), (code, took, err) in zip(cases.items(), results, strict=True):
        lines = [line for line in err.splitlines() if "voice will NOT be supported" not in line]
        if (
            code in (0, None)
            or took > SECONDS
            or len(lines) != 1
            or not lines[0].startswith(f"error: cannot use the database at {path}: ")
            or says not in lines[0]
        ):
            wrong.append(f"{name}: exit {code} after {took:.1f} s, said {err!r}")
    assert not wrong, "\n".join(wrong)
