"""Rows of the database as small immutable value objects."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import aiosqlite


def _json(text: str | None) -> dict[str, Any]:
    return json.loads(text) if text else {}


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


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

    @property
    def is_open(self) -> bool:
        """Addressed to nobody in particular: anyone but the challenger may accept."""
        return self.opponent_id is None

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> ChallengeRow:
        return cls(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            message_id=row["message_id"], challenger_id=row["challenger_id"],
            challenger_name=row["challenger_name"], opponent_id=row["opponent_id"],
            opponent_name=row["opponent_name"], game=row["game"],
            options=_json(row["options"]), settings=_json(row["settings"]),
            status=row["status"], game_id=row["game_id"],
            created_at=_time(row["created_at"]), closed_at=_time(row["closed_at"]),
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
    end_reason: str | None
    created_at: datetime
    finished_at: datetime | None
    #: False for a casual game, which never changes ratings.
    rated: bool = True

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

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> GameRow:
        return cls(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            thread_id=row["thread_id"], challenge_id=row["challenge_id"],
            challenge_message_id=row["challenge_message_id"],
            last_message_id=row["last_message_id"], game=row["game"],
            options=_json(row["options"]), settings=_json(row["settings"]),
            player_ids=(row["player0_id"], row["player1_id"]),
            player_names=(row["player0_name"], row["player1_name"]),
            status=row["status"], result=row["result"], winner_seat=row["winner_seat"],
            end_reason=row["end_reason"], created_at=_time(row["created_at"]),
            finished_at=_time(row["finished_at"]), rated=bool(row["rated"]),
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

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> MoveRow:
        return cls(
            game_id=row["game_id"], ply=row["ply"], move=row["move"], seat=row["seat"],
            member_id=row["member_id"], played_at=_time(row["played_at"]),
            message_id=row["message_id"],
        )
