"""The player's rules in the repository (docs/rules) are the guides of /rules, with
the same diagrams as pictures: generated, and up to date."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

import render
from bot.learning.docs import (
    GAMES,
    LOCALES,
    analysis_pictures,
    cards,
    documents,
    pictures,
    write_docs,
)

ROOT = Path(__file__).resolve().parents[3]


def test_the_committed_pages_are_the_guides() -> None:
    for path, text in documents().items():
        assert (ROOT / path).read_text(encoding="utf-8") == text, (
            f"{path} is out of date: run python -m bot.learning docs"
        )


def test_every_picture_a_page_shows_is_there_and_is_its_diagram() -> None:
    shown = pictures()
    assert len(shown) >= 20
    for path, (guide, diagram, locale) in shown.items():
        page = ROOT / "docs/rules" / ("" if locale == "en" else locale) / f"{guide.game}.md"
        assert f"images/rules/{path.relative_to('docs/images/rules')}" in page.read_text(
            encoding="utf-8"
        )
        with Image.open(ROOT / path) as image:
            assert image.size == render.image_size(diagram.state(guide.game)), path


def test_every_guide_is_there_in_every_language() -> None:
    pages = documents()
    for locale in LOCALES:
        folder = Path("docs/rules") if locale == "en" else Path("docs/rules") / locale
        assert {folder / f"{game}.md" for game in GAMES} | {folder / "README.md"} <= set(pages)
        for game in GAMES:  # every picture a page shows is in the repository
            for src in re.findall(r'<img src="([^"]+)"', pages[folder / f"{game}.md"]):
                assert (ROOT / folder / src).resolve().is_file(), (locale, src)
    english = pages[Path("docs/rules/README.md")]
    assert all(f"({locale}/README.md)" in english for locale in LOCALES[1:])


def test_the_command_writes_them(tmp_path: Path) -> None:
    written = write_docs(tmp_path, analysis=False)
    shown = set(cards())
    assert {Path(f"docs/images/guide-{game}.png") for game in GAMES} <= shown
    assert set(written) == set(documents()) | set(pictures()) | shown
    for card in shown:
        assert (ROOT / card).is_file()
    for game in GAMES:
        assert f"../images/guide-{game}.png" in (ROOT / "docs/rules/README.md").read_text(
            encoding="utf-8"
        )
    index = (tmp_path / "docs/rules/README.md").read_text(encoding="utf-8")
    assert all(f"]({game}.md)" in index for game in GAMES)


def test_the_analysis_pictures_show_an_analysed_game() -> None:
    pictures_ = analysis_pictures(play=4, think=4)
    assert sorted(path.name for path in pictures_) == [
        "analysis-board.png",
        "analysis-chart-light.png",
        "analysis-chart.png",
    ]
    for path in pictures_:
        assert (ROOT / path).is_file(), f"{path}: run python -m bot.learning docs"
