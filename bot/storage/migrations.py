"""Schema changes, numbered from 1 by their position in :data:`MIGRATIONS`.

``PRAGMA user_version`` holds the number of the last one applied (PostgreSQL: the
table ``schema_migrations``). Never edit a migration that has shipped: append a new
one. A migration is an SQL script, or a function of the ``sqlite3`` connection when
its data needs Python (it runs inside the migration's transaction; its PostgreSQL
form is in :mod:`bot.storage.pg_migrations`). Timestamps are ISO 8601 text in UTC; Discord ids are
integers; options and bot-side settings are JSON objects.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable

import rules

log = logging.getLogger(__name__)

_V1_CHALLENGES_GAMES_MOVES = """
-- A challenge: posted with buttons, then accepted (-> a game), declined or cancelled.
CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    challenger_id   INTEGER NOT NULL,
    challenger_name TEXT NOT NULL,
    opponent_id     INTEGER,            -- NULL: an open challenge anyone may accept
    opponent_name   TEXT,
    game            TEXT NOT NULL,      -- rules.GAMES key
    options         TEXT NOT NULL,      -- JSON: the engine's options, defaults filled in
    settings        TEXT NOT NULL DEFAULT '{}',  -- JSON: the bot's own choices (first player…)
    status          TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled')),
    game_id         INTEGER REFERENCES games (id),
    created_at      TEXT NOT NULL,
    closed_at       TEXT
);
CREATE INDEX challenges_by_challenger ON challenges (guild_id, challenger_id, status);

-- A game: who plays which seat, where it lives, and how it ended.
CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,   -- where the challenge was posted
    thread_id       INTEGER,            -- the game's thread; NULL: posts go to channel_id
    challenge_id    INTEGER,
    challenge_message_id INTEGER,
    last_message_id INTEGER,            -- the latest board the bot posted
    game            TEXT NOT NULL,
    options         TEXT NOT NULL,
    settings        TEXT NOT NULL DEFAULT '{}',
    player0_id      INTEGER NOT NULL,   -- seat 0 moves first
    player0_name    TEXT NOT NULL,
    player1_id      INTEGER NOT NULL,
    player1_name    TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'finished', 'aborted')),
    result          TEXT,               -- a sentence, e.g. "White wins: Black has no legal move"
    winner_seat     INTEGER CHECK (winner_seat IN (0, 1)),
    end_reason      TEXT CHECK (end_reason IN ('rules', 'resignation', 'timeout', 'abort')),
    created_at      TEXT NOT NULL,
    finished_at     TEXT,
    CHECK (player0_id <> player1_id)
);
CREATE INDEX games_by_guild_status ON games (guild_id, status);
CREATE INDEX games_by_player0 ON games (guild_id, player0_id);
CREATE INDEX games_by_player1 ON games (guild_id, player1_id);
CREATE INDEX games_by_thread ON games (thread_id);

-- One row per move; ply counts from 1. The current position is the replay of these.
CREATE TABLE moves (
    id              INTEGER PRIMARY KEY,
    game_id         INTEGER NOT NULL REFERENCES games (id),
    ply             INTEGER NOT NULL CHECK (ply >= 1),
    move            TEXT NOT NULL,      -- canonical text
    seat            INTEGER NOT NULL CHECK (seat IN (0, 1)),
    member_id       INTEGER NOT NULL,
    played_at       TEXT NOT NULL,
    message_id      INTEGER,            -- the board posted after this move
    UNIQUE (game_id, ply)
);
"""

_V2_RATINGS = """
-- Casual games (a challenge option) are unrated; every earlier game was rated.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));

-- A Glicko-2 rating per member per game per server, with the member's record.
CREATE TABLE ratings (
    guild_id        INTEGER NOT NULL,
    game            TEXT NOT NULL,
    member_id       INTEGER NOT NULL,
    member_name     TEXT NOT NULL,      -- the name at their latest rated game
    rating          REAL NOT NULL,
    deviation       REAL NOT NULL,
    volatility      REAL NOT NULL,
    games           INTEGER NOT NULL DEFAULT 0,
    wins            INTEGER NOT NULL DEFAULT 0,
    losses          INTEGER NOT NULL DEFAULT 0,
    draws           INTEGER NOT NULL DEFAULT 0,
    updated_at      TEXT NOT NULL,
    PRIMARY KEY (guild_id, game, member_id)
);
CREATE INDEX ratings_by_rank ON ratings (guild_id, game, rating DESC);

