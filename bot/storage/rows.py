"""Rows of the database as small immutable value objects, built from the rows the
named queries read. Timestamps are ISO 8601 text in UTC (:func:`stamp`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.storage.database import Row
from rules import Termination


def _json(text: str | None) -> dict[str, Any]:
    return json.loads(text) if text else {}


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _instant(text: str) -> datetime:
    """A timestamp of a ``NOT NULL`` column."""
    return datetime.fromisoformat(text)


def _seconds(value: float | None) -> timedelta | None:
    return None if value is None else timedelta(seconds=value)


def stamp(moment: datetime) -> str:
    """A timestamp as fixed-width ISO text in UTC, so that ``ORDER BY`` and ``MIN`` on it
    compare instants correctly (the clocks, vacations, preferences and takebacks)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    challenger_id: int
    challenger_name: str
    opponent_id: int | None
    opponent_name: str | None
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    status: str
    game_id: int | None
    created_at: datetime
    closed_at: datetime | None
    #: Where its card is: ``server`` (posted in its channel), ``dms`` (sent to the
    #: opponent's DMs) or ``reply`` (the answer to the command, in a server without the
    #: bot or a group DM; with a copy in the opponent's DMs). Not ``server``: guild_id 0.
    place: str = "server"
    #: A link back to where it was made, or None.
    link: str | None = None
    #: The token of the interaction whose answer is the card (``reply``), and when it dies.
    reply_token: str | None = None
    reply_until: datetime | None = None
    #: The copy of the card in the opponent's DMs.
    dm_channel_id: int | None = None
    dm_message_id: int | None = None

    @classmethod
    def from_row(cls, row: Row) -> ChallengeRow:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            message_id=row["message_id"],
            challenger_id=row["challenger_id"],
            challenger_name=row["challenger_name"],
            opponent_id=row["opponent_id"],
            opponent_name=row["opponent_name"],
            game=row["game"],
            options=_json(row["options"]),
            settings=_json(row["settings"]),
            status=row["status"],
            game_id=row["game_id"],
            created_at=_instant(row["created_at"]),
            closed_at=_time(row["closed_at"]),
            place=row["place"],
            link=row["link"],
            reply_token=row["reply_token"],
            reply_until=_time(row["reply_until"]),
            dm_channel_id=row["dm_channel_id"],
            dm_message_id=row["dm_message_id"],
        )


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    challenge_id: int | None
    challenge_message_id: int | None
    last_message_id: int | None
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    player_ids: tuple[int, int]
    player_names: tuple[str, str]
    status: str
    result: str | None
    winner_seat: int | None
    #: How the game ended (None while it goes on).
    end_reason: Termination | None
    created_at: datetime
    finished_at: datetime | None
    #: False for a casual game, which never changes ratings.
    rated: bool = True
    #: Where it lives: ``server`` (a thread or channel of its server) or ``dms`` (each
    #: player's DM with the bot; its guild_id is 0).
    place: str = "server"
    #: A link back to where it was made (a server without the bot), or None.
    link: str | None = None

    @property
    def in_dms(self) -> bool:
        return self.place == "dms"

    @property
    def is_active(self) -> bool:
        return self.status == "active"

    @property
    def where_id(self) -> int:
        """The channel or thread where the game's posts go."""
        return self.thread_id or self.channel_id

    def seat_of(self, member_id: int) -> int | None:
        """The seat ``member_id`` plays, or None for a spectator."""
        if member_id == self.player_ids[0]:
            return 0
        if member_id == self.player_ids[1]:
            return 1
        return None

    def player_seat(self, member_id: int) -> int:
        """The seat of ``member_id``, whom the caller knows to be a player of this game."""
        seat = self.seat_of(member_id)
        if seat is None:
            raise LookupError(f"member {member_id} does not play game #{self.id}")
        return seat

    def opponent_name(self, member_id: int) -> str:
        """The name of the opponent of ``member_id``, a player of this game."""
        return self.player_names[1 - self.player_seat(member_id)]

    @classmethod
    def from_row(cls, row: Row) -> GameRow:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            thread_id=row["thread_id"],
            challenge_id=row["challenge_id"],
            challenge_message_id=row["challenge_message_id"],
            last_message_id=row["last_message_id"],
            game=row["game"],
            options=_json(row["options"]),
            settings=_json(row["settings"]),
            player_ids=(row["player0_id"], row["player1_id"]),
            player_names=(row["player0_name"], row["player1_name"]),
            status=row["status"],
            result=row["result"],
            winner_seat=row["winner_seat"],
            end_reason=Termination(row["end_reason"]) if row["end_reason"] else None,
            created_at=_instant(row["created_at"]),
            finished_at=_time(row["finished_at"]),
            rated=bool(row["rated"]),
            place=row["place"],
            link=row["link"],
        )


