"""Pictures for the bot, drawn by :mod:`render` in a worker thread (Pillow is CPU-bound
and must not hold up the event loop): the default :class:`~bot.model.Renderer` and
:class:`~bot.model.Replayer` the composition root gives the services, and what a move
did in words, as its picture marks it.

Every picture speaks the current language (:mod:`bot.i18n`): render has no catalogue
of its own, so each drawing here is given :data:`WORDS`, which translates with the
bot's (the worker thread sees the caller's language: ``asyncio.to_thread`` copies
the context)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import ParamSpec, Protocol, TypeVar

import render
from bot.i18n import _, _n, current_locale
from bot.model import DEFAULT_THEME
from render import Mark, Marked
from rules import Outcome, State

T = TypeVar("T")
P = ParamSpec("P")

#: The pictures' words: the bot's catalogue, in the current language.
WORDS = render.Words(_, _n)


def _spoken(draw: Callable[P, T]) -> Callable[P, T]:
    """``draw`` in the current language (render's words for the time of the drawing)."""

    @functools.wraps(draw)
    def spoken(*args: P.args, **kwargs: P.kwargs) -> T:
        with render.speaking(WORDS):
            return draw(*args, **kwargs)

    return spoken


_board_png = _spoken(render.board_png)
_replay_gif = _spoken(render.replay_gif)
_change_summary = _spoken(render.change_summary)
_chart_png = _spoken(render.win_chart_png)
_card_png = _spoken(render.card_png)
_caption_text = _spoken(render.caption_text)
_table_png = _spoken(render.crosstable.table_png)
_bracket_png = _spoken(render.crosstable.bracket_png)


async def render_board(
    state: State,
    names: Mapping[int, str],
    *,
    theme: str = DEFAULT_THEME,
    outcome: Outcome | None = None,
    preview: bool = False,
) -> bytes | None:
    """The board picture; a ``preview`` shows a move not played yet, and says so."""
    return await asyncio.to_thread(
        _board_png, state, names=dict(names), theme=theme, outcome=outcome, preview=preview
    )


async def replay_gif(
    game: str,
    options: Mapping,
    moves: list[str],
    names: Mapping[int, str],
    *,
    theme: str = DEFAULT_THEME,
    outcome: Outcome | None = None,
) -> bytes:
    """The animated replay of a whole game."""
    return await asyncio.to_thread(
        _replay_gif,
        game,
        dict(options),
        moves,
        names=dict(names),
        theme=theme,
        outcome=outcome,
    )


def change_summary(state: State) -> str:
    """What the last move did besides placing ("flipped 3 black stones, then removed 1
    white stone"; "" when it only placed), as the picture marks it. Quick: no drawing."""
    return _change_summary(state)


# -- learning: the guide's diagrams, hints, the AI's analysis --------------------------


class Diagram(Hashable, Protocol):
    """A position to teach with (a guide page's diagram): drawn with the cells of
    ``highlight`` ringed (``ringed``: what the rings mark, for the legend) and, with
    ``hints``, the marks of ``/board marks``."""

    @property
    def highlight(self) -> tuple[str, ...]: ...

    @property
    def ringed(self) -> str: ...

    @property
    def hints(self) -> bool: ...

    def state(self, game: str) -> State: ...


def diagram_png(game: str, diagram: Diagram, theme: str = DEFAULT_THEME) -> bytes:
    """A guide page's diagram: its position, what it points at ringed, and the hints
    of ``/board marks`` if it asks for them (drawn once per page, theme and language)."""
    return _diagram_png(game, diagram, theme, current_locale())


@functools.lru_cache(maxsize=128)
def _diagram_png(game: str, diagram: Diagram, theme: str, locale: str) -> bytes:
    state = diagram.state(game)
    return _board_png(state, theme=theme, marks=diagram.hints, extra=diagram_marks(diagram))


def diagram_marks(diagram: Diagram) -> list[Marked]:
    """The rings of a guide's diagram, with what they mark for the legend (in the
    current language)."""
    label = _(diagram.ringed) if diagram.ringed else None
    return [Marked(cell, Mark.HIGHLIGHT, label=label) for cell in diagram.highlight]


def diagram_caption(game: str, diagram: Diagram) -> list[str]:
    """What the picture of a guide's diagram says, row by row, in the current language
    (quick: nothing is drawn)."""
    state = diagram.state(game)
    return _caption_text(state, marks=diagram.hints, extra=diagram_marks(diagram))


async def render_diagram(game: str, diagram: Diagram, theme: str = DEFAULT_THEME) -> bytes:
    return await asyncio.to_thread(diagram_png, game, diagram, theme)


async def render_hints(state: State, names: Mapping[int, str], theme: str = DEFAULT_THEME) -> bytes:
    """The board with hints for the player to move (``/board marks``)."""
    return await asyncio.to_thread(_board_png, state, names=dict(names), theme=theme, marks=True)


def suggestion_marks(state: State, move: str | None, color: str | None) -> list[Marked]:
    """The AI's ``move`` (played by ``color``) as marks on the cells it names. A mover
    without a colour yet (a pie's first move) places the colour of the stone the move
    that was played placed (the same player's)."""
    if not move:
        return []
    if color is None:
        placed = [state.stone_at(cell) for cell in state.last_change.placed]
        color = next((c for c in placed if c is not None), None)
    return [Marked(word, Mark.SUGGESTED, color) for word in move.split() if word in state.board]


def suggestion_png(
    state: State,
    names: Mapping[int, str],
    move: str | None,
    color: str | None,
    theme: str = DEFAULT_THEME,
) -> bytes:
    """The board after a move, with the move the AI preferred in its place marked."""
    return _board_png(
        state, names=dict(names), theme=theme, extra=suggestion_marks(state, move, color)
    )


async def render_suggestion(
    state: State,
    names: Mapping[int, str],
    move: str | None,
    color: str | None,
    theme: str = DEFAULT_THEME,
) -> bytes:
    return await asyncio.to_thread(suggestion_png, state, names, move, color, theme)


def chart_png(
    chances: Sequence[float | None],
    names: Mapping[int, str],
    *,
    current: int | None = None,
    theme: str = DEFAULT_THEME,
) -> bytes:
    """The line chart of the first player's winning chances over a game."""
    return _chart_png(list(chances), names=dict(names), current=current, theme=theme)


async def render_chart(
    chances: Sequence[float | None],
    names: Mapping[int, str],
    *,
    current: int | None = None,
    theme: str = DEFAULT_THEME,
) -> bytes:
    return await asyncio.to_thread(chart_png, chances, names, current=current, theme=theme)


def biggest_swings(chances: Sequence[float | None], count: int = 3) -> list[int]:
    """The moves after which the chances changed the most (the ones the chart marks)."""
    return render.biggest_swings(chances, count)


def card_png(
    title: str,
    text: str,
    *,
    picture: bytes | None,
    note: str,
    footer: str,
    theme: str = DEFAULT_THEME,
) -> bytes:
    """A card as Discord shows an embed: title, text, picture, note and footer."""
    return _card_png(title, text, picture=picture, note=note, footer=footer, theme=theme)


# -- competitions: standings tables and brackets ------------------------------------


async def table_picture(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    theme: str = DEFAULT_THEME,
    highlight: Sequence[int] = (),
) -> bytes:
    """A table of text cells (a tournament's crosstable), legible at Discord's preview
    size; column 1 holds the names."""
    return await asyncio.to_thread(
        _table_png, title, header, rows, theme=theme, highlight=highlight
    )


async def bracket_picture(
    title: str,
    rounds: Sequence[Sequence[tuple[str, str, int | None]]],
    *,
    theme: str = DEFAULT_THEME,
) -> bytes:
    """A knockout bracket: each round's matches (two names, the winner's side)."""
    return await asyncio.to_thread(_bracket_png, title, rounds, theme=theme)