-- What one rated game did to both players' ratings (at most once per game).
CREATE TABLE rating_changes (
    game_id         INTEGER PRIMARY KEY REFERENCES games (id),
    before0         REAL NOT NULL,
    after0          REAL NOT NULL,
    before1         REAL NOT NULL,
    after1          REAL NOT NULL,
    rated_at        TEXT NOT NULL
);
"""

_V3_CLOCKS = """
-- Each game's clock: the turn running now, the banks, and the next time the
-- dispatcher must look at it (a reminder or the deadline). One task sleeps
-- until the smallest due_at. Timestamps here are fixed-width ISO text (UTC).
CREATE TABLE clocks (
    game_id         INTEGER PRIMARY KEY REFERENCES games (id),
    control         TEXT NOT NULL,      -- "3d", "3d+1d/7d" or "none"
    bank0_seconds   REAL,               -- a bank's time left per seat (NULL: not a bank)
    bank1_seconds   REAL,
    turn_ply        INTEGER NOT NULL,   -- the position's ply when this turn began
    turn_seat       INTEGER CHECK (turn_seat IN (0, 1)),  -- NULL: the game is over
    turn_started_at TEXT NOT NULL,
    reminders_sent  INTEGER NOT NULL DEFAULT 0,  -- this turn's; never more than two
    due_at          TEXT                -- NULL: nothing to do (no limit, or over)
);
CREATE INDEX clocks_by_due ON clocks (due_at);

-- Vacations: while one runs, the member's clocks stop. end_at is planned at the
-- start (the allowance left) and moved earlier when switched off.
CREATE TABLE vacations (
    id              INTEGER PRIMARY KEY,
    member_id       INTEGER NOT NULL,
    start_at        TEXT NOT NULL,
    end_at          TEXT NOT NULL,
    CHECK (end_at >= start_at)
);
CREATE INDEX vacations_by_member ON vacations (member_id, end_at);

-- How a member wants to hear that it is their turn; a digest's next sending.
CREATE TABLE member_prefs (
    member_id       INTEGER PRIMARY KEY,
    notify          TEXT NOT NULL DEFAULT 'thread' CHECK (notify IN ('thread', 'dm', 'digest')),
    digest_due_at   TEXT
);
CREATE INDEX member_prefs_by_digest ON member_prefs (digest_due_at);

-- Requests to take back the last move, answered by the opponent with buttons.
CREATE TABLE takebacks (
    id              INTEGER PRIMARY KEY,
    game_id         INTEGER NOT NULL REFERENCES games (id),
    ply             INTEGER NOT NULL,   -- the move to take back
    requester_id    INTEGER NOT NULL,
    status          TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'accepted', 'declined')),
    created_at      TEXT NOT NULL,
    answered_at     TEXT
);
CREATE INDEX takebacks_by_game ON takebacks (game_id, ply);
"""

# Pending challenges expire (CHALLENGE_EXPIRY_DAYS): a new status. SQLite cannot change
# a CHECK constraint in place, so the table is rebuilt (nothing references it).
_V4_EXPIRED_CHALLENGES = """
CREATE TABLE challenges_v4 (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    challenger_id   INTEGER NOT NULL,
    challenger_name TEXT NOT NULL,
    opponent_id     INTEGER,
    opponent_name   TEXT,
    game            TEXT NOT NULL,
    options         TEXT NOT NULL,
    settings        TEXT NOT NULL DEFAULT '{}',
    status          TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id         INTEGER REFERENCES games (id),
    created_at      TEXT NOT NULL,
    closed_at       TEXT
);
INSERT INTO challenges_v4 SELECT id, guild_id, channel_id, message_id, challenger_id,
    challenger_name, opponent_id, opponent_name, game, options, settings, status, game_id,
    created_at, closed_at FROM challenges;
