"""Tournaments: their sign-up, entrants and the games of their rounds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from bot.storage.database import Connection, query
from bot.storage.queries.games import dump
from bot.storage.rows import (
    ChallengeRow,
    EntrantRow,
    GameRow,
    LadderChallengeRow,
    LadderRow,
    LeagueRow,
    RungRow,
    TournamentGameRow,
    TournamentRow,
    stamp,
)


async def insert_tournament(
    conn: Connection,
    *,
    guild_id: int,
    channel_id: int,
    organiser_id: int,
    organiser_name: str,
    name: str,
    format: str,
    rounds: int | None,
    game: str,
    options: dict[str, Any],
    settings: dict[str, Any],
    min_players: int,
    max_players: int,
    starts_at: datetime,
    created_at: datetime,
) -> int:
    return await conn.insert(
        "INSERT INTO tournaments (guild_id, channel_id, organiser_id, organiser_name, name,"
        " format, rounds, game, options, settings, min_players, max_players, starts_at,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            organiser_id,
            organiser_name,
            name,
            format,
            rounds,
            game,
            dump(options),
            dump(settings),
            min_players,
            max_players,
            stamp(starts_at),
            stamp(created_at),
        ),
    )


async def get_tournament(conn: Connection, tournament_id: int) -> TournamentRow | None:
    row = await conn.fetch_one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    return TournamentRow.from_row(row) if row else None


tournament_by_id = query(get_tournament)


async def tournaments_of_guild(
    conn: Connection, guild_id: int, statuses: Sequence[str], *, limit: int = 25
) -> list[TournamentRow]:
    """The newest tournaments of a server in one of ``statuses``."""
    marks = ", ".join("?" for _ in statuses)
    rows = await conn.fetch_all(
        f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN ({marks})"
        " ORDER BY id DESC LIMIT ?",
        (guild_id, *statuses, limit),
    )
    return [TournamentRow.from_row(row) for row in rows]


async def next_tournament_start(conn: Connection) -> datetime | None:
    row = await conn.fetch_one(
        "SELECT MIN(starts_at) FROM tournaments WHERE status = 'signup'",
    )
    return datetime.fromisoformat(row[0]) if row and row[0] else None


async def tournaments_due(conn: Connection, now: datetime) -> list[TournamentRow]:
    """The tournaments whose sign-up is over by ``now`` and that have not started."""
    rows = await conn.fetch_all(
        "SELECT * FROM tournaments WHERE status = 'signup' AND starts_at <= ? ORDER BY id",
        (stamp(now),),
    )
    return [TournamentRow.from_row(row) for row in rows]


async def running_tournaments(conn: Connection) -> list[TournamentRow]:
    rows = await conn.fetch_all("SELECT * FROM tournaments WHERE status = 'running' ORDER BY id")
    return [TournamentRow.from_row(row) for row in rows]


async def stalled_tournaments(conn: Connection) -> list[int]:
    """The running tournaments with a game to play that has not started (its start
    failed, or is under way)."""
    rows = await conn.fetch_all(
        "SELECT DISTINCT tournament_games.tournament_id FROM tournament_games"
        " JOIN tournaments ON tournaments.id = tournament_games.tournament_id"
        " WHERE tournaments.status = 'running' AND tournament_games.game_id IS NULL"
        " AND tournament_games.points IS NULL AND tournament_games.player1_id IS NOT NULL"
        " ORDER BY tournament_games.tournament_id",
    )
    return [row[0] for row in rows]


async def set_tournament_status(
    conn: Connection,
    tournament_id: int,
    *,
    old: str,
    new: str,
    at: datetime | None = None,
    champion_id: int | None = None,
) -> bool:
    """Move the tournament from ``old`` to ``new``; False if it was no longer ``old``."""
    return (
        await conn.change(
            "UPDATE tournaments SET status = ?, finished_at = COALESCE(?, finished_at),"
            " champion_id = COALESCE(?, champion_id) WHERE id = ? AND status = ?",
            (new, None if at is None else stamp(at), champion_id, tournament_id, old),
        )
        == 1
    )


async def next_round(conn: Connection, tournament_id: int, played: int) -> bool:
    """Round ``played`` is over: the next begins; False if another did it first."""
    return (
        await conn.change(
            "UPDATE tournaments SET round = round + 1"
            " WHERE id = ? AND round = ? AND status = 'running'",
            (tournament_id, played),
        )
        == 1
    )


async def set_tournament_post(
    conn: Connection,
    tournament_id: int,
    *,
    message_id: int | None = None,
    thread_id: int | None = None,
) -> None:
    await conn.change(
        "UPDATE tournaments SET message_id = COALESCE(?, message_id),"
        " thread_id = COALESCE(?, thread_id) WHERE id = ?",
        (message_id, thread_id, tournament_id),
    )


# -- entrants -------------------------------------------------------------------------


async def entrants(conn: Connection, tournament_id: int) -> list[EntrantRow]:
    """A tournament's entrants: by seed once it started, else in the order they joined."""
    rows = await conn.fetch_all(
        "SELECT * FROM tournament_entrants WHERE tournament_id = ?"
        " ORDER BY seed, joined_at, member_id",
        (tournament_id,),
    )
    return [EntrantRow.from_row(row) for row in rows]


