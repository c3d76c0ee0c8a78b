"""Game records in the bot: a stored game as a record (:mod:`rules.record`), exported as
text or as Abstract Play style JSON, and records read back and checked by replaying
them into the engine.

A record refused on import says why, with the number of the move that is wrong
("move 5 (c3): c3 is occupied"); nothing is stored by an import.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import rules
from bot import texts
from bot.i18n import _, _n
from bot.model import UserError, utc_now
from bot.storage import Database, GameRow, MoveRow, queries
from rules import State, Termination
from rules.record import (
    Player,
    Record,
    RecordError,
    format_record,
    from_json,
    parse_line,
    parse_record,
    replay_record,
    to_json,
)

#: Discord's limit for a message's text.
MESSAGE_LIMIT = 2000
#: The largest record an import reads (a 1000-move game is well under this).
MAX_RECORD_BYTES = 512 * 1024
FORMATS = ("text", "json")
SITE = "Discord"


@dataclass(frozen=True, slots=True)
class Stored:
    """A stored game with its moves and current (or final) position."""

    row: GameRow
    moves: list[MoveRow]
    state: State

    @property
    def history(self) -> list[str]:
        return [move.move for move in self.moves]


class Records:
    """Stored games as records."""

    def __init__(self, db: Database, *, now: Callable[[], datetime] = utc_now) -> None:
        self.db = db
        #: When an export is made (the record says so).
        self.now = now

    async def load(self, row: GameRow) -> Stored:
        """The game with its moves and its position (live or final)."""
        async with self.db.reading() as conn:
            moves = await queries.moves_of_game(conn, row.id)
        game = rules.get_game(row.game)
        state = await asyncio.to_thread(game.replay, [m.move for m in moves], **row.options)
        return Stored(row, moves, state)


def record_of(stored: Stored) -> Record:
    """The record of a stored game, live or over."""
    row = stored.row
    termination = row.end_reason
    return Record(
        game=row.game,
        options=row.options,
        players=tuple(
            Player(name, str(member_id))
            for name, member_id in zip(row.player_names, row.player_ids, strict=True)
        ),
        moves=tuple(stored.history),
        started=row.created_at,
        finished=row.finished_at,
        result=row.result if termination else None,
        winner=row.winner_seat if termination and termination is not Termination.ABORT else None,
        termination=termination,
        site=SITE,
        game_id=str(row.id),
        rated=row.rated,
    )


def record_text(stored: Stored) -> str:
    return format_record(record_of(stored), final=stored.state)


def record_json(stored: Stored, *, generated: datetime) -> str:
    data = to_json(record_of(stored), generated=generated, final=stored.state)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def export(stored: Stored, fmt: str, *, generated: datetime) -> tuple[str, bytes]:
    """(file name, contents) of the game's record in ``fmt`` (text or json)."""
    base = f"{stored.row.game}-{stored.row.id}"
    if fmt == "json":
        return f"{base}.json", record_json(stored, generated=generated).encode()
    if fmt == "text":
        return f"{base}.txt", record_text(stored).encode()
    raise UserError(
        _(
            "A record is exported as {formats}, not {asked}.",
            formats=" / ".join(FORMATS),
            asked=repr(fmt),
        )
    )


def moves_inline(stored: Stored) -> str:
    """``1. c3  2. swap …`` on one line, for a message."""
    return "  ".join(f"{n}. {move}" for n, move in enumerate(stored.history, 1))


# -- import -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Imported:
    record: Record
    state: State


def too_big() -> str:
    return _(
        "That file is too big for a record (the limit is {limit} KB).",
        limit=MAX_RECORD_BYTES // 1024,
    )


def decode(data: bytes) -> str:
    if len(data) > MAX_RECORD_BYTES:
        raise UserError(too_big())
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(_("That file is not a text record (it is not UTF-8 text).")) from None