@dataclass(frozen=True, slots=True)
class MoveRow:
    game_id: int
    ply: int
    move: str
    seat: int
    member_id: int
    played_at: datetime
    message_id: int | None
    #: Played on its player's behalf, from their conditional moves.
    conditional: bool = False

    @classmethod
    def from_row(cls, row: Row) -> MoveRow:
        return cls(
            game_id=row["game_id"],
            ply=row["ply"],
            move=row["move"],
            seat=row["seat"],
            member_id=row["member_id"],
            played_at=_instant(row["played_at"]),
            message_id=row["message_id"],
            conditional=bool(row["conditional"]),
        )


@dataclass(frozen=True, slots=True)
class ClockRow:
    game_id: int
    control: str
    banks: tuple[timedelta | None, timedelta | None]
    turn_ply: int
    turn_seat: int | None
    turn_started_at: datetime
    reminders_sent: int
    due_at: datetime | None

    @classmethod
    def from_row(cls, row: Row) -> ClockRow:
        return cls(
            game_id=row["game_id"],
            control=row["control"],
            banks=(_seconds(row["bank0_seconds"]), _seconds(row["bank1_seconds"])),
            turn_ply=row["turn_ply"],
            turn_seat=row["turn_seat"],
            turn_started_at=_instant(row["turn_started_at"]),
            reminders_sent=row["reminders_sent"],
            due_at=_time(row["due_at"]),
        )


@dataclass(frozen=True, slots=True)
class VacationRow:
    id: int
    member_id: int
    start_at: datetime
    end_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> VacationRow:
        return cls(row["id"], row["member_id"], _instant(row["start_at"]), _instant(row["end_at"]))


@dataclass(frozen=True, slots=True)
class TakebackRow:
    id: int
    game_id: int
    ply: int
    requester_id: int
    status: str

    @classmethod
    def from_row(cls, row: Row) -> TakebackRow:
        return cls(row["id"], row["game_id"], row["ply"], row["requester_id"], row["status"])


@dataclass(frozen=True, slots=True)
class RatingRow:
    guild_id: int
    game: str
    member_id: int
    member_name: str
    rating: float
    deviation: float
    volatility: float
    games: int
    wins: int
    losses: int
    draws: int

    @classmethod
    def from_row(cls, row: Row) -> RatingRow:
        return cls(
            row["guild_id"],
            row["game"],
            row["member_id"],
            row["member_name"],
            row["rating"],
            row["deviation"],
            row["volatility"],
            row["games"],
            row["wins"],
            row["losses"],
            row["draws"],
        )


@dataclass(frozen=True, slots=True)
class RatingChangeRow:
    game_id: int
    before: tuple[float, float]  # by seat
    after: tuple[float, float]

    @classmethod
    def from_row(cls, row: Row) -> RatingChangeRow:
        return cls(row["game_id"], (row["before0"], row["before1"]), (row["after0"], row["after1"]))


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    """The AI's estimate of the position after ``ply`` moves of a game: the first
    player's (seat 0's) chance of winning, and the move it prefers there."""

    game_id: int
    ply: int
    chance: float
    best_move: str | None
    proven: bool
    playouts: int

    @classmethod
    def from_row(cls, row: Row) -> AnalysisRow:
        return cls(
            game_id=row["game_id"],
            ply=row["ply"],
            chance=row["chance"],
            best_move=row["best_move"],
            proven=bool(row["proven"]),
            playouts=row["playouts"],
        )


@dataclass(frozen=True, slots=True)
class SandboxRow:
    """A member's private sandbox: a game's rules and options and every move from the
    start (``opened_at`` of them from the game or record it was opened from)."""

    id: int
    member_id: int
    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    opened_at: int
    source_game_id: int | None
    created_at: datetime | None

    @classmethod
    def from_row(cls, row: Row) -> SandboxRow:
        return cls(
            id=row["id"],
            member_id=row["member_id"],
            game=row["game"],
            options=_json(row["options"]),
            moves=tuple(json.loads(row["moves"])),
            opened_at=row["opened_at"],
            source_game_id=row["source_game_id"],
            created_at=_time(row["created_at"]),
        )


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """Something that must reach Discord (see :mod:`bot.outbox`)."""

    id: int
    key: str
    lane: str
    kind: str
    payload: dict[str, Any]
    status: str
    attempts: int
    result: dict[str, Any]
    created_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> OutboxRow:
        return cls(
            id=row["id"],
            key=row["item_key"],
            lane=row["lane"],
            kind=row["kind"],
            payload=_json(row["payload"]),
            status=row["status"],
            attempts=row["attempts"],
            result=_json(row["result"]),
            created_at=_instant(row["created_at"]),
        )


