"""The container example (Dockerfile, compose.yaml, .dockerignore), checked without a
Docker engine (none where it was written): compose.yaml against the Compose
specification's JSON schema (the copy ``check-jsonschema`` ships, offline), and the
Dockerfile against the README's install and start command and the settings the bot
reads. Neither was built or run: the README says so."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "compose.yaml"
DOCKERFILE = ROOT / "Dockerfile"
#: check-jsonschema's own copy of the compose-spec schema (no network needed).
SCHEMA = "vendor.compose-spec"


def load(path: Path) -> dict[str, Any]:
    """A YAML file, read as the schema check reads it (ruamel.yaml, check-jsonschema's)."""
    pytest.importorskip("ruamel.yaml", reason="pip install -e '.[test]'")
    from ruamel.yaml import YAML

    loaded: dict[str, Any] = YAML(typ="safe").load(path.read_text())
    return loaded


def validate(path: Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("check_jsonschema", reason="pip install -e '.[test]'")
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", SCHEMA, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_compose_file_follows_the_compose_specification() -> None:
    checked = validate(COMPOSE)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_schema_check_catches_a_broken_compose_file(tmp_path: Path) -> None:
    broken = load(COMPOSE)
    broken["services"]["bot"]["depends_on"]["db"]["condition"] = "when_it_feels_like_it"
    broken["services"]["bot"]["restart_policy"] = "always"  # not a key of a service
    path = tmp_path / "compose.yaml"
    path.write_text(json.dumps(broken))
    checked = validate(path)
    assert checked.returncode != 0
    assert "when_it_feels_like_it" in checked.stdout + checked.stderr


def test_compose_runs_the_bot_on_postgresql_once_it_is_healthy() -> None:
    compose = load(COMPOSE)
    db, bot = compose["services"]["db"], compose["services"]["bot"]
    assert db["image"] == "postgres:16"
    assert any(v.endswith(":/var/lib/postgresql/data") for v in db["volumes"])
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert bot["env_file"] == [".env"]
    url = bot["environment"]["DATABASE_URL"]
    assert url.startswith("postgresql://boardbot:") and url.endswith("@db:5432/boardbot")
    assert db["environment"]["POSTGRES_USER"] == "boardbot"
    assert db["environment"]["POSTGRES_DB"] == "boardbot"
    assert bot["stop_signal"] == "SIGTERM" and bot["init"] is True
    assert bot["build"] == "."


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continuation lines joined), as (keyword, rest)."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def readme_install_command() -> list[str]:
    """The README's install-and-start command (its first screen)."""
    for line in (ROOT / "README.md").read_text().splitlines():
        if line.strip().startswith("python -m pip install -e . &&"):
            return shlex.split(line.strip())
    raise AssertionError("the README's install command is not where it was")


def test_the_image_installs_and_starts_the_bot_as_the_readme_says() -> None:
    readme = readme_install_command()  # python -m pip install -e . && python -m bot
    split = readme.index("&&")
    install, start = readme[:split], readme[split + 1 :]
    steps = instructions()
    assert steps[0] == ("FROM", "python:3.11-slim")
    runs = [shlex.split(rest) for keyword, rest in steps if keyword == "RUN"]
    installs = [run[: run.index("&&")] if "&&" in run else run for run in runs]
    # The same command, not editable (an image is no checkout), without pip's cache.
    expected = [word for word in install if word != "-e"]
    assert any([w for w in command if w != "--no-cache-dir"] == expected for command in installs), (
        installs
    )
    [cmd] = [json.loads(rest) for keyword, rest in steps if keyword == "CMD"]
    assert cmd == start == ["python", "-m", "bot"]


def test_the_image_runs_as_a_user_stops_cleanly_and_checks_its_health() -> None:
    steps = dict(instructions())  # the last of each keyword
    assert steps["USER"] not in ("root", "0")
    assert steps["STOPSIGNAL"] == "SIGTERM"  # bot/__main__.py: a clean stop
    health = steps["HEALTHCHECK"]
    assert "/healthz" in health and "HEALTH_PORT" in health
    assert "HEALTH_PORT=8080" in steps["ENV"] and steps["EXPOSE"] == "8080"


def test_the_image_copies_every_package_the_project_installs() -> None:
    copied = {
        source
        for keyword, rest in instructions()
        if keyword == "COPY" and not rest.startswith("--")
        for source in rest.split()[:-1]
    }
    packages = {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in ("tests", "bench")
    }
    assert packages <= copied, packages - copied
    assert {"pyproject.toml", "README.md"} <= copied  # pip reads both


def test_the_build_leaves_secrets_and_data_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for kept_out in (".env", ".git", "*.sqlite3"):
        assert kept_out in ignored


def test_every_file_a_package_reads_is_installed_with_it() -> None:
    """A non-editable install (the image's ``pip install .``) takes only the modules
    unless pyproject.toml names the other files: without the catalogues the bot would
    speak only English there. Every non-Python file under the packages is named."""
    import tomllib
    from fnmatch import fnmatch

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = project["tool"]["setuptools"].get("package-data", {})
    tracked = subprocess.run(
        ["git", "ls-files", "bot", "rules", "render", "ai"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    data = [name for name in tracked if not name.endswith(".py")]
    assert data, "no data files found: is this a checkout?"
    left_out = [
        name
        for name in data
        if not any(
            fnmatch(name.split("/", 1)[1], pattern)
            for pattern in declared.get(name.split("/", 1)[0], [])
        )
    ]
    assert left_out == []
