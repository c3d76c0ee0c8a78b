"""What a tournament shows, through the outbox: its sign-up post with Join and Leave
and a thread of its own, then in the thread who joined, the start, each round, and
the champion with the standings and a picture; the h2h record; the pictures in both
themes."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from PIL import Image

from bot.competitions.posts import place
from bot.competitions.service import Tournaments
from bot.competitions.tables import crosstable_rows, round_rows
from bot.pictures import bracket_picture, table_picture
from bot.storage import TournamentGameRow
from tests.bot.competitions.test_service import GAME, ORGANISER, PLAYERS, finish, stronger_wins
from tests.bot.conftest import CHANNEL, GUILD, SMALL, Env


def service(env: Env) -> Tournaments:
    """The tournaments of the bot, posting through its outbox."""
    return env.app.tournaments


@pytest.mark.both_backends
async def test_a_knockouts_posts_from_sign_up_to_champion(env: Env) -> None:
    svc = service(env)
    made = await svc.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organiser=ORGANISER,
        name="Spring knockout",
        format="knockout",
        game=GAME,
        options=SMALL[GAME],
        starts_at=env.clock() + timedelta(days=1),
        min_players=4,
        max_players=4,
    )
    t = await svc.get(GUILD, made.id)
    assert t.message_id is not None and t.thread_id is not None
    assert env.poster.threads[t.thread_id] == "🏆 Spring knockout"
    signup = env.poster.posts_for(-t.id)[0]
    assert signup.actions == (f"tournament:{t.id}",)
    assert "Spring knockout" in signup.content and "Join" in signup.content
    for member in PLAYERS[:4]:
        await svc.join(guild_id=GUILD, tournament_id=t.id, member=member)
    await svc.leave(guild_id=GUILD, tournament_id=t.id, member=PLAYERS[3])
    await svc.join(guild_id=GUILD, tournament_id=t.id, member=PLAYERS[3])
    said = [p.content for p in env.poster.posts_for(-t.id)[1:]]
    assert said[0] == "P0 joined (1 of 4 places taken)."
    assert said[4] == "P3 left (3 of 4 places taken)."
    assert all(sent.where == t.thread_id for sent in env.poster.sent[1:] if sent.game_id == -t.id)
    # The sign-up post counts who joined, shown anew at each join and leave
    counts = [text.split("players, ")[1].split(" so far")[0] for *_, text in env.poster.edited]
    assert counts == ["1", "2", "3", "4", "3", "4"]
    assert {(c, m) for c, m, _ in env.poster.edited} == {(t.channel_id, t.message_id)}
    env.clock.advance(days=1)
    assert await svc.start_due() == [t.id]
    assert (t.channel_id, t.message_id) in env.poster.removed  # Join and Leave go
    seeds = {e.member_id: e.seed for e in await svc.entrants(t.id)}
    for _ in range(2):
        table = await svc.table(GUILD, t.id)
        for g in [g for g in table.games if g.round == table.tournament.round]:
            await finish(env, g, stronger_wins(seeds)(g))
    said = [p.content for p in env.poster.posts_for(-t.id)]
    assert any(s.startswith("**Spring knockout** starts with 4 players") for s in said)
    assert any(s.startswith("**Round 1** of Spring knockout") for s in said)
    [second] = [s for s in said if "**Round 2** of Spring knockout" in s]
    assert second.startswith("Results of round 1:\n- ")
    assert second.count(" 1–0 ") + second.count(" 0–1 ") == 2
    last = env.poster.posts_for(-t.id)[-1]
    assert last.content.startswith("Results of round 2:\n- ")
    assert "🏆 **Spring knockout** is over: **P" in last.content
    assert last.picture is not None and last.picture.startswith(b"\x89PNG")


async def test_the_record_between_two_members(env: Env) -> None:
    from tests.bot.conftest import start_game

    ana, bo = PLAYERS[0], PLAYERS[1]
    for loser in (bo, bo, ana):
        game_id = await start_game(env, GAME, challenger=ana, opponent=bo, **SMALL[GAME])
        await env.moves.resign(guild_id=GUILD, game_id=game_id, member=loser)
    svc = service(env)
    record = await svc.head_to_head(guild_id=GUILD, member_id=ana.id, other_id=bo.id)
    assert record.total == (2, 0, 1) and record.by_game == {GAME: (2, 0, 1)}
    theirs = await svc.head_to_head(guild_id=GUILD, member_id=bo.id, other_id=ana.id, game=GAME)
    assert theirs.total == (1, 0, 2)
    none = await svc.head_to_head(guild_id=GUILD, member_id=ana.id, other_id=PLAYERS[2].id)
    assert none.games == []
    # In words: the totals, by game, and the last games linked to their threads, newest
    # first, each as it went for the member asking
    from bot.competitions.posts import record_text

    text = record_text(record, ana.id, "Bo")
    first, by_game, last = text.splitlines()
    assert first == "**You v Bo**: 2 won, 0 drawn, 1 lost."
    assert by_game.endswith(": 2 won, 0 drawn, 1 lost")
    links = re.findall(r"\[(\w+) #(\d+)\]\(https://discord.com/channels/(\d+)/(\d+)\) (\w+)", last)
    assert [(int(g), how) for _, g, _, _, how in links] == [
        (r.id, how) for r, how in zip(reversed(record.games), ("lost", "won", "won"), strict=True)
    ]
    assert all(int(guild) == GUILD for _, _, guild, _, _ in links)
    assert record_text(none, ana.id, "Cy") == "You haven't finished a game against Cy here yet."


def test_the_place_of_a_tournaments_posts_is_no_game() -> None:
    from bot.storage import TournamentRow

    t = TournamentRow(
        id=5, guild_id=1, channel_id=2, thread_id=None, message_id=None, organiser_id=3,
        organiser_name="O", name="N", format="swiss", rounds=3, game=GAME, options={},
        settings={}, min_players=4, max_players=8, starts_at=None, status="signup",  # type: ignore[arg-type]
        round=0, champion_id=None, created_at=None, finished_at=None,  # type: ignore[arg-type]
    )  # fmt: skip
    row = place(t)
    assert row.id < 0 and not row.is_active and row.where_id == 2


@pytest.mark.parametrize("theme", ["dark", "light"])
async def test_a_forty_player_table_and_a_bracket_are_drawn(theme: str) -> None:
    from bot.competitions.standings import standings

    ids = list(range(1, 41))
    games = [
        TournamentGameRow(
            i, 1, r, b, 0, ids[(b + r) % 40], ids[(b + r + 20) % 40], None, 1.0, False
        )
        for r in range(1, 8)
        for i, b in enumerate(range(20))
    ]
    from bot.competitions.service import byes_of, results_of

    table = standings(dict.fromkeys(ids, 1500.0), results_of(games), byes_of(games))
    names = {i: f"Player number {i}" for i in ids}
    header, rows = round_rows(table, games, names, 7)
    png = await table_picture("A long Swiss", header, rows, theme=theme, highlight=[0])
    image = Image.open(io.BytesIO(png))
    # 11 columns: narrow enough that Discord's 440 px preview keeps its text readable.
    assert image.width <= 900 and len(rows) == 40
    header, rows = crosstable_rows(table[:12], games, names)
    assert len(header) == 12 + 4 and rows[0][2] == "×"
    # The widest crosstable drawn (more players get the table by rounds): a double
    # round robin's two results a cell, long names, still under 900 px
    from bot.competitions.pairing import round_robin
    from bot.competitions.tables import CROSSTABLE_MOST

    most = ids[:CROSSTABLE_MOST]
    both = [
        TournamentGameRow(0, 1, n, b, 0, p.first, p.second, None, 0.5, False)
        for n, one in enumerate(round_robin(most, 2), start=1)
        for b, p in enumerate(one.pairings)
    ]
    header, rows = crosstable_rows(
        standings(dict.fromkeys(most, 1500.0), results_of(both)), both, names
    )
    png = await table_picture("Club: season 2, division 1", header, rows, theme=theme)
    assert rows[0][3] == "½½" and Image.open(io.BytesIO(png)).width <= 900
    bracket = [[("A", "B", 0), ("C", "", 0)], [("A", "C", None)]]
    png = await bracket_picture("Cup", bracket, theme=theme)
    assert Image.open(io.BytesIO(png)).size[0] > 400