@dataclass(frozen=True, slots=True)
class ProcessRow:
    """A bot process sharing the database, alive until ``lease_until`` unless its
    heartbeat makes it longer (see :mod:`bot.processes`)."""

    owner: str
    shards: str
    shard_count: int
    started_at: datetime
    heartbeat_at: datetime
    lease_until: datetime

    @classmethod
    def from_row(cls, row: Row) -> ProcessRow:
        return cls(
            owner=row["owner"],
            shards=row["shards"],
            shard_count=row["shard_count"],
            started_at=_instant(row["started_at"]),
            heartbeat_at=_instant(row["heartbeat_at"]),
            lease_until=_instant(row["lease_until"]),
        )


@dataclass(frozen=True, slots=True)
class ShardLeaseRow:
    """Which process runs one of Discord's shards, until when."""

    shard: int
    owner: str
    lease_until: datetime

    @classmethod
    def from_row(cls, row: Row) -> ShardLeaseRow:
        return cls(shard=row["shard"], owner=row["owner"], lease_until=_instant(row["lease_until"]))


@dataclass(frozen=True, slots=True)
class PlanRow:
    """A player's conditional moves in a game: ``tree`` maps each move of the opponent
    to ``[reply, subtree]``; its first opponent move is move ``ply + 1``."""

    game_id: int
    member_id: int
    ply: int
    tree: dict[str, Any]
    updated_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> PlanRow:
        return cls(
            game_id=row["game_id"],
            member_id=row["member_id"],
            ply=row["ply"],
            tree=_json(row["tree"]),
            updated_at=_instant(row["updated_at"]),
        )


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    organiser_id: int
    organiser_name: str
    name: str
    #: 'round_robin', 'double_round_robin', 'swiss' or 'knockout'.
    format: str
    #: A Swiss's number of rounds (None for the other formats).
    rounds: int | None
    game: str
    options: dict[str, Any]
    #: The games' time control and whether they are rated.
    settings: dict[str, Any]
    min_players: int
    max_players: int
    starts_at: datetime
    #: 'signup', 'running', 'finished' or 'cancelled'.
    status: str
    #: The round being played (0 before the start).
    round: int
    champion_id: int | None
    created_at: datetime
    finished_at: datetime | None

    @property
    def rated(self) -> bool:
        return self.settings.get("rated", True) is not False

    @classmethod
    def from_row(cls, row: Row) -> TournamentRow:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            thread_id=row["thread_id"],
            message_id=row["message_id"],
            organiser_id=row["organiser_id"],
            organiser_name=row["organiser_name"],
            name=row["name"],
            format=row["format"],
            rounds=row["rounds"],
            game=row["game"],
            options=_json(row["options"]),
            settings=_json(row["settings"]),
            min_players=row["min_players"],
            max_players=row["max_players"],
            starts_at=_instant(row["starts_at"]),
            status=row["status"],
            round=row["round"],
            champion_id=row["champion_id"],
            created_at=_instant(row["created_at"]),
            finished_at=_time(row["finished_at"]),
        )


@dataclass(frozen=True, slots=True)
class EntrantRow:
    tournament_id: int
    member_id: int
    member_name: str
    joined_at: datetime
    #: Their place in the seeding at the start (0 the strongest); None before.
    seed: int | None
    rating: float | None
    withdrawn_at: datetime | None

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None

    @classmethod
    def from_row(cls, row: Row) -> EntrantRow:
        return cls(
            tournament_id=row["tournament_id"],
            member_id=row["member_id"],
            member_name=row["member_name"],
            joined_at=_instant(row["joined_at"]),
            seed=row["seed"],
            rating=row["rating"],
            withdrawn_at=_time(row["withdrawn_at"]),
        )