async def add_entrant(
    conn: Connection,
    tournament_id: int,
    *,
    member_id: int,
    member_name: str,
    joined_at: datetime,
    max_players: int,
) -> bool:
    """Enter the member, if the tournament is still signing up and not full; False if
    not (or already entered)."""
    return (
        await conn.change(
            "INSERT INTO tournament_entrants (tournament_id, member_id, member_name, joined_at)"
            " SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ?"
            " AND status = 'signup') AND (SELECT COUNT(*) FROM tournament_entrants"
            " WHERE tournament_id = ?) < ?"
            " ON CONFLICT (tournament_id, member_id) DO NOTHING",
            (
                tournament_id,
                member_id,
                member_name,
                stamp(joined_at),
                tournament_id,
                tournament_id,
                max_players,
            ),
        )
        == 1
    )


async def remove_entrant(conn: Connection, tournament_id: int, member_id: int) -> bool:
    return (
        await conn.change(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND member_id = ?",
            (tournament_id, member_id),
        )
        == 1
    )


async def seed_entrants(
    conn: Connection, tournament_id: int, seeds: Iterable[tuple[int, int, float]]
) -> None:
    """Fix the seeding: (member, seed, rating)."""
    await conn.change_many(
        "UPDATE tournament_entrants SET seed = ?, rating = ?"
        " WHERE tournament_id = ? AND member_id = ?",
        [(seed, rating, tournament_id, member) for member, seed, rating in seeds],
    )


async def withdraw_entrant(
    conn: Connection, tournament_id: int, member_id: int, at: datetime
) -> bool:
    return (
        await conn.change(
            "UPDATE tournament_entrants SET withdrawn_at = ?"
            " WHERE tournament_id = ? AND member_id = ? AND withdrawn_at IS NULL",
            (stamp(at), tournament_id, member_id),
        )
        == 1
    )


async def member_ratings(
    conn: Connection, guild_id: int, game: str, member_ids: Sequence[int]
) -> dict[int, float]:
    """The members' ratings at ``game`` here (those who have one)."""
    if not member_ids:
        return {}
    marks = ", ".join("?" for _ in member_ids)
    rows = await conn.fetch_all(
        f"SELECT member_id, rating FROM ratings WHERE guild_id = ? AND game = ?"
        f" AND member_id IN ({marks})",
        (guild_id, game, *member_ids),
    )
    return {row[0]: row[1] for row in rows}


# -- the games of the rounds ----------------------------------------------------------


async def insert_tournament_games(
    conn: Connection,
    tournament_id: int,
    games: Iterable[tuple[int, int, int, int, int | None, float | None, bool]],
) -> None:
    """Add games (round, board, replay, player0, player1, points, forfeit); one already
    there (another process added it) is left as it is."""
    await conn.change_many(
        "INSERT INTO tournament_games (tournament_id, round, board, replay, player0_id,"
        " player1_id, points, forfeit) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (tournament_id, round, board, replay) DO NOTHING",
        [(tournament_id, *game[:6], int(game[6])) for game in games],
    )


async def tournament_games(conn: Connection, tournament_id: int) -> list[TournamentGameRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM tournament_games WHERE tournament_id = ? ORDER BY round, board, replay",
        (tournament_id,),
    )
    return [TournamentGameRow.from_row(row) for row in rows]


