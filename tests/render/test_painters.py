"""Games describe their own pictures: one painter per game, declared by the game
(``rules.Plugins``) or registered in its place, and one drawer per board style,
found by the board's class. The rest of ``render`` knows no game."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import render
import render.games
import rules
from render import boards
from render.caption import Swatch, Text
from render.games import Painter
from rules.square import SquareBoard
from tests import tictactoe, tictactoe_painter
from tests.render.helpers import decode, near, pixel

RENDER = Path(render.__file__).parent


class Undeclared(tictactoe.TicTacToe):
    """Tic-tac-toe declaring no painter."""

    plugins = rules.Plugins()


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_a_games_painter_is_found_by_its_name(name):
    module = importlib.import_module(f"render.games.{name}")
    assert render.painter_for(name) is module.PAINTER
    assert render.painter_for(rules.get_game(name)) is module.PAINTER


def test_a_game_without_a_painter_is_drawn_plainly():
    game = Undeclared()
    state = game.replay(["b2", "a1"])
    assert render.painter_for(game) is render.games.PLAIN
    image = decode(render.board_png(state, names={0: "Ann", 1: "Bob"})).convert("RGB")
    palette = render.colors(game)
    assert near(pixel(image, state, "b2"), palette.stones["x"])
    radius = render.board_layout(state).stone_radius
    assert near(pixel(image, state, "a1", dx=0.6 * radius), palette.stones["o"])
    rows = render.caption_text(state, names={0: "Ann", 1: "Bob"})
    assert rows[:3] == [
        "Tic-tac-toe  ·  move 2: a1",
        "● X to move (Ann): place your mark",
        "● X: Ann   ● O: Bob",
    ]


class Neon(Painter):
    """A test game's own look: its colours and a fact line."""

    def colors(self, game, theme):
        return render.theme.colors(
            theme, {"x": (255, 0, 128), "o": (0, 255, 128)}, board=(10, 10, 40)
        )

    def facts(self, state):
        return [Text("Free cells: "), Swatch("x"), Text(f" {len(state.legal_moves())}")]


@pytest.fixture
def neon():
    painter = Neon()
    render.register("tictactoe", painter)
    yield painter
    render.games._PAINTERS.pop("tictactoe")
    render.games.painter_colors.cache_clear()


def test_a_game_defined_elsewhere_declares_its_own_painter():
    assert render.painter_for(tictactoe.GAME) is tictactoe_painter.PAINTER
    state = tictactoe.GAME.replay(["b2", "a1"])
    image = decode(render.board_png(state)).convert("RGB")
    assert near(pixel(image, state, "b2"), (220, 40, 40))


def test_a_registered_painter_takes_the_declared_ones_place(neon):
    state = tictactoe.GAME.replay(["b2", "a1"])
    assert render.painter_for("tictactoe") is neon
    image = decode(render.board_png(state)).convert("RGB")
    assert near(pixel(image, state, "b2"), (255, 0, 128))
    assert near(pixel(image, state, "c3", dx=20, dy=20), (10, 10, 40))
    assert render.caption_text(state)[2] == "Free cells: ● 7"
    gif = decode(render.replay_gif(tictactoe.GAME, {}, ["b2", "a1"]), "GIF")
    assert gif.n_frames == 3


def test_a_board_is_drawn_by_the_style_of_its_class():
    class Go(SquareBoard):
        pass

    board = Go(9)
    assert isinstance(boards.style_for(board), boards.SquareStyle)
    custom = boards.HexStyle()
    boards.register(Go, custom)
    try:
        assert boards.style_for(board) is custom
        assert boards.style_for(SquareBoard.of(9)) is not custom
    finally:
        boards._STYLES.pop(Go)


def source_outside_games() -> dict[str, str]:
    return {path.name: path.read_text() for path in RENDER.glob("*.py")}


def test_only_painters_know_games_by_name():
    names = "|".join(sorted(rules.GAMES))
    for file, source in source_outside_games().items():
        code = re.sub(r'"""[\s\S]*?"""', "", source)  # docstrings may name games
        code = re.sub(r"#.*", "", code)
        assert not re.search(rf"\b({names})\b", code, re.IGNORECASE), file


def test_no_probing_of_states_and_no_board_kinds():
    for file, source in {
        **source_outside_games(),
        **{p.name: p.read_text() for p in (RENDER / "games").glob("*.py")},
    }.items():
        assert "getattr(state" not in source, file
        assert "hasattr(state" not in source, file
        assert ".kind ==" not in source, file
