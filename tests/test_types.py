"""The code type-checks: mypy, with the project's configuration (pyproject.toml), finds
nothing in rules, render, ai and bot. A few seconds from a cold cache, well under one
warm."""

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "render", "ai", "bot")


def test_mypy_finds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the packages' module names come from their paths
    out, err, status = api.run(
        [
            *PACKAGES,
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
        ]
    )
    assert status == 0, out + err