async def get_tournament_game(conn: Connection, row_id: int) -> TournamentGameRow | None:
    row = await conn.fetch_one("SELECT * FROM tournament_games WHERE id = ?", (row_id,))
    return TournamentGameRow.from_row(row) if row else None


async def link_tournament_game(conn: Connection, row_id: int, game_id: int) -> bool:
    return (
        await conn.change(
            "UPDATE tournament_games SET game_id = ? WHERE id = ? AND game_id IS NULL",
            (game_id, row_id),
        )
        == 1
    )


async def score_tournament_game(
    conn: Connection, row_id: int, points: float, *, forfeit: bool = False
) -> bool:
    """Player 0's points; False if the game was scored already."""
    return (
        await conn.change(
            "UPDATE tournament_games SET points = ?, forfeit = ? WHERE id = ? AND points IS NULL",
            (points, int(forfeit), row_id),
        )
        == 1
    )


async def ended_unscored_games(
    conn: Connection, tournament_id: int
) -> list[tuple[TournamentGameRow, GameRow]]:
    """The tournament's games that ended and are not scored yet, with their game."""
    rows = await conn.fetch_all(
        "SELECT tournament_games.id AS tg_id, games.* FROM tournament_games"
        " JOIN games ON games.id = tournament_games.game_id"
        " WHERE tournament_games.tournament_id = ? AND tournament_games.points IS NULL"
        " AND games.status <> 'active'",
        (tournament_id,),
    )
    found = []
    for row in rows:
        linked = await get_tournament_game(conn, row["tg_id"])
        assert linked is not None
        found.append((linked, GameRow.from_row(row)))
    return found


async def challenges_between(
    conn: Connection, *, guild_id: int, challenger_id: int, opponent_id: int, game: str
) -> list[ChallengeRow]:
    """The challenges, pending or accepted, of one member to another at ``game``,
    newest first (a tournament's game started before a crash is found among them)."""
    rows = await conn.fetch_all(
        "SELECT * FROM challenges WHERE guild_id = ? AND challenger_id = ?"
        " AND opponent_id = ? AND game = ? AND status IN ('pending', 'accepted')"
        " ORDER BY id DESC LIMIT 20",
        (guild_id, challenger_id, opponent_id, game),
    )
    return [ChallengeRow.from_row(row) for row in rows]


async def games_between(
    conn: Connection, *, guild_id: int, member_id: int, other_id: int, game: str | None
) -> list[GameRow]:
    """The finished games of two members against each other here (of ``game``, or
    all), oldest first."""
    which, args = ("", ()) if game is None else (" AND game = ?", (game,))
    rows = await conn.fetch_all(
        "SELECT * FROM games WHERE guild_id = ? AND status = 'finished' AND"
        " ((player0_id = ? AND player1_id = ?) OR (player0_id = ? AND player1_id = ?))"
        f"{which} ORDER BY id",
        (guild_id, member_id, other_id, other_id, member_id, *args),
    )
    return [GameRow.from_row(row) for row in rows]


# -- leagues --------------------------------------------------------------------------


async def insert_league(
    conn: Connection,
    *,
    guild_id: int,
    channel_id: int,
    organiser_id: int,
    organiser_name: str,
    name: str,
    game: str,
    options: dict[str, Any],
    settings: dict[str, Any],
    division_size: int,
    starts_at: datetime,
    created_at: datetime,
) -> int:
    return await conn.insert(
        "INSERT INTO leagues (guild_id, channel_id, organiser_id, organiser_name, name, game,"
        " options, settings, division_size, starts_at, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            organiser_id,
            organiser_name,
            name,
            game,
            dump(options),
            dump(settings),
            division_size,
            stamp(starts_at),
            stamp(created_at),
        ),
    )


async def get_league(conn: Connection, league_id: int) -> LeagueRow | None:
    row = await conn.fetch_one("SELECT * FROM leagues WHERE id = ?", (league_id,))
    return LeagueRow.from_row(row) if row else None


async def leagues_of_guild(conn: Connection, guild_id: int) -> list[LeagueRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM leagues WHERE guild_id = ? ORDER BY id DESC LIMIT 25", (guild_id,)
    )
    return [LeagueRow.from_row(row) for row in rows]


