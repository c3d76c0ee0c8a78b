"""Pictures for the bot, drawn by :mod:`render` in a worker thread (Pillow is CPU-bound
and must not hold up the event loop): the default :data:`~bot.model.Renderer` and
:data:`~bot.model.Replayer` the composition root gives the services."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import render
from rules import State


async def render_board(state: State, names: Mapping[int, str]) -> bytes | None:
    """The board picture."""
    return await asyncio.to_thread(render.board_png, state, names=dict(names))


async def replay_gif(game: str, options: Mapping, moves: list[str],
                     names: Mapping[int, str]) -> bytes:
    """The animated replay of a whole game."""
    return await asyncio.to_thread(render.replay_gif, game, dict(options), moves,
                                   names=dict(names))
