"""Each game declares its plug-ins (fast position, AI knowledge, painter, guide) next to
its class; each layer finds them there, and a declaration that points nowhere fails
loudly, naming the game, the kind and what is missing."""

from __future__ import annotations

import pytest

import ai.games
import render.games
import rules
from bot.learning import guide
from rules import PluginError, Plugins
from rules.plugins import KINDS, load
from rules.position import SearchPosition, StatePosition, position
from rules.testing import SMALL_OPTIONS, registry_restored
from tests.tictactoe import TicTacToe


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_every_declared_plugin_loads_with_its_shape(name: str) -> None:
    game = rules.get_game(name)
    assert set(KINDS) == {"fast", "ai", "painter", "guide"}
    state = game.new(**SMALL_OPTIONS[name][0])
    fast = load(game, "fast")
    assert fast is not None and callable(fast)
    made = fast(state)
    assert isinstance(made, SearchPosition) and not isinstance(made, StatePosition)
    assert type(position(state)) is type(made)
    knowledge = load(game, "ai")
    assert knowledge is not None
    assert isinstance(knowledge(state.options), ai.games.Knowledge)
    painter = load(game, "painter", render.games.Painter)
    assert painter is not None and render.games.painter_for(name) is painter
    found = load(game, "guide", guide.Guide)
    assert found is not None and found.game == name and guide.guide_for(name) is found


class Undeclared(TicTacToe):
    name = "undeclared"
    plugins = Plugins()


def test_a_game_that_declares_nothing_gets_every_layers_default() -> None:
    game = Undeclared()
    assert all(load(game, kind) is None for kind in KINDS)
    with registry_restored():
        rules.register(game)
        state = game.new()
        assert isinstance(position(state), StatePosition)
        assert ai.games.knowledge(game, {}) == ai.games.default({})
        assert render.games.painter_for("undeclared") is render.games.PLAIN
        [page] = guide.guide_for("undeclared").pages
        assert page.title == "Tic-tac-toe"


@pytest.mark.parametrize(
    ("kind", "spec", "missing"),
    [
        ("painter", "render.gmaes.tictactoe:PAINTER", "no module 'render.gmaes'"),
        ("painter", "render.games.tictactoe:PAINTER", "no module 'render.games.tictactoe'"),
        ("ai", "ai.games.asli:knowlege", "module 'ai.games.asli' has no 'knowlege'"),
        ("fast", "rules.fast.asli:Position", "module 'rules.fast.asli' has no 'Position'"),
        ("guide", "bot.learning.guides.tictactoe:GUIDE", "no module"),
    ],
)
def test_a_misspelled_plugin_fails_loudly_at_lookup(kind: str, spec: str, missing: str) -> None:
    class Misspelled(TicTacToe):
        name = "misspelled"
        plugins = Plugins(**{kind: spec})

    with registry_restored():
        game = rules.register(Misspelled())
        with pytest.raises(PluginError) as raised:
            load(game, kind)  # type: ignore[arg-type]
        message = str(raised.value)
        assert "misspelled" in message and kind in message and spec in message
        assert missing in message
        assert not isinstance(raised.value, ValueError)  # not mistaken for a player's error
        # and each layer says so too, rather than drawing or playing the default
        layer = {
            "fast": lambda: position(game.new()),
            "ai": lambda: ai.games.knowledge("misspelled", {}),
            "painter": lambda: render.games.painter_for("misspelled"),
            "guide": lambda: guide.guide_for("misspelled"),
        }[kind]
        with pytest.raises(PluginError, match="misspelled"):
            layer()


def test_a_plugin_of_the_wrong_kind_is_refused() -> None:
    class Confused(TicTacToe):
        name = "confused"
        plugins = Plugins(painter="bot.learning.guides.asli:GUIDE")

    with registry_restored():
        rules.register(Confused())
        with pytest.raises(PluginError, match=r"confused's painter plug-in .* not a Painter"):
            render.games.painter_for("confused")


def test_a_declaration_is_module_colon_attribute() -> None:
    with pytest.raises(ValueError, match="module:attribute"):
        Plugins(painter="render.games.asli.PAINTER")
