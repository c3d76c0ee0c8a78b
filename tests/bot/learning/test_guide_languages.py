"""The guide of ``/rules`` in the member's language: its title, paragraphs, footer,
the diagram's caption and the words drawn in the diagram; English for what the
catalogue lacks."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from bot.i18n import catalogues_from, speaking
from bot.learning.commands import LearningCommands
from bot.learning.docs import page_markdown
from bot.learning.guide import guide_for
from bot.pictures import diagram_caption
from tests.bot.conftest import CY
from tests.bot.interactions import invoke
from tests.bot.learning.support import Reader, click
from tests.bot.learning.test_guide import app

GUIDE = guide_for("lifeline")
GOAL = GUIDE.pages[0]
assert GOAL.diagram is not None


def _po(text: str) -> str:
    """``text`` as a .po string (escaped, on one line)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


GERMAN = rf"""
msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgid {_po(GOAL.title)}
msgstr "Das Ziel"

msgid {_po(GOAL.text)}
msgstr "Wer als Letzter einen Stein setzt, gewinnt."

msgid {_po(GOAL.diagram.caption)}
msgstr "Weiß hat keine Steine mehr: Schwarz gewinnt."

msgid "Page {{number}} of {{count}}"
msgstr "Seite {{number}} von {{count}}"

msgid "In the picture"
msgstr "Im Bild"

msgid "move {{number}}:"
msgstr "Zug {{number}}:"

msgid "removed"
msgstr "entfernt"
"""


@pytest.fixture
def german(tmp_path: Path) -> Iterator[None]:
    folder = tmp_path / "de"
    folder.mkdir()
    (folder / "messages.po").write_text(GERMAN, encoding="utf-8")
    with catalogues_from(tmp_path):
        yield


def _picture(reader: Reader) -> bytes:
    return reader.file()[1]


async def _open(page: int = 1) -> Reader:
    reader = Reader(app(), CY)
    await invoke(LearningCommands.rules, LearningCommands(), reader, "lifeline", page)
    return reader


async def test_a_german_member_reads_the_guide_in_german(german: None) -> None:
    english = await _open()
    with speaking("de"):
        reader = await _open()
    embed = reader.answer["embed"]
    assert embed.title == "Lifeline: Das Ziel"
    assert embed.description == "Wer als Letzter einen Stein setzt, gewinnt."
    assert embed.footer.text.startswith("Seite 1 von 6 · ")
    assert [(f.name, f.value) for f in embed.fields] == [
        ("Im Bild", "Weiß hat keine Steine mehr: Schwarz gewinnt.")
    ]
    # the diagram says its words in German too, and is not the English picture
    assert _picture(reader) != _picture(english)
    with Image.open(io.BytesIO(_picture(reader))) as image:
        assert image.size == Image.open(io.BytesIO(_picture(english))).size
    with speaking("de"):
        said = diagram_caption("lifeline", GOAL.diagram)
    assert "Zug 5: f5" in said[0] and "entfernt" in " ".join(said)
    # what the catalogue lacks stays English: the next page's title
    with speaking("de"):
        turned = await click(app(), CY, "bb:guide:lifeline:1")
    assert turned.calls[-1][1]["embed"].title == f"Lifeline: {GUIDE.pages[1].title}"


async def test_the_english_guide_is_unchanged_and_the_docs_follow_the_catalogue(
    german: None,
) -> None:
    reader = await _open()
    assert reader.answer["embed"].title == "Lifeline: The goal"
    german_page = page_markdown(GUIDE, "de")
    assert "## 1. Das Ziel" in german_page and "*Weiß hat keine Steine mehr" in german_page
    assert "## 1. The goal" in page_markdown(GUIDE, "en")
