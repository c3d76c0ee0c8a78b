"""The Discord-like card of the docs: markdown drawn plain, the picture scaled in."""

from __future__ import annotations

import render
import rules
from render.card import BAR, CHAT, card_image, plain
from tests.render.helpers import decode, near


def test_markdown_is_drawn_without_its_marks() -> None:
    assert plain("**Black** plays `c3`, *then*\n- a list item\n\n1. a step") == [
        "Black plays c3, then",
        "• a list item",
        "",
        "1. a step",
    ]


def test_the_card_holds_the_picture_at_its_width() -> None:
    board = render.board_png(rules.get_game("asli").new(size=5))
    plain_card = card_image("Title", "Some words.", theme="light")
    with_picture = card_image(
        "Title", "Some words.", picture=board, note="A note.", footer="Page 1 of 2", theme="light"
    )
    assert plain_card.width == with_picture.width == 600
    assert with_picture.height > plain_card.height + 500
    assert near(with_picture.getpixel((2, 2)), CHAT["light"])
    assert near(with_picture.getpixel((10, with_picture.height // 2)), BAR)
    assert decode(render.card_png("T", "b")).size[0] == 600
