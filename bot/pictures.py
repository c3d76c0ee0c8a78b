"""Pictures for the bot, drawn by :mod:`render` in a worker thread (Pillow is CPU-bound
and must not hold up the event loop): the default :class:`~bot.model.Renderer` and
:class:`~bot.model.Replayer` the composition root gives the services, and what a move
did in words, as its picture marks it."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import render
from bot.model import DEFAULT_THEME
from rules import Outcome, State


async def render_board(state: State, names: Mapping[int, str], *, theme: str = DEFAULT_THEME,
                       outcome: Outcome | None = None) -> bytes | None:
    """The board picture."""
    return await asyncio.to_thread(render.board_png, state, names=dict(names), theme=theme,
                                   outcome=outcome)


async def replay_gif(game: str, options: Mapping, moves: list[str], names: Mapping[int, str],
                     *, theme: str = DEFAULT_THEME, outcome: Outcome | None = None) -> bytes:
    """The animated replay of a whole game."""
    return await asyncio.to_thread(render.replay_gif, game, dict(options), moves,
                                   names=dict(names), theme=theme, outcome=outcome)


def change_summary(state: State) -> str:
    """What the last move did besides placing ("removed 19 white stones, flipped 3";
    "" when it only placed), as the picture marks it. Quick: no drawing."""
    return render.change_summary(state)
