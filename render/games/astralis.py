"""Astralis: yellow and cyan stones and two pawns on a dark hexhex board.
Cells are tinted by who controls them, with a small mark of the controller
(a disc for Yellow, a ring for Cyan, a × where contested) where no stone or
pawn stands; the home edges are drawn in their owner's colour; a pawn is a
large triangle with a light halo, pointing towards the far side. A capture
flips stones, so flipped stones are marked "captured"; bonus stones are
marked as such, and a bonus waiting under a pawn rings it."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import sprites
from render.canvas import Canvas
from render.caption import DETAIL
from render.games import Example, Painter
from render.marks import Mark, Marked
from render.segments import Line, Swatch, Text
from render.theme import RGB, Colors, colors, mix
from render.words import _, aside, color_name, lead
from rules import Game, State
from rules.astralis import AstralisState
from rules.board import Board
from rules.hexhex import CELL_RADIUS, HexBoard

SPACE: RGB = (37, 47, 68)
YELLOW: RGB = (255, 212, 59)  # light: lightness ~87
CYAN: RGB = (16, 152, 173)  # darker: lightness ~57, and cyan stones carry a ring


class AstralisPainter(Painter):
    example = Example(
        {"size": 8},
        seed=2,
        share=0.5,
        wanted=lambda s: bool(s.last_change.flipped or s.last_change.added),
    )

    def colors(self, game: Game, theme: str) -> Colors:
        return colors(
            theme,
            {"yellow": YELLOW, "cyan": CYAN},
            board=SPACE,
            line=(88, 102, 130),
            tint={
                "yellow": mix(SPACE, YELLOW, 0.32),
                "cyan": mix(SPACE, (34, 184, 207), 0.38),
                "contested": mix(SPACE, (200, 200, 210), 0.16),
            },
            symbol={"yellow": YELLOW, "cyan": (102, 217, 232), "contested": (170, 172, 182)},
        )

    def decorate(
        self,
        draw: ImageDraw.ImageDraw,
        board: Board,
        unit: float,
        origin: tuple[float, float],
        col: Colors,
    ) -> None:
        """Home edges: Yellow's along the bottom, Cyan's along the top."""
        assert isinstance(board, HexBoard)
        width = round(max(1.0, 0.032 * unit) * 3)
        for row, color in ((board.rows[0], "yellow"), (board.rows[-1], "cyan")):
            for i in row:
                pts = [(origin[0] + x * unit, origin[1] + y * unit) for x, y in board.corners(i)]
                edge = pts[2:5] if color == "yellow" else [pts[5], pts[0], pts[1]]
                draw.line(edge, fill=col.stones[color], width=width, joint="curve")

    def stone(self, radius: float, col: Colors, color: str) -> Image.Image:
        """Cyan stones carry a ring, so they differ from yellow ones without colour."""
        inner = col.symbol["cyan"] if color == "cyan" else None
        return sprites.disc(radius, col.stones[color], col.outline, inner)

    def facts(self, state: State) -> Line:
        assert isinstance(state, AstralisState)
        line: Line = []
        for i, color in enumerate(state.game.colors):
            if i:
                line.append(Text("   "))
            line += [Swatch(color), Text(f" {color_name(color)} {state.score(color):g}")]
            komi = state.score(color) - state.territory(color)
            if komi:
                line.append(
                    Text(
                        aside(
                            _(
                                "({territory} + {komi} komi)",
                                territory=state.territory(color),
                                komi=format(komi, "g"),
                            ),
                            " ",
                        ),
                        dim=True,
                        spare=DETAIL,
                    )
                )
        for k, (cell, color) in enumerate(state.deferred_bonuses):
            line += [
                Text("   " + lead(_("bonus waiting:")) if k == 0 else ", "),
                Swatch(color),
                Text(f" {cell}"),
            ]
        return line

    def under(self, canvas: Canvas) -> None:
        state, lay, col = canvas.state, canvas.lay, canvas.col
        assert isinstance(state, AstralisState)
        radius = CELL_RADIUS * lay.unit - lay.line_width * 0.9
        pawns = {lay.board.index(cell) for cell in state.pawns.values() if cell}
        canvas.covered |= pawns
        for i, cell in enumerate(lay.board.cells):
            owner = state.control(cell)
            if owner is None:
                continue
            symbol = None if i in canvas.covered else col.symbol[owner]
            canvas.paste(_control_tile(radius, col.tint[owner], owner, symbol, 0.13 * lay.unit), i)

    def over(self, canvas: Canvas) -> None:
        state, lay, col = canvas.state, canvas.lay, canvas.col
        assert isinstance(state, AstralisState)
        for cell, color in state.deferred_bonuses:  # the bonus waits under the opponent's pawn
            halo = sprites.ring(
                lay.stone_radius * 1.08, lay.stone_radius * 0.22, col.stones[color], col.outline
            )
            canvas.paste(halo, lay.board.index(cell))
        for color, at in state.pawns.items():
            if at:
                up = color == state.game.colors[0]
                ship = sprites.pawn(
                    lay.stone_radius * 1.4, col.stones[color], col.outline, col.halo, up
                )
                canvas.paste(ship, lay.board.index(at))

    def changes(self, state: State) -> list[Marked]:
        """A capture turns the opponent's stones into the mover's: "captured", with
        the colour they had."""
        change = state.last_change
        taken = {
            cell: next(c for c in state.game.colors if c != state.stone_at(cell))
            for cell in change.flipped
        }
        return [
            *(Marked(cell, Mark.LAST) for cell in change.placed),
            *(Marked(cell, Mark.CAPTURED, color) for cell, color in taken.items()),
            *(Marked(cell, Mark.BONUS, state.stone_at(cell)) for cell in change.added),
        ]

    def hints(self, state: State) -> list[Marked]:
        """Where the pawn can go (the first cell of every move) and where a stone
        may then be placed (the second)."""
        reach: set[str] = set()
        place: set[str] = set()
        for move in state.legal_moves():
            words = move.split()
            if words[0] in state.board:
                reach.add(words[0])
                place.update(words[1:])
        mover = state.color_to_move
        return [
            *(Marked(cell, Mark.REACH, mover) for cell in state.board.cells if cell in reach),
            *(Marked(cell, Mark.PLACE, mover) for cell in state.board.cells if cell in place),
        ]


@lru_cache(maxsize=64)
def _control_tile(
    radius: float, tint: RGB, owner: str, symbol: RGB | None, mark_radius: float
) -> Image.Image:
    """A cell's tint with, if ``symbol``, the mark of its controller on it: one
    sprite, pasted once, pixel for pixel the two pasted in turn."""
    tile = sprites.hexagon(radius, tint)
    if symbol is None:
        return tile
    if owner == "yellow":
        mark = sprites.disc(mark_radius, symbol)
    elif owner == "cyan":
        mark = sprites.ring(mark_radius * 1.15, mark_radius * 0.45, symbol)
    else:
        mark = sprites.cross(mark_radius, max(1.5, mark_radius * 0.35), symbol)
    colour = tile.convert("RGB")  # paste onto RGBA would blend the alpha channel too
    middle = tile.width // 2 + 0.5
    sprites.paste(colour, mark, (middle, middle))
    colour.putalpha(tile.getchannel("A"))
    return colour


PAINTER = AstralisPainter()