async def leagues_due(conn: Connection, now: datetime) -> list[LeagueRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM leagues WHERE status = 'signup' AND starts_at <= ? ORDER BY id",
        (stamp(now),),
    )
    return [LeagueRow.from_row(row) for row in rows]


async def next_league_start(conn: Connection) -> datetime | None:
    row = await conn.fetch_one("SELECT MIN(starts_at) FROM leagues WHERE status = 'signup'")
    return datetime.fromisoformat(row[0]) if row and row[0] else None


async def running_leagues(conn: Connection) -> list[LeagueRow]:
    rows = await conn.fetch_all("SELECT * FROM leagues WHERE status = 'running' ORDER BY id")
    return [LeagueRow.from_row(row) for row in rows]


async def join_league(
    conn: Connection, league_id: int, *, member_id: int, member_name: str, joined_at: datetime
) -> bool:
    """Enter the member (again, if they had left); False if they are in already."""
    return (
        await conn.change(
            "INSERT INTO league_members (league_id, member_id, member_name, joined_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (league_id, member_id) DO UPDATE SET"
            " left_at = NULL, joined_at = excluded.joined_at,"
            " member_name = excluded.member_name WHERE league_members.left_at IS NOT NULL",
            (league_id, member_id, member_name, stamp(joined_at)),
        )
        == 1
    )


async def leave_league(conn: Connection, league_id: int, member_id: int, at: datetime) -> bool:
    return (
        await conn.change(
            "UPDATE league_members SET left_at = ?"
            " WHERE league_id = ? AND member_id = ? AND left_at IS NULL",
            (stamp(at), league_id, member_id),
        )
        == 1
    )


async def league_members(conn: Connection, league_id: int) -> list[tuple[int, str, datetime]]:
    """The members in the league now: (id, name, joined), in the order they joined."""
    rows = await conn.fetch_all(
        "SELECT member_id, member_name, joined_at FROM league_members"
        " WHERE league_id = ? AND left_at IS NULL ORDER BY joined_at, member_id",
        (league_id,),
    )
    return [(row[0], row[1], datetime.fromisoformat(row[2])) for row in rows]


async def begin_season(conn: Connection, league_id: int, played: int) -> bool:
    """Season ``played`` is over (0: none yet): the next begins; False if another
    process began it first."""
    return (
        await conn.change(
            "UPDATE leagues SET season = season + 1, status = 'running'"
            " WHERE id = ? AND season = ? AND status IN ('signup', 'running')",
            (league_id, played),
        )
        == 1
    )


async def add_division(
    conn: Connection, league_id: int, season: int, division: int, tournament_id: int
) -> None:
    await conn.change(
        "INSERT INTO league_divisions (league_id, season, division, tournament_id)"
        " VALUES (?, ?, ?, ?)",
        (league_id, season, division, tournament_id),
    )


async def divisions(conn: Connection, league_id: int, season: int) -> list[TournamentRow]:
    """A season's divisions' tournaments, the top division first."""
    rows = await conn.fetch_all(
        "SELECT tournaments.* FROM league_divisions JOIN tournaments"
        " ON tournaments.id = league_divisions.tournament_id"
        " WHERE league_divisions.league_id = ? AND league_divisions.season = ?"
        " ORDER BY league_divisions.division",
        (league_id, season),
    )
    return [TournamentRow.from_row(row) for row in rows]


async def league_of_tournament(conn: Connection, tournament_id: int) -> int | None:
    row = await conn.fetch_one(
        "SELECT league_id FROM league_divisions WHERE tournament_id = ?", (tournament_id,)
    )
    return row[0] if row else None


# -- ladders --------------------------------------------------------------------------


async def insert_ladder(
    conn: Connection,
    *,
    guild_id: int,
    channel_id: int,
    organiser_id: int,
    organiser_name: str,
    name: str,
    game: str,
    options: dict[str, Any],
    settings: dict[str, Any],
    answer_days: int,
    created_at: datetime,
) -> int:
    return await conn.insert(
        "INSERT INTO ladders (guild_id, channel_id, organiser_id, organiser_name, name, game,"
        " options, settings, answer_days, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            organiser_id,
            organiser_name,
            name,
            game,
            dump(options),
            dump(settings),
            answer_days,
            stamp(created_at),
        ),
    )