@dataclass(frozen=True, slots=True)
class TournamentGameRow:
    """A game of a tournament's round: to play, played, a bye or a forfeit."""

    id: int
    tournament_id: int
    round: int
    board: int
    #: 0, then 1, 2… for a knockout game drawn and played again.
    replay: int
    player0_id: int
    #: None: a bye for player 0.
    player1_id: int | None
    game_id: int | None
    #: Player 0's points (1, 0.5, 0) once known.
    points: float | None
    #: Scored without being played (a withdrawal).
    forfeit: bool

    @property
    def is_bye(self) -> bool:
        return self.player1_id is None

    @classmethod
    def from_row(cls, row: Row) -> TournamentGameRow:
        return cls(
            id=row["id"],
            tournament_id=row["tournament_id"],
            round=row["round"],
            board=row["board"],
            replay=row["replay"],
            player0_id=row["player0_id"],
            player1_id=row["player1_id"],
            game_id=row["game_id"],
            points=row["points"],
            forfeit=bool(row["forfeit"]),
        )


@dataclass(frozen=True, slots=True)
class LeagueRow:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    organiser_name: str
    name: str
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    division_size: int
    #: The season being played (0 before the first).
    season: int
    #: 'signup', 'running' or 'stopped'.
    status: str
    starts_at: datetime
    created_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> LeagueRow:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            organiser_id=row["organiser_id"],
            organiser_name=row["organiser_name"],
            name=row["name"],
            game=row["game"],
            options=_json(row["options"]),
            settings=_json(row["settings"]),
            division_size=row["division_size"],
            season=row["season"],
            status=row["status"],
            starts_at=_instant(row["starts_at"]),
            created_at=_instant(row["created_at"]),
        )


@dataclass(frozen=True, slots=True)
class LadderRow:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    organiser_name: str
    name: str
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    answer_days: int
    created_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> LadderRow:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            organiser_id=row["organiser_id"],
            organiser_name=row["organiser_name"],
            name=row["name"],
            game=row["game"],
            options=_json(row["options"]),
            settings=_json(row["settings"]),
            answer_days=row["answer_days"],
            created_at=_instant(row["created_at"]),
        )


@dataclass(frozen=True, slots=True)
class RungRow:
    ladder_id: int
    member_id: int
    member_name: str
    #: 1 the top.
    place: int
    joined_at: datetime

    @classmethod
    def from_row(cls, row: Row) -> RungRow:
        return cls(
            row["ladder_id"],
            row["member_id"],
            row["member_name"],
            row["place"],
            _instant(row["joined_at"]),
        )


@dataclass(frozen=True, slots=True)
class LadderChallengeRow:
    id: int
    ladder_id: int
    challenger_id: int
    defender_id: int
    challenge_id: int | None
    game_id: int | None
    #: 'open', 'won', 'lost', 'drawn', 'forfeited' or 'cancelled' (the challenger's view).
    status: str
    created_at: datetime
    expires_at: datetime
    closed_at: datetime | None

    @classmethod
    def from_row(cls, row: Row) -> LadderChallengeRow:
        return cls(
            id=row["id"],
            ladder_id=row["ladder_id"],
            challenger_id=row["challenger_id"],
            defender_id=row["defender_id"],
            challenge_id=row["challenge_id"],
            game_id=row["game_id"],
            status=row["status"],
            created_at=_instant(row["created_at"]),
            expires_at=_instant(row["expires_at"]),
            closed_at=_time(row["closed_at"]),
        )


@dataclass(frozen=True, slots=True)
class SeekRow:
    """An open challenge to anyone, anywhere (``/seek``), and what became of it."""

    id: int
    guild_id: int | None
    channel_id: int | None
    seeker_id: int
    seeker_name: str
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    status: str
    accepter_id: int | None
    accepter_name: str | None
    game_guild_id: int | None
    game_channel_id: int | None
    challenge_id: int | None
    game_id: int | None
    created_at: datetime
    expires_at: datetime
    closed_at: datetime | None

    @classmethod
    def from_row(cls, row: Row) -> SeekRow:
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            seeker_id=row["seeker_id"],
            seeker_name=row["seeker_name"],
            game=row["game"],
            options=_json(row["options"]),
            settings=_json(row["settings"]),
            status=row["status"],
            accepter_id=row["accepter_id"],
            accepter_name=row["accepter_name"],
            game_guild_id=row["game_guild_id"],
            game_channel_id=row["game_channel_id"],
            challenge_id=row["challenge_id"],
            game_id=row["game_id"],
            created_at=_instant(row["created_at"]),
            expires_at=_instant(row["expires_at"]),
            closed_at=_time(row["closed_at"]),
        )


@dataclass(frozen=True, slots=True)
class SeekPostRow:
    """A seek's card in one server's lobby channel."""

    seek_id: int
    guild_id: int
    channel_id: int
    message_id: int | None

    @classmethod
    def from_row(cls, row: Row) -> SeekPostRow:
        return cls(row["seek_id"], row["guild_id"], row["channel_id"], row["message_id"])
