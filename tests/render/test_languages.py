"""Every kind of picture in every shipped language (German's long words, Japanese
without spaces in the CJK font), as the bot draws them with the shipped catalogues:
every word drawn lies inside the picture, every character has a font (no boxes), and
long sentences wrap rather than run off. Also the check itself: a word drawn off the
picture is caught."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from PIL import Image

import render
import rules
from bot import pictures
from bot.i18n import catalogues, speaking, translated
from bot.learning.docs import guide_card_png
from bot.learning.guide import guide_for
from render import fonts, text
from render.__main__ import example

GAMES = ("asli", "lifeline", "sliglube", "astralis")
NAMES = {0: "Zoë", 1: "山田 🎲"}


@dataclass(frozen=True)
class Drawn:
    words: str
    left: float
    right: float
    width: int


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every string drawn, with where it starts and ends, and the picture's width."""
    found: list[Drawn] = []
    draw = text.draw

    def recording(image: Image.Image, xy: tuple[float, float], words: str, size: int, *a, **k):
        anchor = k.get("anchor", a[1] if len(a) > 1 else "lm")
        wide = text.length(words, size)
        left = xy[0] - (wide / 2 if anchor[0] == "m" else 0)
        found.append(Drawn(words, left, left + wide, image.width))
        draw(image, xy, words, size, *a, **k)

    monkeypatch.setattr(text, "draw", recording)
    yield found


def _inside(found: list[Drawn]) -> None:
    assert found
    for item in found:
        assert item.left >= 0 and item.right <= item.width + 0.5, item
        for char in item.words:  # drawn by a font, never a box or "?"
            assert fonts._joins(char) or fonts._face_of(char, fonts.faces()) is not None, item


def _pictures(theme: str) -> Iterator[bytes]:
    for game in GAMES:
        state = example(rules.get_game(game))
        yield pictures._board_png(state, names=NAMES, theme=theme, marks=True)
        yield pictures._board_png(state, names=NAMES, theme=theme, preview=True)
        guide = guide_for(game)
        for page in guide.pages:
            if page.diagram is not None:
                yield pictures.diagram_png(game, page.diagram, theme)
        yield guide_card_png(guide, 0, theme)
    held = rules.get_game("asli").replay(["komi 3", "white", "c3", "hold"], size=7)
    yield pictures._board_png(held, names=NAMES, theme=theme)
    chances = [0.5, 0.55, 0.6, 0.3, 0.35, 0.8, 0.75, 0.9, 1.0]
    yield pictures.chart_png(chances, NAMES, current=3, theme=theme)
    yield pictures.chart_png(chances, {}, current=3, theme=theme)
    swapped = rules.get_game("lifeline").replay(["c3 e5", "swap"], size=5)
    yield pictures.suggestion_png(swapped, NAMES, "d4 b2", None, theme)
    yield pictures._replay_gif(
        "lifeline", {"size": 5}, ["c3 e5", "swap", "d4 b2", "a1"], names=NAMES, theme=theme
    )


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("locale", ["de", "fr", "es", "pt_BR", "ja"])
def test_every_picture_fits_in_every_language(locale: str, theme: str, drawn: list[Drawn]) -> None:
    with speaking(locale):
        # the catalogue speaks this language in pictures (else this test proves nothing)
        assert all(translated(t) for t in ("Prison: empty", "{color} to move", "In the picture"))
        made = list(_pictures(theme))
    for data in made:
        Image.open(io.BytesIO(data)).verify()
    _inside(drawn)
    said = "".join(item.words for item in drawn)
    to_move = catalogues().text(locale, "{color} to move")
    assert max(to_move.split("{color}"), key=len).strip() in said


def test_japanese_wraps_between_characters_and_german_between_words() -> None:
    assert text.pieces("黒の手番：石を置く") == ["黒", "の", "手", "番：", "石", "を", "置", "く"]
    assert "".join(text.pieces("(山田 wins) 「石」を、置く")) == "(山田 wins) 「石」を、置く"
    assert text.pieces("Gewinnwahrscheinlichkeiten, Zug") == ["Gewinnwahrscheinlichkeiten, ", "Zug"]
    card = render.card.card_image("目的", "あ" * 400, width=300)
    assert card.height > 300  # wrapped into many rows, not one row off the card


def test_the_check_catches_words_off_the_picture(drawn: list[Drawn]) -> None:
    image = Image.new("RGB", (120, 40))
    text.draw(image, (-10, 20), "Zug", 22, (255, 255, 255))  # starts left of the picture
    with pytest.raises(AssertionError):
        _inside(drawn)


def test_japanese_is_drawn_with_the_cjk_font() -> None:
    cjk = [k for k, face in enumerate(fonts.faces()) if "wqy" in face.path.name]
    assert cjk, "the CJK font (paperang-p2-fonts-cjk) is installed"
    runs = fonts.runs("黒の手番：石を置く（未着手）")
    assert [face for face, _ in runs] == cjk[:1]


def test_the_rules_texts_are_said_in_the_pictures_words() -> None:
    from rules.words import Plural, Words

    german = {"{colour} wins": "{colour} gewinnt", "White": "Weiß"}

    def gettext(msgid: str, /, **params: object) -> str:
        return german.get(msgid, msgid).format(**params)

    def ngettext(one: str, many: str, count: int, /, **params: object) -> str:
        return ("ein Gefangener" if count == 1 else "{count} Gefangene").format(count=count)

    with render.speaking(render.Words(gettext, ngettext)):
        assert render.words.spoken(Words("{colour} wins", colour=Words("White"))) == "Weiß gewinnt"
        # a template the catalogue lacks stays English as a whole
        assert render.words.spoken(Words("{colour} resigned", colour=Words("White"))) == (
            "White resigned"
        )
        assert render.words.spoken(Plural("{count} prisoner", "{count} prisoners", 3)) == (
            "3 Gefangene"
        )
        assert render.words.spoken("plain text") == "plain text"