async def get_ladder(conn: Connection, ladder_id: int) -> LadderRow | None:
    row = await conn.fetch_one("SELECT * FROM ladders WHERE id = ?", (ladder_id,))
    return LadderRow.from_row(row) if row else None


async def ladders_of_guild(conn: Connection, guild_id: int) -> list[LadderRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM ladders WHERE guild_id = ? ORDER BY id DESC LIMIT 25", (guild_id,)
    )
    return [LadderRow.from_row(row) for row in rows]


async def rungs(conn: Connection, ladder_id: int) -> list[RungRow]:
    """The ladder's members, top first."""
    rows = await conn.fetch_all(
        "SELECT * FROM ladder_rungs WHERE ladder_id = ? ORDER BY place", (ladder_id,)
    )
    return [RungRow.from_row(row) for row in rows]


async def add_rung(
    conn: Connection, ladder_id: int, *, member_id: int, member_name: str, joined_at: datetime
) -> bool:
    """The member at the bottom; False if already on the ladder."""
    return (
        await conn.change(
            "INSERT INTO ladder_rungs (ladder_id, member_id, member_name, place, joined_at)"
            " SELECT ?, ?, ?, COALESCE(MAX(place), 0) + 1, ? FROM ladder_rungs"
            " WHERE ladder_id = ? ON CONFLICT (ladder_id, member_id) DO NOTHING",
            (ladder_id, member_id, member_name, stamp(joined_at), ladder_id),
        )
        == 1
    )


async def remove_rung(conn: Connection, ladder_id: int, member_id: int) -> bool:
    """The member off the ladder, those below them one place up."""
    row = await conn.fetch_one(
        "SELECT place FROM ladder_rungs WHERE ladder_id = ? AND member_id = ?",
        (ladder_id, member_id),
    )
    if row is None:
        return False
    await conn.change(
        "DELETE FROM ladder_rungs WHERE ladder_id = ? AND member_id = ?", (ladder_id, member_id)
    )
    await conn.change(
        "UPDATE ladder_rungs SET place = place - 1 WHERE ladder_id = ? AND place > ?",
        (ladder_id, row[0]),
    )
    return True


async def climb(conn: Connection, ladder_id: int, member_id: int, to: int) -> None:
    """``member_id`` takes place ``to`` (above theirs): those from there down to their
    old place go one down."""
    row = await conn.fetch_one(
        "SELECT place FROM ladder_rungs WHERE ladder_id = ? AND member_id = ?",
        (ladder_id, member_id),
    )
    if row is None or row[0] <= to:
        return
    await conn.change(
        "UPDATE ladder_rungs SET place = place + 1 WHERE ladder_id = ? AND place >= ?"
        " AND place < ?",
        (ladder_id, to, row[0]),
    )
    await conn.change(
        "UPDATE ladder_rungs SET place = ? WHERE ladder_id = ? AND member_id = ?",
        (to, ladder_id, member_id),
    )


async def insert_ladder_challenge(
    conn: Connection,
    *,
    ladder_id: int,
    challenger_id: int,
    defender_id: int,
    created_at: datetime,
    expires_at: datetime,
) -> int:
    return await conn.insert(
        "INSERT INTO ladder_challenges (ladder_id, challenger_id, defender_id, created_at,"
        " expires_at) VALUES (?, ?, ?, ?, ?)",
        (ladder_id, challenger_id, defender_id, stamp(created_at), stamp(expires_at)),
    )


async def get_ladder_challenge(conn: Connection, row_id: int) -> LadderChallengeRow | None:
    row = await conn.fetch_one("SELECT * FROM ladder_challenges WHERE id = ?", (row_id,))
    return LadderChallengeRow.from_row(row) if row else None


async def ladder_challenges(
    conn: Connection, ladder_id: int, *, open_only: bool = False
) -> list[LadderChallengeRow]:
    which = " AND status = 'open'" if open_only else ""
    rows = await conn.fetch_all(
        f"SELECT * FROM ladder_challenges WHERE ladder_id = ?{which} ORDER BY id",
        (ladder_id,),
    )
    return [LadderChallengeRow.from_row(row) for row in rows]


