"""The AI of an earlier commit, as an opponent for ``python -m bench ai`` (``old-hard``).

Issue 24 asks the new hard level to beat "today's hard": the hard level as it was
before the issue's work began, at commit :data:`BEFORE_ISSUE_24` (3 s of wall-clock
time a move, its own search and its own rules engine). Emulating it with the code as
it stands (the same search without one feature) pitted today's search against itself:
every other gain of the issue was on both sides. So the old commit itself plays: its
``ai`` and ``rules`` are unpacked from git into a temporary directory, and a child
process running there answers each position with its own ``ai.choose_move``, one JSON
line each way. The child ends with the pipe: when the bench ends, however it ends.
"""

from __future__ import annotations

import atexit
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from rules import State

#: The last commit before issue 24's work on the AI.
BEFORE_ISSUE_24 = "725a350"
#: The repository the bench runs from.
REPOSITORY = Path(__file__).resolve().parents[1]

#: The child's program: it checks it runs the old tree, then answers positions.
_CHILD = """
import json, os, sys
import ai, rules
print(json.dumps(os.path.dirname(os.path.dirname(os.path.abspath(ai.__file__)))), flush=True)
for line in sys.stdin:
    asked = json.loads(line)
    state = rules.get_game(asked["game"]).new(**asked["options"])
    for move in asked["history"]:
        state = state.play(move)
    level = ai.levels.LEVELS[asked["level"]]
    if asked.get("seconds"):
        budget = ai.levels.Budget(seconds=asked["seconds"], playouts=level.budget.playouts)
        level = ai.levels.Level(level.name, budget, level.temperature)
    print(json.dumps(ai.choose_move(state, level, seed=asked["seed"])), flush=True)
"""


class OldAI:
    """The AI of ``commit`` in a child process: :meth:`choose_move` as it chose then."""

    def __init__(self, commit: str = BEFORE_ISSUE_24, repository: Path = REPOSITORY) -> None:
        unpacked = subprocess.run(
            ["git", "-C", str(repository), "archive", "--format=tar", commit, "ai", "rules"],
            capture_output=True,
        )
        if unpacked.returncode:
            raise RuntimeError(
                f"the AI of commit {commit} needs the repository's history "
                f"(git archive: {unpacked.stderr.decode(errors='replace').strip()})"
            )
        self._directory = tempfile.TemporaryDirectory(prefix="bench-old-ai-")
        root = self._directory.name
        with tarfile.open(fileobj=io.BytesIO(unpacked.stdout)) as archive:
            # the archive is the repository's own; the filter exists from Python 3.11.4 on
            if hasattr(tarfile, "data_filter"):
                archive.extractall(root, filter="data")
            else:
                archive.extractall(root)
        self._child = subprocess.Popen(
            [sys.executable, "-c", _CHILD],
            cwd=root,
            env={**os.environ, "PYTHONPATH": root},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        atexit.register(self.close)
        running = json.loads(self._answer())
        if Path(running).resolve() != Path(root).resolve():
            self.close()
            raise RuntimeError(f"the old AI imported {running}, not the tree of {commit}")

    @property
    def root(self) -> Path:
        """Where the old commit's ``ai`` and ``rules`` are unpacked (gone once closed)."""
        return Path(self._directory.name)

    @property
    def ended(self) -> bool:
        """Whether the child process has ended."""
        return self._child.poll() is not None

    def _answer(self) -> str:
        assert self._child.stdout is not None
        line = self._child.stdout.readline()
        if not line:
            raise RuntimeError("the old AI's process ended")
        return line

    def choose_move(self, state: State, level: str, seed: int, seconds: float | None = None) -> str:
        """The old AI's move at ``level`` in ``state`` (its own rules replay the moves),
        with ``seconds`` a move instead of the level's own time if given."""
        assert self._child.stdin is not None
        asked = {
            "game": state.game.name,
            "options": dict(state.options),
            "history": list(state.history),
            "level": level,
            "seed": seed,
            "seconds": seconds,
        }
        self._child.stdin.write(json.dumps(asked) + "\n")
        self._child.stdin.flush()
        return json.loads(self._answer())

    def close(self) -> None:
        """End the child and remove the unpacked tree (again: nothing)."""
        if self._child.poll() is None:
            assert self._child.stdin is not None
            self._child.stdin.close()
            try:
                self._child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._child.kill()
                self._child.wait()
        if self._child.stdout is not None:
            self._child.stdout.close()
        self._directory.cleanup()
