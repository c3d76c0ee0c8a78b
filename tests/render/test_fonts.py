"""Any name, any script: every character of a caption is drawn with a font that
has it (never the box a font draws for a character it lacks)."""

from __future__ import annotations

from functools import cache

import pytest
from PIL import ImageChops

import render
import rules
from render import fonts, text

NAMES = {
    "accents": "Zoë Ångström-Nuñez",
    "greek": "Αλέξανδρος",
    "cyrillic": "Дмитрий Шостакович",
    "chinese": "山田太郎",
    "japanese": "さくら・ナナ",
    "korean": "김민수",
    "emoji": "🎲 Dice 🐉",
    "emoji sequences": "👨‍👩‍👧 👍🏽 🇫🇷",
    "hebrew": "שלום",
    "arabic": "مرحبا",
    "en dash": "komi (0–169)",
}


@cache
def box(face: int, size: int) -> bytes:
    """What the font draws for a character it does not have: its box."""
    return bytes(fonts.font(face, size).getmask("\U0010fffd"))


@pytest.mark.parametrize("sample", NAMES.values(), ids=NAMES.keys())
def test_every_character_is_drawn_by_a_font_that_has_it(sample):
    found = fonts.faces()
    assert found, "the font packages are not installed"
    runs = fonts.runs(sample)
    assert "".join(run for _, run in runs).replace("\u200d", "").replace(
        "\ufe0f", ""
    ) == sample.replace("\u200d", "").replace("\ufe0f", "")
    for face, run in runs:
        for char in run:
            assert ord(char) in found[face].chars, (char, found[face].path.name)
            if char.isspace() or fonts._joins(char):
                continue
            glyph = bytes(fonts.font(face, 32).getmask(char))
            assert glyph != box(face, 32), (char, found[face].path.name)


def test_a_character_no_font_has_becomes_its_plain_form_or_a_question_mark():
    assert fonts.runs("𝓐𝓷𝓷𝓪") == ((0, "Anna"),)  # mathematical script letters
    assert fonts.runs("a\U000e01efb") == ((0, "ab"),)  # a variation selector nobody draws
    assert fonts.runs("x\U0001e900") == ((0, "x?"),)  # Adlam: in no font shipped


def test_names_in_any_script_reach_the_picture():
    state = rules.get_game("lifeline").replay(["c3 e5"], size=4)
    names = {0: NAMES["greek"] + " " + NAMES["emoji"], 1: NAMES["chinese"]}
    rows = render.caption_text(state, names=names)
    assert f"({NAMES['chinese']})" in rows[1]
    assert names[0] in rows[2]
    # and it is drawn: the caption differs from one with other names there
    other = render.board_image(state, names={0: "x", 1: "y"})
    drawn = render.board_image(state, names=names)
    lay = render.board_layout(state)
    band = (0, 0, lay.width, lay.caption_height)
    assert ImageChops.difference(drawn.crop(band), other.crop(band)).getbbox()


def test_text_of_every_script_is_measured_as_drawn():
    for sample in NAMES.values():
        assert text.length(sample, 32) > 10 * len(fonts.runs(sample))
