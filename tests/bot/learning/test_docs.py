"""The player's rules in the repository (docs/rules) are the guides of /rules, with
the same diagrams as pictures: generated, and up to date."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

import render
from bot.learning.docs import GAMES, analysis_pictures, documents, pictures, write_docs

ROOT = Path(__file__).resolve().parents[3]


def test_the_committed_pages_are_the_guides() -> None:
    for path, text in documents().items():
        assert (ROOT / path).read_text(encoding="utf-8") == text, (
            f"{path} is out of date: run python -m bot.learning docs"
        )


def test_every_picture_a_page_shows_is_there_and_is_its_diagram() -> None:
    shown = pictures()
    assert len(shown) >= 20
    for path, (guide, diagram) in shown.items():
        assert f"../images/rules/{path.name}" in (
            ROOT / "docs/rules" / f"{guide.game}.md"
        ).read_text(encoding="utf-8")
        with Image.open(ROOT / path) as image:
            assert image.size == render.image_size(diagram.state(guide.game)), path


def test_the_command_writes_them(tmp_path: Path) -> None:
    written = write_docs(tmp_path, analysis=False)
    cards = {Path(f"docs/images/guide-{game}.png") for game in GAMES}
    assert set(written) == set(documents()) | set(pictures()) | cards
    for card in cards:
        assert (ROOT / card).is_file() and f"../images/{card.name}" in (
            ROOT / "docs/rules/README.md"
        ).read_text(encoding="utf-8")
    assert (tmp_path / "docs/rules/README.md").read_text(encoding="utf-8").count(".md)") == 4


def test_the_analysis_pictures_show_an_analysed_game() -> None:
    pictures_ = analysis_pictures(play=4, think=4)
    assert sorted(path.name for path in pictures_) == [
        "analysis-board.png",
        "analysis-chart-light.png",
        "analysis-chart.png",
    ]
    for path in pictures_:
        assert (ROOT / path).is_file(), f"{path}: run python -m bot.learning docs"
