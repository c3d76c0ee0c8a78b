"""Whatever ends a game, its final pictures say how: the last board, the replay's last
frame, and the browser's last page are told the ending the position cannot show
(resignation, time, abort); an ending by the rules needs no telling."""

from __future__ import annotations

from collections.abc import Mapping

from bot.review.commands import ReviewCommands
from bot.review.epilogue import Epilogue
from rules import Outcome, Termination
from tests.bot.conftest import ANA, BO, CY, GUILD, Env, start_game
from tests.bot.interactions import invoke
from tests.bot.support import StandIn, play_out
from tests.e2e.driver import PLANS, planned_moves


class Replays:
    """A replayer that remembers the ending each replay was told."""

    def __init__(self) -> None:
        self.told: list[Outcome | None] = []

    async def __call__(
        self,
        game: str,
        options: Mapping,
        moves: list[str],
        names: Mapping[int, str],
        *,
        theme: str = "dark",
        outcome: Outcome | None = None,
    ) -> bytes:
        self.told.append(outcome)
        return b"GIF89a"


def finale(env: Env) -> Replays:
    replays = Replays()
    env.endings.finale = Epilogue(env.db, env.ratings, replayer=replays)
    return replays


async def test_a_resignation_is_in_the_final_board_and_the_replay(env: Env) -> None:
    replays = finale(env)
    game_id = await start_game(env, "astralis", size=7)
    await play_out(env, game_id, ["a6", "m2"])
    await env.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)
    final = env.poster.posts_for(game_id)[-1]
    assert final.picture.endswith(b"[Cyan wins: Yellow resigned]")
    [told] = replays.told
    assert told is not None and told.text == "Cyan wins: Yellow resigned" and told.winner == 1

    last = StandIn(env, CY)  # the browser's last page says it too
    await invoke(ReviewCommands.review, ReviewCommands(), last, str(game_id), None, False)
    assert last.file()[1].endswith(b"[Cyan wins: Yellow resigned]")
    first = StandIn(env, CY)
    await invoke(ReviewCommands.review, ReviewCommands(), first, str(game_id), 0, False)
    assert first.file()[1].endswith(b"ply 0 dark")  # not at the start


async def test_an_abort_is_in_the_final_board(env: Env) -> None:
    replays = finale(env)
    game_id = await start_game(env, "asli", size=5)
    await play_out(env, game_id, ["komi 3"])
    aborted = Outcome(None, Termination.ABORT, "Aborted by Bo before both players had moved")
    await env.endings.end_game(game_id=game_id, outcome=lambda row, state: aborted)
    final = env.poster.posts_for(game_id)[-1]
    assert final.picture.endswith(b"[Aborted by Bo before both players had moved]")
    assert replays.told[0].text.startswith("Aborted by Bo") and replays.told[0].winner is None
    assert BO.name in final.content


async def test_an_ending_by_the_rules_needs_no_telling(env: Env) -> None:
    replays = finale(env)
    options, seed = PLANS["lifeline"]
    game_id = await start_game(env, "lifeline", **options)
    await play_out(env, game_id, planned_moves("lifeline", options, seed))
    assert replays.told == [None]
    assert not env.poster.posts_for(game_id)[-1].picture.endswith(b"]")


async def test_the_winner_is_named_once(env: Env) -> None:
    game_id = await start_game(env, "asli", size=5)
    await play_out(env, game_id, ["komi 3"])  # the colours are not chosen yet
    await env.moves.resign(guild_id=GUILD, game_id=game_id, member=BO)
    final = env.poster.posts_for(game_id)[-1].content
    assert "**Game over.** Ana wins: Bo resigned.\n" in final and final.count("Ana wins") == 1
