"""Stopping the real bot process the way a service manager does (SIGTERM) or a person
does (Ctrl-C) while its AI is thinking: the bot and every process it started are
gone within two seconds (scaled to the machine), and nothing is left running."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from tests.fakediscord.process import BotProcess
from tests.timing import seconds

from .conftest import World
from .driver import WAIT


def descendants(pid: int) -> set[int]:
    """Every process started by ``pid``, and by those, as /proc tells now."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; its parent has not reaped it yet


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
async def test_the_bot_and_its_ai_stop_within_two_seconds(
    world: World, tmp_path: Path, how: signal.Signals
) -> None:
    # It thinks long; a fault handler prints where it hangs if it does (see below).
    proc = BotProcess(world.fake, tmp_path, AI_TEST_PLAYOUTS="200000", PYTHONFAULTHANDLER="1")
    await proc.start("practice")
    try:
        ix = await world.fake.run_command(
            world.alice,
            "practice",
            {"game": "lifeline", "size": 7, "first": "opponent", "level": "hard"},
            channel=world.channel,
        )
        await ix.reply(WAIT)
        assert proc.proc is not None
        pid = proc.proc.pid
        workers: set[int] = set()
        for _ in range(int(WAIT / 0.05)):  # the AI's workers, thinking of its first move
            workers = descendants(pid)
            if workers:
                break
            await asyncio.sleep(0.05)
        assert workers, "the AI started no worker process"
        started = asyncio.get_running_loop().time()
        proc.proc.send_signal(how)
        try:
            await asyncio.wait_for(proc.proc.wait(), timeout=seconds(10))
        except TimeoutError:
            # Where it hangs: Python's fault handler prints every thread's stack on SIGABRT.
            proc.proc.send_signal(signal.SIGABRT)
            await asyncio.wait_for(proc.proc.wait(), timeout=seconds(10))
            pytest.fail(f"the bot did not exit within {seconds(10):.0f} s\n{proc.log(200)}")
        took = asyncio.get_running_loop().time() - started
        for _ in range(int(seconds(2) / 0.05)):
            if not any(alive(worker) for worker in workers):
                break
            await asyncio.sleep(0.05)
        left = [worker for worker in workers if alive(worker)]
        assert left == [], f"processes left running: {left}\n{proc.log()}"
        assert proc.proc.returncode == 0, proc.log()
        assert took <= seconds(2), f"stopped after {took:.2f} s\n{proc.log()}"
    finally:
        await proc.kill()