DROP TABLE challenges;
ALTER TABLE challenges_v4 RENAME TO challenges;
CREATE INDEX challenges_by_challenger ON challenges (guild_id, challenger_id, status);
CREATE INDEX challenges_by_status_age ON challenges (status, created_at);
"""

#: How games end, as rules.Termination words them (frozen here: a new member of
#: Termination needs a new migration widening this CHECK).
_V5_TERMINATIONS = (
    "no-moves",
    "no-stones",
    "stalemate",
    "score",
    "repetition",
    "goal",
    "resignation",
    "timeout",
    "abort",
)


def v5_termination_reached(game_id: int, game: str, options: str, moves: list[str]) -> str | None:
    """The ending a game the rules ended reaches, replayed (None if it cannot be)."""
    try:
        outcome = rules.get_game(game).replay(moves, **json.loads(options)).outcome
    except Exception as error:  # an unknown game, a move no longer legal
        log.warning("game %d cannot be replayed for its ending: %s", game_id, error)
        return None
    return outcome.termination.value if outcome else None


def _v5_terminations(conn: sqlite3.Connection) -> None:
    """``games.end_reason`` takes the words of :class:`rules.Termination`. The old words
    ``resignation``, ``timeout`` and ``abort`` are the same; ``rules`` (any ending by the
    rules) becomes the ending the game's stored moves reach, replayed (NULL for a game
    that cannot be replayed any more)."""
    reached: list[tuple[str | None, int]] = []
    for game_id, game, options in conn.execute(
        "SELECT id, game, options FROM games WHERE end_reason = 'rules'"
    ).fetchall():
        moves = [
            move
            for (move,) in conn.execute(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        ]
        reached.append((v5_termination_reached(game_id, game, options, moves), game_id))
    words = ", ".join(f"'{word}'" for word in _V5_TERMINATIONS)
    conn.execute(f"ALTER TABLE games ADD COLUMN termination TEXT CHECK (termination IN ({words}))")
    conn.execute(
        "UPDATE games SET termination = end_reason"
        " WHERE end_reason IN ('resignation', 'timeout', 'abort')"
    )
    conn.executemany("UPDATE games SET termination = ? WHERE id = ?", reached)
    conn.execute("ALTER TABLE games DROP COLUMN end_reason")
    conn.execute("ALTER TABLE games RENAME COLUMN termination TO end_reason")


# Issue 14. A member's settings (/settings): the theme of the pictures they see, and
# whether /move asks them to confirm. And the posts of a game that carry buttons for
# its play (a decision, a takeback request), so that they can be removed when it ends,
# even when it ended while the bot was down.
_V_MEMBER_SETTINGS_AND_BUTTON_POSTS = """
ALTER TABLE member_prefs ADD COLUMN theme TEXT NOT NULL DEFAULT 'dark'
    CHECK (theme IN ('dark', 'light'));
ALTER TABLE member_prefs ADD COLUMN confirm_moves INTEGER NOT NULL DEFAULT 0
    CHECK (confirm_moves IN (0, 1));
