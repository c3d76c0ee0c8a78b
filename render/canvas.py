"""What a painter draws on: the picture being made, with its position, geometry
and colours, and which cells' middles stones, pieces or marks will cover."""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from render import sprites
from render.layout import Layout
from render.theme import Colors
from rules import State


@dataclass
class Canvas:
    image: Image.Image
    state: State
    lay: Layout
    col: Colors
    stones: dict[int, str]  # cell index -> stone colour
    #: cells whose middle a stone, a piece or a mark covers (leave small marks off them)
    covered: set[int] = field(default_factory=set)

    def paste(self, sprite: Image.Image, index: int) -> None:
        """Paste ``sprite`` centred on cell ``index``."""
        sprites.paste(self.image, sprite, self.lay.center(index))