async def link_ladder_challenge(
    conn: Connection, row_id: int, *, challenge_id: int | None = None, game_id: int | None = None
) -> None:
    await conn.change(
        "UPDATE ladder_challenges SET challenge_id = COALESCE(?, challenge_id),"
        " game_id = COALESCE(?, game_id) WHERE id = ?",
        (challenge_id, game_id, row_id),
    )


async def close_ladder_challenge(conn: Connection, row_id: int, status: str, at: datetime) -> bool:
    """Close an open ladder challenge; False if it was closed already."""
    return (
        await conn.change(
            "UPDATE ladder_challenges SET status = ?, closed_at = ?"
            " WHERE id = ? AND status = 'open'",
            (status, stamp(at), row_id),
        )
        == 1
    )


async def unanswered_ladder_challenges(conn: Connection, now: datetime) -> list[LadderChallengeRow]:
    """The open ladder challenges without a game whose time to answer is up."""
    rows = await conn.fetch_all(
        "SELECT * FROM ladder_challenges WHERE status = 'open' AND game_id IS NULL"
        " AND expires_at <= ? ORDER BY id",
        (stamp(now),),
    )
    return [LadderChallengeRow.from_row(row) for row in rows]


async def next_ladder_expiry(conn: Connection) -> datetime | None:
    row = await conn.fetch_one(
        "SELECT MIN(expires_at) FROM ladder_challenges WHERE status = 'open' AND game_id IS NULL"
    )
    return datetime.fromisoformat(row[0]) if row and row[0] else None


async def competitions_of_member(
    conn: Connection, guild_id: int, member_id: int
) -> list[tuple[str, int, str, str, int | None]]:
    """What a member is in here, as ``/profile`` lists it: (kind, id, name, status,
    place) for each tournament being signed up for or played (not withdrawn from), league
    not left (place: its season) and ladder (place: theirs)."""
    rows = await conn.fetch_all(
        "SELECT 'tournament', t.id, t.name, t.status, t.round FROM tournaments t"
        " JOIN tournament_entrants e ON e.tournament_id = t.id"
        " WHERE t.guild_id = ? AND e.member_id = ? AND e.withdrawn_at IS NULL"
        " AND t.status IN ('signup', 'running')"
        " AND t.id NOT IN (SELECT tournament_id FROM league_divisions)"
        " UNION ALL"
        " SELECT 'league', l.id, l.name, l.status, l.season FROM leagues l"
        " JOIN league_members m ON m.league_id = l.id"
        " WHERE l.guild_id = ? AND m.member_id = ? AND m.left_at IS NULL"
        " AND l.status <> 'stopped'"
        " UNION ALL"
        " SELECT 'ladder', d.id, d.name, 'open', r.place FROM ladders d"
        " JOIN ladder_rungs r ON r.ladder_id = d.id"
        " WHERE d.guild_id = ? AND r.member_id = ?"
        " ORDER BY 1, 2",
        (guild_id, member_id, guild_id, member_id, guild_id, member_id),
    )
    return [(str(r[0]), int(r[1]), str(r[2]), str(r[3]), r[4]) for r in rows]


async def seasons_over(conn: Connection) -> list[tuple[int, datetime]]:
    """The running leagues whose season being played is over (every division finished
    or cancelled), each with the moment its last division finished."""
    rows = await conn.fetch_all(
        "SELECT l.id, MAX(t.finished_at) FROM leagues l"
        " JOIN league_divisions d ON d.league_id = l.id AND d.season = l.season"
        " JOIN tournaments t ON t.id = d.tournament_id"
        " WHERE l.status = 'running'"
        " GROUP BY l.id"
        " HAVING SUM(CASE WHEN t.status IN ('signup', 'running') THEN 1 ELSE 0 END) = 0"
        " ORDER BY l.id"
    )
    return [(int(r[0]), datetime.fromisoformat(r[1])) for r in rows if r[1]]


async def stop_league(conn: Connection, league_id: int) -> bool:
    """The league ends (too few members left for a season); False if it had already."""
    return (
        await conn.change(
            "UPDATE leagues SET status = 'stopped' WHERE id = ? AND status = 'running'",
            (league_id,),
        )
        == 1
    )