CREATE TABLE button_posts (
    message_id      BIGINT PRIMARY KEY,
    game_id         INTEGER NOT NULL REFERENCES games (id),
    channel_id      BIGINT NOT NULL     -- the channel or thread the message is in
);
CREATE INDEX button_posts_by_game ON button_posts (game_id);
"""

# Issue 16. The AI's estimate of each position of a finished game, stored so that it
# is computed once; and Explore's sandboxes: a member's private moves from a position
# of a game or of a record, which never touch the game.
_V_ANALYSES_AND_SANDBOXES = """
CREATE TABLE analyses (
    game_id         INTEGER NOT NULL REFERENCES games (id),
    ply             INTEGER NOT NULL CHECK (ply >= 0),  -- the position after ply moves
    chance          REAL NOT NULL CHECK (chance >= 0 AND chance <= 1),  -- seat 0 wins
    best_move       TEXT,               -- the AI's move there; NULL once over
    proven          INTEGER NOT NULL DEFAULT 0 CHECK (proven IN (0, 1)),
    playouts        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE sandboxes (
    id              INTEGER PRIMARY KEY,
    member_id       BIGINT NOT NULL,
    game            TEXT NOT NULL,
    options         TEXT NOT NULL,      -- JSON object
    moves           TEXT NOT NULL,      -- JSON list: every move from the start
    opened_at       INTEGER NOT NULL,   -- how many of them came from the source
    source_game_id  INTEGER REFERENCES games (id),  -- NULL: an imported record
    created_at      TEXT NOT NULL
);
CREATE INDEX sandboxes_by_member ON sandboxes (member_id, id);
"""

# The transactional outbox (issue 13): whatever must reach Discord is written in the
# same transaction as the change that causes it, and delivered by one loop, in order
# within its lane, marked done once delivered; nothing is lost to a crash in between.
_V_OUTBOX = """
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    item_key        TEXT NOT NULL UNIQUE,  -- random; the nonce of the item's messages
    lane            TEXT NOT NULL,      -- 'game:12', 'challenge:5': delivered in id order
    kind            TEXT NOT NULL,      -- 'thread', 'post', 'challenge'
    payload         TEXT NOT NULL,      -- JSON: what to deliver
    status          TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'done', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    result          TEXT,               -- JSON: what delivery did so far (a repeat skips it)
    created_at      TEXT NOT NULL,
    done_at         TEXT
);
CREATE INDEX outbox_by_status ON outbox (status, lane, id);
"""


# Several bot processes may share one database (PostgreSQL): a clock's reminder or
# deadline, a digest, a challenge's expiry is done by the one process that claims it,
# and a lane of the outbox is delivered by the one process leasing it.
_V_CLAIMS = """
-- Work that exactly one process must do, claimed by the process doing it until
-- lease_until; a claim whose lease ran out (its process died) may be taken over.
-- Done work stays done. One row per due moment of an item (a game's clock due at
-- 10:00, then at 12:00 …).
CREATE TABLE claims (
    kind            TEXT NOT NULL,      -- 'clock', 'digest', 'expiry'
    item            BIGINT NOT NULL,    -- the game, member or challenge
    due_at          TEXT NOT NULL,      -- stamp() of the due moment claimed
    owner           TEXT NOT NULL,      -- the process holding it, or that did it
    lease_until     TEXT NOT NULL,
    done_at         TEXT,               -- NULL: not done (yet)
    PRIMARY KEY (kind, item, due_at)
);
CREATE INDEX claims_by_due ON claims (due_at);
-- A lane of the outbox (bot/outbox.py: a game's or a challenge's items, delivered in
-- order) is delivered by one process at a time: the one holding its lease, until
-- lease_until or until it has nothing left to deliver there.
CREATE TABLE lane_leases (
    lane            TEXT PRIMARY KEY,   -- 'game:12', 'challenge:5'
    owner           TEXT NOT NULL,      -- the process delivering it
    lease_until     TEXT NOT NULL
);
"""

# The process registry (issue 26): each bot process sharing the database holds a lease
# on its shards for its whole life, renewed by a heartbeat; a second process on the same
# shards is refused, and the others take over the clocks, claims and outbox lanes of one
# whose lease ran out.
_V_PROCESSES = """
-- A running bot process, until lease_until (renewed by its heartbeat): past it, the
-- process is dead, and another takes over its work.
CREATE TABLE processes (
    owner           TEXT PRIMARY KEY,   -- host/pid/tag: this run (the owner of its claims)
    shards          TEXT NOT NULL,      -- its shard set, the owner of its lanes' leases
    shard_count     INTEGER NOT NULL,   -- SHARD_COUNT (1: not sharded)
    started_at      TEXT NOT NULL,
    heartbeat_at    TEXT NOT NULL,
    lease_until     TEXT NOT NULL
);
-- Each of Discord's shards is run by one process at a time (0 when not sharded).
CREATE TABLE shard_leases (
    shard           INTEGER PRIMARY KEY,
    owner           TEXT NOT NULL,      -- processes.owner
    lease_until     TEXT NOT NULL
);
CREATE INDEX lane_leases_by_owner ON lane_leases (owner);
CREATE INDEX claims_by_owner ON claims (owner, done_at);
"""

# Conditional moves and private notes (issue 28): a player's plan of replies in a game,
# kept secret until played, and one note per member per game, shown to its author only.
_V_CONDITIONAL_MOVES_AND_NOTES = """
-- A move played on its player's behalf from their plan is marked (its board says so).
ALTER TABLE moves
    ADD COLUMN conditional INTEGER NOT NULL DEFAULT 0 CHECK (conditional IN (0, 1));
