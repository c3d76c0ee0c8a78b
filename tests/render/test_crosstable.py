"""The standings pictures: narrow enough for Discord's 440 px preview to keep their
text legible (about 11 px at least), in both themes, nothing drawn past their edges."""

from __future__ import annotations

import pytest

from render.crosstable import SIZE, bracket_image, table_image

PREVIEW = 440


def shown_size(width: int) -> float:
    """The text's height once Discord scales the picture to its preview."""
    return SIZE * min(1.0, PREVIEW / width)


def knockout(players: int) -> list[list[tuple[str, str, int | None]]]:
    sides = [f"Member number {i}" for i in range(1, players + 1)]
    rounds = []
    while len(sides) > 1:
        one = [(sides[i], sides[i + 1], 0) for i in range(0, len(sides), 2)]
        rounds.append(one)
        sides = [a for a, _, _ in one]
    return rounds


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_forty_player_table_by_rounds_reads_at_the_preview_size(theme: str) -> None:
    header = ["#", "Player", *(f"R{r}" for r in range(1, 8)), "Pts", "SB"]
    rows = [
        [str(i), "Alexandrina Featherstonehaugh", *["+40"] * 7, "5½", "12.25"] for i in range(1, 41)
    ]
    image = table_image("A long Swiss of Lifeline", header, rows, theme=theme, highlight=[0])
    assert shown_size(image.width) >= 13
    assert image.height >= 41 * 30  # every row drawn
    background = image.getpixel((0, 0))
    # the margin is empty: no cell runs past the right edge
    assert {image.getpixel((image.width - 2, y)) for y in range(image.height)} == {background}


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_brackets_of_sixteen_read_at_the_preview_size(theme: str) -> None:
    assert shown_size(bracket_image("Cup", knockout(8), theme=theme).width) >= 15
    assert shown_size(bracket_image("Cup", knockout(16), theme=theme).width) >= 11.5