def read(text: str, game: str | None = None) -> Record:
    """A record in either form: JSON if it looks like JSON, else the text form, which
    may come on one line (pasted into a command's option: its line breaks are gone).
    ``game``: the game, if the record does not say (a moves-only record)."""
    stripped = text.strip()
    if not stripped:
        raise UserError(_("The record is empty: paste a record or attach its file."))
    try:
        if not stripped.startswith("{") and "\n" not in stripped:
            try:
                return parse_line(stripped, game=game)
            except RecordError as error:
                if game is None and "which game" in str(error):
                    raise UserError(
                        _(
                            "That record does not say which game it is: pick the "
                            "game in the `game` option, or paste the record with "
                            'its [Game "..."] tag.'
                        )
                    ) from None
                raise
        if stripped.startswith("{"):
            try:
                data = json.loads(stripped)
            except json.JSONDecodeError as error:
                raise UserError(
                    _(
                        "That JSON record can't be read: {reason} at line {line}, column {column}.",
                        reason=error.msg,
                        line=error.lineno,
                        column=error.colno,
                    )
                ) from None
            if not isinstance(data, dict):
                raise UserError(_("A JSON record is an object with a header and moves."))
            return from_json(data)
        return parse_record(text)
    except RecordError as error:
        raise UserError(_("That record can't be read: {reason}.", reason=error)) from None


async def import_record(text: str, game: str | None = None) -> Imported:
    """Read a record and replay it into the engine; refuses (UserError) a record that
    can't be read, whose options the game does not take, or with an illegal move.
    ``game``: the game, if the record does not say."""
    record = await asyncio.to_thread(read, text, game)
    try:
        state = await asyncio.to_thread(replay_record, record)
    except rules.IllegalMove as error:
        raise UserError(_("That record has an illegal move: {reason}.", reason=error)) from None
    except rules.OptionError as error:
        raise UserError(
            _(
                "That record's options don't work for {game}: {reason}.",
                game=texts.title_of(record.game),
                reason=error,
            )
        ) from None
    except RecordError as error:
        raise UserError(_("That record does not hold together: {reason}.", reason=error)) from None
    return Imported(record, state)


def player_names(record: Record) -> dict[int, str]:
    """The players' names by seat, for the picture; none the record leaves out."""
    return {
        seat: player.name
        for seat, player in enumerate(record.players)
        if player.name.strip() not in ("", "?")
    }


def imported_text(imported: Imported) -> str:
    """What an import shows above the final position."""
    record, state = imported.record, imported.state
    title = texts.title_of(record.game)
    named = player_names(record)
    options = texts.options_text(dict(state.options))
    count = len(record.moves)
    lines = [
        _n(
            "**{game}** record ({options}): {first} vs {second}, {count} move, all legal.",
            "**{game}** record ({options}): {first} vs {second}, {count} moves, all legal.",
            count,
            game=title,
            options=options,
            first=named.get(0, _("the first player")),
            second=named.get(1, _("the second player")),
        )
        if named
        else _n(
            "**{game}** record ({options}), {count} move, all legal.",
            "**{game}** record ({options}), {count} moves, all legal.",
            count,
            game=title,
            options=options,
        )
    ]
    if state.is_over:
        lines.append(_("Final position: {result}", result=texts.sentence(state.result or "")))
    elif record.result:
        lines.append(
            _n(
                "Final position after {count} move; the record says: {result}",
                "Final position after {count} moves; the record says: {result}",
                count,
                result=texts.sentence(record.result),
            )
        )
    else:
        prompt = state.prompt.rstrip(".")
        seat = state.to_move
        who = named.get(seat, texts.player_word(state, seat)) if seat is not None else ""
        lines.append(
            _n(
                "Position after {count} move: {player} to play: {prompt}.",
                "Position after {count} moves: {player} to play: {prompt}.",
                count,
                player=who,
                prompt=prompt,
            )
            if prompt
            else _n(
                "Position after {count} move: {player} to play.",
                "Position after {count} moves: {player} to play.",
                count,
                player=who,
            )
        )
    return "\n".join(lines)
