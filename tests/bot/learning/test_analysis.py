"""The AI's analysis of finished games: queued when a game ends (never holding up the
move that ended it), computed one position at a time, stored once, resumed after a
restart, refused for games in progress; and the Analysis view of ``/review``."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import rules
from ai import Analysis, Budget
from ai.levels import CAP_FACTOR, RATES
from bot.learning.analysis import Analyses
from bot.learning.views import AnalysisButton
from bot.model import UserError
from bot.services import Services
from bot.shards import Shards, shard_of
from bot.storage import queries
from tests.bot.conftest import ANA, BO, CY, GUILD, Env, start_game
from tests.bot.fakes import InProcessAI
from tests.bot.learning.support import analysed, click
from tests.bot.support import play_out
from tests.e2e.driver import PLANS, planned_moves
from tests.timing import seconds

#: The same on either database (what they store: analyses, sandboxes, settings).
pytestmark = pytest.mark.both_backends

TINY = InProcessAI.TINY


async def finished(env: Env, game: str = "asli") -> tuple[int, list[str]]:
    options, seed = PLANS[game]
    moves = planned_moves(game, options, seed)
    game_id = await start_game(env, game, **options)
    await play_out(env, game_id, moves)
    return game_id, moves


def analyses(env: Env, thinker: InProcessAI) -> Analyses:
    found = Analyses(env.db, env.games, thinker, budget=TINY)
    env.events.subscribe(found)
    return found


@pytest.mark.parametrize("game", ["asli", "lifeline", "astralis"])
async def test_a_finished_game_is_analysed_once_with_a_legal_move_at_every_ply(
    env: Env, game: str
) -> None:
    thinker = InProcessAI()
    analyst = analyses(env, thinker)
    await analyst.start()
    game_id, moves = await finished(env, game)
    await analysed(analyst, game_id)
    stored = await env.db.read(queries.analyses_of_game(game_id))
    assert [row.ply for row in stored] == list(range(len(moves) + 1))
    assert len(thinker.asked) == len(moves) + 1
    state = rules.get_game(game).new(**PLANS[game][0])
    for row, move in zip(stored, [*moves, None], strict=True):
        assert 0 <= row.chance <= 1
        if move is None:  # the end: no move, and the result is certain
            assert row.best_move is None and row.proven
            assert row.chance == (1.0 if state.winner == 0 else 0.0)
        else:
            assert row.best_move in state.legal_moves(), (row.ply, row.best_move)
            state = state.play(move)
    assert await analyst.analyse_game(game_id) == 0  # computed once
    assert len(thinker.asked) == len(moves) + 1  # the AI not asked again
    await analyst.stop()


class Recording(InProcessAI):
    """Records the budget each position is asked with, and thinks with the tiny one."""

    def __init__(self) -> None:
        super().__init__()
        self.budgets: list[Budget] = []

    async def analyse(  # type: ignore[override]
        self,
        game_name: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        budget: Budget,
        seed: int | None = None,
    ) -> Analysis:
        self.budgets.append(budget)
        return await super().analyse(game_name, options, moves, TINY, seed)


@pytest.mark.parametrize("game", ["lifeline", "astralis"])
async def test_each_position_is_analysed_with_work_not_wall_time(env: Env, game: str) -> None:
    """The bot's analysis asks for playouts (half a second's work on an idle core, the
    game's own rate), so a busy host analyses as well as an idle one; time only caps it,
    well above what the work takes."""
    thinker = Recording()
    analyst = Analyses(env.db, env.games, thinker)  # the bot's own budget
    env.events.subscribe(analyst)
    await analyst.start()
    game_id, moves = await finished(env, game)
    await analysed(analyst, game_id)
    await analyst.stop()
    assert len(thinker.budgets) == len(moves) + 1
    [budget] = set(thinker.budgets)
    assert budget.playouts == round(0.5 * RATES["medium"][game], -1)
    assert budget.seconds is not None and budget.seconds >= CAP_FACTOR * 0.5


async def test_a_size_with_rates_of_its_own_is_analysed_with_its_own_playouts(env: Env) -> None:
    """Asli 9's playouts cost less than 13's, so its analysis asks for more of them."""
    thinker = Recording()
    analyst = Analyses(env.db, env.games, thinker)
    env.events.subscribe(analyst)
    await analyst.start()
    moves = planned_moves("asli", {"size": 9}, 0)[:4]
    game_id = await start_game(env, "asli", size=9)
    await play_out(env, game_id, moves)
    await env.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)
    await analysed(analyst, game_id)
    await analyst.stop()
    assert len(thinker.budgets) == len(moves) + 1
    [budget] = set(thinker.budgets)
    assert budget.playouts == round(0.5 * RATES["medium"]["asli 9"], -1)
    assert budget.playouts != round(0.5 * RATES["medium"]["asli"], -1)


async def test_the_move_that_ends_a_game_never_waits_for_the_ai(env: Env) -> None:
    thinker = InProcessAI()
    thinker.gate = asyncio.Event()  # the AI thinks forever
    analyst = analyses(env, thinker)
    await analyst.start()
    # every move is answered, the last one too, while the AI thinks (were a move to wait
    # for it, this would never return)
    game_id, _ = await asyncio.wait_for(finished(env), timeout=seconds(60))
    row = await env.games.get_game(GUILD, game_id)
    assert row.status == "finished"
    await asyncio.wait_for(thinker.started.wait(), timeout=seconds(60))
    assert thinker.asked == [("asli", 0)]  # thinking about the first position, still
    thinker.gate.set()
    await analysed(analyst, game_id)  # once the AI answers
    await analyst.stop()


async def test_a_restart_finishes_what_was_started(env: Env) -> None:
    thinker = InProcessAI()
    analyst = analyses(env, thinker)
    game_id, moves = await finished(env)  # the game ended while nothing analysed
    await analyst.start()
    await analysed(analyst, game_id)
    first = len(thinker.asked)
    async with env.db.transaction() as tx:  # as if the bot had stopped half-way
        await tx.change("DELETE FROM analyses WHERE game_id = ? AND ply >= 3", (game_id,))
    again = Analyses(env.db, env.games, thinker, budget=TINY)
    await again.start()
    await analysed(again, game_id)
    assert [n for _, n in thinker.asked[first:]] == list(range(3, len(moves) + 1))
    await again.stop()
    await analyst.stop()


async def test_a_restart_resumes_the_analyses_of_its_own_servers_only(env: Env) -> None:
    """Of processes on the two shards of one database, the one serving the game's
    server finishes its analysis; the other leaves it alone."""
    thinker = InProcessAI()
    older, older_moves = await finished(env, "lifeline")  # never analysed: not resumed
    analyst = analyses(env, thinker)
    game_id, moves = await finished(env)
    await analyst.start()
    await analysed(analyst, game_id)
    await analyst.stop()
    async with env.db.transaction() as tx:  # as if the bot had stopped half-way
        await tx.change("DELETE FROM analyses WHERE game_id = ? AND ply >= 3", (game_id,))
    asked = len(thinker.asked)
    mine = shard_of(GUILD, 2)
    elsewhere = Analyses(env.db, env.games, thinker, budget=TINY, shards=Shards(2, (1 - mine,)))
    await elsewhere.start()
    # one worker, in order: what its start queued is analysed before a game asked after
    elsewhere.request(older)
    await analysed(elsewhere, older)
    await elsewhere.stop()
    assert thinker.asked[asked:] == [("lifeline", n) for n in range(len(older_moves) + 1)]
    asked = len(thinker.asked)
    again = Analyses(env.db, env.games, thinker, budget=TINY, shards=Shards(2, (mine,)))
    await again.start()
    await analysed(again, game_id)
    await again.stop()
    assert [n for _, n in thinker.asked[asked:]] == list(range(3, len(moves) + 1))


async def test_a_game_in_progress_is_not_analysed(env: Env) -> None:
    thinker = InProcessAI()
    analyst = analyses(env, thinker)
    game_id = await start_game(env, "asli", size=5)
    with pytest.raises(UserError, match="once it is over"):
        await analyst.of_game(guild_id=GUILD, game_id=game_id)
    await analyst.start()
    assert await env.db.read(queries.games_to_analyse()) == []  # not queued at start-up
    assert await analyst.analyse_game(game_id) == 0  # nor analysed if it were
    assert thinker.asked == []
    assert await env.db.read(queries.analyses_of_game(game_id)) == []
    await analyst.stop()


class App:
    """The services the Analysis view uses."""

    def __init__(self, env: Env, analyst: Analyses) -> None:
        self.services = Services(analyst, env.settings, env.games)


async def test_the_analysis_view_shows_the_chart_and_the_ais_move(env: Env) -> None:
    thinker = InProcessAI()
    analyst = analyses(env, thinker)
    await analyst.start()
    game_id, moves = await finished(env)
    await analysed(analyst, game_id)
    app = App(env, analyst)
    opened = await click(
        app, CY, f"bb:analysis:{game_id}:3:open", items=(AnalysisButton,), ephemeral=False
    )
    [(_, deferred), (kind, sent)] = opened.calls
    assert deferred == {"ephemeral": True, "thinking": True} and kind == "followup"
    assert sent["ephemeral"] is True
    assert [f.filename for f in sent["files"]] == [
        f"asli-{game_id}-3-chart.png",
        f"asli-{game_id}-3.png",
    ]
    stored = {row.ply: row for row in await env.db.read(queries.analyses_of_game(game_id))}
    preferred = stored[2].best_move
    said = sent["content"]
    assert f"Move 3 of {len(moves)}" in said and f"played `{moves[2]}`" in said
    assert ("the AI agrees" if preferred == moves[2] else f"the AI preferred `{preferred}`") in said
    custom_ids = [child.custom_id for child in sent["view"].children]
    assert custom_ids == [
        f"bb:analysis:{game_id}:3:{kind}" for kind in ("first", "prev", "next", "last")
    ] + [f"bb:explore:{game_id}:3"]
    turned = await click(app, CY, custom_ids[2], items=(AnalysisButton,))  # ▶, in place
    [(_, deferred), (kind, edit)] = turned.calls
    assert deferred == {} and kind == "edit" and f"Move 4 of {len(moves)}" in edit["content"]
    assert edit["attachments"][0].filename == f"asli-{game_id}-4-chart.png"


async def test_the_analysis_view_of_a_game_in_progress_is_refused(env: Env) -> None:
    analyst = analyses(env, InProcessAI())
    game_id = await start_game(env, "asli", size=5)
    refused = await click(
        App(env, analyst), BO, f"bb:analysis:{game_id}:0:open", items=(AnalysisButton,)
    )
    assert "once it is over" in refused.answer["content"]


async def test_the_pool_of_worker_processes_analyses_too(env: Env) -> None:
    from ai.pool import AIPool

    async with AIPool(workers=1) as pool:
        analyst = Analyses(env.db, env.games, pool, budget=TINY)
        env.events.subscribe(analyst)
        await analyst.start()
        game_id, moves = await finished(env, "lifeline")
        await analysed(analyst, game_id)
        await analyst.stop()
    stored = await env.db.read(queries.analyses_of_game(game_id))
    assert len(stored) == len(moves) + 1


async def test_an_old_game_is_analysed_when_someone_asks(env: Env) -> None:
    game_id, moves = await finished(env)
    thinker = InProcessAI()
    later = analyses(env, thinker)  # the bot of a later version
    await later.start()
    # one worker, in order: had its start queued the old game, the AI would have been
    # asked about it before a game ended since is analysed
    since, since_moves = await finished(env, "lifeline")
    await analysed(later, since)
    assert thinker.asked == [("lifeline", n) for n in range(len(since_moves) + 1)]
    asked = len(thinker.asked)
    found = await later.of_game(guild_id=GUILD, game_id=game_id)
    assert not found.complete and found.chances() == [None] * (len(moves) + 1)
    await analysed(later, game_id)
    found = await later.of_game(guild_id=GUILD, game_id=game_id)
    assert found.complete and len(thinker.asked) == asked + len(moves) + 1
    await later.stop()