-- A player's tree of replies: for each move of the opponent, one reply and what follows.
CREATE TABLE conditional_plans (
    game_id         INTEGER NOT NULL REFERENCES games (id),
    member_id       BIGINT NOT NULL,    -- the planner, a player of the game
    ply             INTEGER NOT NULL,   -- the tree's first opponent move is move ply + 1
    tree            TEXT NOT NULL,      -- JSON: {opponent move: [reply, {subtree}]}
    updated_at      TEXT NOT NULL,
    PRIMARY KEY (game_id, member_id)
);
CREATE TABLE game_notes (
    game_id         INTEGER NOT NULL REFERENCES games (id),
    member_id       BIGINT NOT NULL,    -- its author, the only one who sees it
    note            TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    PRIMARY KEY (game_id, member_id)
);
"""

# The private notices of conditional moves (a tree cleared, a reply dropped) that no DM
# could carry (closed DMs): each waits for its member's own /board answer.
_V_UNSEEN_PLAN_NOTICES = """
CREATE TABLE plan_notices (
    game_id         INTEGER NOT NULL REFERENCES games (id),
    member_id       BIGINT NOT NULL,    -- the planner, the only one who sees it
    notice          TEXT NOT NULL,      -- the latest one not seen
    created_at      TEXT NOT NULL,
    PRIMARY KEY (game_id, member_id)
);
"""


# Competitions run by the bot (issue 27): tournaments, who entered them, and their
# games (a row per game to play, a bye or a forfeit, each linked to its game).
_V_TOURNAMENTS = """
-- A tournament: sign-up until starts_at (or the organiser starts it), then its rounds.
CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,   -- where it was made: its sign-up post and games
    thread_id       INTEGER,            -- its own thread (announcements)
    message_id      INTEGER,            -- its sign-up post
    organiser_id    INTEGER NOT NULL,
    organiser_name  TEXT NOT NULL,
    name            TEXT NOT NULL,
    format          TEXT NOT NULL
                    CHECK (format IN ('round_robin', 'double_round_robin', 'swiss', 'knockout')),
    rounds          INTEGER,            -- a Swiss's number of rounds
    game            TEXT NOT NULL,      -- rules.GAMES key
    options         TEXT NOT NULL,      -- JSON: the engine's options, defaults filled in
    settings        TEXT NOT NULL DEFAULT '{}',  -- JSON: time control, rated
    min_players     INTEGER NOT NULL,
    max_players     INTEGER NOT NULL,
    starts_at       TEXT NOT NULL,      -- stamp(): the sign-up deadline
    status          TEXT NOT NULL DEFAULT 'signup'
                    CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round           INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: none yet)
    champion_id     INTEGER,
    created_at      TEXT NOT NULL,
    finished_at     TEXT
);
CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
-- A member entered in a tournament; seed and rating are fixed at its start.
CREATE TABLE tournament_entrants (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    member_id       INTEGER NOT NULL,
    member_name     TEXT NOT NULL,
    joined_at       TEXT NOT NULL,
    seed            INTEGER,            -- 0 the strongest
    rating          REAL,
    withdrawn_at    TEXT,
    PRIMARY KEY (tournament_id, member_id)
);
-- A game of a round (player1_id NULL: a bye for player0), a knockout game drawn and
-- replayed being the next ``replay`` of the same board. points: player0's (1, 0.5, 0)
-- once known; forfeit: scored without being played (a withdrawal).
CREATE TABLE tournament_games (
    id              INTEGER PRIMARY KEY,
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    round           INTEGER NOT NULL,
    board           INTEGER NOT NULL,
    replay          INTEGER NOT NULL DEFAULT 0,
    player0_id      INTEGER NOT NULL,
    player1_id      INTEGER,
    game_id         INTEGER REFERENCES games (id),
    points          REAL,
    forfeit         INTEGER NOT NULL DEFAULT 0 CHECK (forfeit IN (0, 1)),
    UNIQUE (tournament_id, round, board, replay)
);
CREATE UNIQUE INDEX tournament_games_by_game ON tournament_games (game_id);
"""


# Leagues (issue 27): seasons of divisions, each division a double round robin (a
# tournament); members stay in from season to season until they leave.
_V_LEAGUES = """
CREATE TABLE leagues (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    organiser_id    INTEGER NOT NULL,
    organiser_name  TEXT NOT NULL,
    name            TEXT NOT NULL,
    game            TEXT NOT NULL,
    options         TEXT NOT NULL,      -- JSON, as a tournament's
    settings        TEXT NOT NULL DEFAULT '{}',  -- JSON: time control, rated
    division_size   INTEGER NOT NULL,   -- 6 to 10
    season          INTEGER NOT NULL DEFAULT 0,  -- the season being played (0: none yet)
    status          TEXT NOT NULL DEFAULT 'signup'
                    CHECK (status IN ('signup', 'running', 'stopped')),
    starts_at       TEXT NOT NULL,      -- stamp(): the first season's start
    created_at      TEXT NOT NULL
);
CREATE INDEX leagues_by_status ON leagues (status, starts_at);
-- A member of a league, from season to season until left_at.
CREATE TABLE league_members (
    league_id       INTEGER NOT NULL REFERENCES leagues (id),
    member_id       INTEGER NOT NULL,
    member_name     TEXT NOT NULL,
    joined_at       TEXT NOT NULL,
    left_at         TEXT,
    PRIMARY KEY (league_id, member_id)
);
-- A season's division (1 the top) and the tournament it plays.
CREATE TABLE league_divisions (
    league_id       INTEGER NOT NULL REFERENCES leagues (id),
    season          INTEGER NOT NULL,
    division        INTEGER NOT NULL,
    tournament_id   INTEGER NOT NULL UNIQUE REFERENCES tournaments (id),
    PRIMARY KEY (league_id, season, division)
);
"""


# Ladders (issue 27): members in places, each challenging up to 3 places above.
_V_LADDERS = """
CREATE TABLE ladders (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    organiser_id    INTEGER NOT NULL,
    organiser_name  TEXT NOT NULL,
    name            TEXT NOT NULL,
    game            TEXT NOT NULL,
    options         TEXT NOT NULL,      -- JSON, as a tournament's
    settings        TEXT NOT NULL DEFAULT '{}',  -- JSON: time control, rated
    answer_days     INTEGER NOT NULL,   -- a challenge unanswered this long is lost
    created_at      TEXT NOT NULL
);
-- A member's place on a ladder (1 the top); places are kept unique by the service,
-- which moves several in one transaction.
CREATE TABLE ladder_rungs (
    ladder_id       INTEGER NOT NULL REFERENCES ladders (id),
    member_id       INTEGER NOT NULL,
    member_name     TEXT NOT NULL,
    place           INTEGER NOT NULL,
    joined_at       TEXT NOT NULL,
    PRIMARY KEY (ladder_id, member_id)
);
-- A challenge up the ladder: its challenge (and game, once accepted), open until won,
-- lost, drawn, forfeited (unanswered in time) or cancelled (a player left).
CREATE TABLE ladder_challenges (
    id              INTEGER PRIMARY KEY,
    ladder_id       INTEGER NOT NULL REFERENCES ladders (id),
    challenger_id   INTEGER NOT NULL,
    defender_id     INTEGER NOT NULL,
    challenge_id    INTEGER REFERENCES challenges (id),
    game_id         INTEGER REFERENCES games (id),
    status          TEXT NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'won', 'lost', 'drawn', 'forfeited', 'cancelled')),
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL,      -- stamp(): unanswered by then, it is forfeited
    closed_at       TEXT
);
CREATE INDEX ladder_challenges_by_status ON ladder_challenges (status, expires_at);
CREATE INDEX ladder_challenges_by_ladder ON ladder_challenges (ladder_id, status);
"""


# One pool of players across servers (issue 29): open challenges to anyone anywhere
# (seeks), the channel of each server where they are posted (its lobby), and ratings
# over every server (filled from the games already rated by Ratings.rebuild_global).
_V_SEEKS_AND_GLOBAL_RATINGS = """
-- A server's lobby: the channel where every open seek is posted.
CREATE TABLE lobbies (
    guild_id        INTEGER PRIMARY KEY,
    channel_id      INTEGER NOT NULL,
    set_by          INTEGER NOT NULL,
    set_at          TEXT NOT NULL
);
-- An open challenge to anyone, anywhere: taken by the first to accept it (its game
-- then starts where both players are), cancelled by its seeker, or expired.
CREATE TABLE seeks (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER,            -- where it was made (NULL: in a DM)
    channel_id      INTEGER,
    seeker_id       INTEGER NOT NULL,
    seeker_name     TEXT NOT NULL,
    game            TEXT NOT NULL,
    options         TEXT NOT NULL,      -- JSON, as a challenge's
    settings        TEXT NOT NULL,      -- JSON: clock, rated, first
    status          TEXT NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'accepted', 'cancelled', 'expired')),
    accepter_id     INTEGER,
    accepter_name   TEXT,
    game_guild_id   INTEGER,            -- where its game is played (once accepted)
    game_channel_id INTEGER,
    challenge_id    INTEGER REFERENCES challenges (id),
    game_id         INTEGER REFERENCES games (id),
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL,      -- stamp()
    closed_at       TEXT
);
CREATE INDEX seeks_by_status ON seeks (status, expires_at);
-- A seek's card in one lobby (its message, once posted).
CREATE TABLE seek_posts (
    seek_id         INTEGER NOT NULL REFERENCES seeks (id),
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    PRIMARY KEY (seek_id, guild_id)
);
-- A Glicko-2 rating per member per game over every server, as ratings is per server.
CREATE TABLE global_ratings (
    game            TEXT NOT NULL,
    member_id       INTEGER NOT NULL,
    member_name     TEXT NOT NULL,
    rating          REAL NOT NULL,
    deviation       REAL NOT NULL,
    volatility      REAL NOT NULL,
    games           INTEGER NOT NULL DEFAULT 0,
    wins            INTEGER NOT NULL DEFAULT 0,
    losses          INTEGER NOT NULL DEFAULT 0,
    draws           INTEGER NOT NULL DEFAULT 0,
    updated_at      TEXT NOT NULL,
    PRIMARY KEY (game, member_id)
);
CREATE INDEX global_ratings_by_rank ON global_ratings (game, rating DESC);
-- What one rated game did to both players' global ratings (at most once per game).
CREATE TABLE global_rating_changes (
    game_id         INTEGER PRIMARY KEY REFERENCES games (id),
    before0         REAL NOT NULL,
    after0          REAL NOT NULL,
    before1         REAL NOT NULL,
    after1          REAL NOT NULL,
    rated_at        TEXT NOT NULL
);
"""

# Issue 30. The language each server speaks (Discord's guild_locale, as last seen: posts
# in its games' threads), and each member's (their locale at their last interaction:
# the DMs they are sent) with the one they chose with /settings language (NULL:
# automatic, their Discord's).
_V_LANGUAGES = """
CREATE TABLE guild_locales (
    guild_id        BIGINT PRIMARY KEY,
    locale          TEXT NOT NULL
);
CREATE TABLE member_locales (
    member_id       BIGINT PRIMARY KEY,
    locale          TEXT,
    chosen          TEXT
);
"""


Migration = str | Callable[[sqlite3.Connection], None]

# Play anywhere (issue 29): a game or a challenge of no server the bot is in lives in its
# members' DMs with the bot (its guild_id is 0, bot.places.DMS). ``link``: where it was
# made (a server without the bot), linked back from each DM. A challenge answered by the
# command itself (``reply``: its card is the interaction's answer) keeps that
# interaction's token until it dies (``reply_until``), to show the card answered; a copy
# of the card sent to the opponent's DMs is ``dm_message_id`` (``dm_channel_id``).
_V_GAME_PLACES = """
ALTER TABLE games ADD COLUMN place TEXT NOT NULL DEFAULT 'server';
ALTER TABLE games ADD COLUMN link TEXT;
ALTER TABLE challenges ADD COLUMN place TEXT NOT NULL DEFAULT 'server';
ALTER TABLE challenges ADD COLUMN link TEXT;
ALTER TABLE challenges ADD COLUMN reply_token TEXT;
ALTER TABLE challenges ADD COLUMN reply_until TEXT;
ALTER TABLE challenges ADD COLUMN dm_channel_id INTEGER;
ALTER TABLE challenges ADD COLUMN dm_message_id INTEGER;
"""

MIGRATIONS: tuple[Migration, ...] = (
    _V1_CHALLENGES_GAMES_MOVES,
    _V2_RATINGS,
    _V3_CLOCKS,
    _V4_EXPIRED_CHALLENGES,
    _v5_terminations,
    _V_MEMBER_SETTINGS_AND_BUTTON_POSTS,
    _V_ANALYSES_AND_SANDBOXES,
    _V_OUTBOX,
    _V_CLAIMS,
    _V_PROCESSES,
    _V_CONDITIONAL_MOVES_AND_NOTES,
    _V_TOURNAMENTS,
    _V_LEAGUES,
    _V_LADDERS,
    _V_UNSEEN_PLAN_NOTICES,
    _V_GAME_PLACES,
    _V_SEEKS_AND_GLOBAL_RATINGS,
    _V_LANGUAGES,
)
