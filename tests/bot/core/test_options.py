"""The autocomplete of a game option (``size``, ``opening``) of /challenge and
/practice, as a member typing sees it."""

from __future__ import annotations

from types import SimpleNamespace

import rules
from bot.core.options import option_values


async def offered(name: str, typed: str, game: str | None = None) -> list[tuple[str, object]]:
    interaction = SimpleNamespace(namespace=SimpleNamespace(game=game))
    choices = await option_values(name)(interaction, typed)  # type: ignore[arg-type]
    return [(choice.name, choice.value) for choice in choices]


async def test_size_before_a_game_is_picked_says_what_each_game_takes() -> None:
    shown = await offered("size", "")
    sized = [g for g in rules.GAMES.values() if any(o.name == "size" for o in g.options())]
    assert len(shown) == len(sized)
    for game, (name, value) in zip(sized, shown, strict=True):
        (size,) = [o for o in game.options() if o.name == "size"]
        assert name.startswith(f"{game.title}: {size.minimum}–{size.maximum}"), name
        assert value == size.default  # picking it is a size that game takes
    assert all(len(name) <= 100 for name, _ in shown)


async def test_a_typed_size_before_a_game_is_picked_names_the_games_that_take_it() -> None:
    shown = await offered("size", "7")
    assert shown[0][1] == 7
    assert "Lifeline" in shown[0][0] and "Sliglube" in shown[0][0]
    assert "Astralis" in shown[0][0] and "Asli" in shown[0][0]
    assert await offered("size", "30") == [("30: no game takes this size", 30)]


async def test_once_a_game_is_picked_its_sizes_are_offered_default_first() -> None:
    shown = await offered("size", "", "sliglube")
    assert shown == [("6 (default)", 6), ("5", 5), ("7", 7)]
