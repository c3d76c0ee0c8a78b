"""Game records: a text form people can read (and programs load), and a JSON
form shaped like Abstract Play's game record.

The text form
-------------
A header of tag lines, then the moves::

    [Game "Lifeline"]
    [Size "5"]
    [Opening "komi-pie"]
    [First "alice"]
    [FirstId "1234"]
    [Second "bob"]
    [Black "bob"]
    [White "alice"]
    [Date "2026-11-21"]
    [Started "2026-11-21T13:00:00Z"]
    [Finished "2026-11-23T09:30:00Z"]
    [Outcome "1-0"]
    [Result "White wins: Black has no legal move"]
    [Termination "no-moves"]

    1. komi 3  2. white  3. c3  4. pass  5. a1 ...

* Tags are ``[Name "value"]``, one per line; ``\\"`` and ``\\\\`` escape a
  quote and a backslash inside a value. Tag names are read in any case.
* ``Game`` is required (the game's title or name). Every option of the game
  is a tag of its own (``Size``, ``Opening``); options left out take their
  defaults on replay.
* Players go by seat, not colour, because a pie can change who plays which
  colour: ``First`` (seat 0, who moved first) and ``Second``, with optional
  ``FirstId``/``SecondId``. The colour tags (``Black``/``White``,
  ``Yellow``/``Cyan``) are written for readers, derived from the moves; when
  reading, they name a seat no seat tag names (records from elsewhere often
  name players by colour only): the seat that has that colour at the end of
  the moves.
* ``Started`` and ``Finished`` are ISO 8601 times in UTC; ``Date`` (the day
  the game started) is for readers and only used when ``Started`` is absent.
* ``Outcome`` is the result for programs, seats in order as in PGN: ``1-0``
  (first player won), ``0-1``, ``1/2-1/2`` (draw) or ``*`` (unfinished or
  aborted). ``Result`` is the sentence for people. ``Termination`` is how the
  game ended, a value of :class:`rules.Termination` (``no-moves``,
  ``stalemate``, ``resignation``, ``timeout``, ``abort``...). Records made
  before those values still read: ``aborted`` is ``abort``, and ``rules`` (any
  ending by the rules) becomes the ending the moves reach.
* ``Site``, ``GameId`` and ``Rated`` (``yes``/``no``) are optional; any other
  tag is kept as it is (``Record.extra``) and written back.
* **Moves are numbered by ply**, one number per move of either player, from
  1: pies, swaps and colour choices make "a move of each player" an unclear
  unit, while "the 5th move" is never ambiguous. Moves are in the notation
  of the rules files; spacing, case and line breaks do not matter when
  reading, the numbers must count up from 1.
* Comments are ignored: ``{...}`` anywhere in the moves, ``;`` to the end of
  a line, and whole lines starting with ``;`` or ``#``.
* :func:`parse_line` reads a record pasted where line breaks are lost (a chat
  command's option): the tags, then the moves, numbered, separated by commas,
  or by spaces alone (the rules then tell where each move ends).

The JSON form
-------------
:func:`to_json` follows Abstract Play's game record schema ("AP Game Record",
version 1-0-0, as used by its records-and-rankings service): ``header``
(``game`` {``name``, ``variants``}, ``site`` {``name``, ``gameid``},
``date-start``, ``date-end``, ``date-generated``, ``unrated``, ``players``
[{``name``, ``userid``, ``is_ai``, ``result``, ``score``}]) and ``moves``,
a list of rounds, each a list of move strings. Differences, all allowed by
the schema's "additional properties" or its optional fields:

* ``variants`` hold every option as ``name-value`` (``size-7``,
  ``opening-strong-pie``), in the spirit of Abstract Play's ``board-9``; the
  header also carries the typed ``options`` object, which is what
  :func:`from_json` reads first. ``board-N`` is read as ``size-N``.
* A round is two consecutive plies (1 and 2, 3 and 4, ...), which is how
  Abstract Play's own game library groups them; after a colour choice the same
  seat may move twice in a row, so a round's entries are plies in play order,
  not necessarily one per seat.
* ``result`` is 1 for the winner and 0 for the loser, 0 for both after a
  draw, and left out for unfinished or aborted games (which Abstract Play
  would not archive at all). ``score`` is given for scored games (Astralis).
* Extra header fields: ``options``, ``result-text`` (the sentence),
  ``termination``; dates may be absent when unknown.
* The moves are in our notation, which differs from Abstract Play's for the
  same games (for instance its Asli writes a pass as ``pass``, ours ``hold``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Any

import rules
from rules.errors import IllegalMove, OptionError, RulesError, UnknownGame
from rules.game import Game, State, normalize_move
from rules.outcome import Termination

#: Column at which the move text is wrapped.
WIDTH = 80
#: The site name the JSON form gives when the record names none (the schema
#: requires one); read back as no site.
UNKNOWN_SITE = "?"

_OUTCOMES = {"1-0": 0, "0-1": 1}
_SEAT_TAGS = ("first", "second")


class RecordError(RulesError):
    """A record that cannot be read or does not hold together; the message says
    where (line or move number) and why, for the person who gave it."""


@dataclass(frozen=True, slots=True)
class Player:
    """A player as the record names them: display name, and an id on the site."""

    name: str
    id: str | None = None

    def __post_init__(self) -> None:
        if self.id is not None and not isinstance(self.id, str):
            object.__setattr__(self, "id", str(self.id))


@dataclass(frozen=True)
class Record:
    """One game, as a record: enough to replay it and to say who played it.

    ``game`` is the registered name (``"lifeline"``); ``options`` as given to
    ``Game.new``; ``players`` by seat; ``moves`` in canonical notation;
    ``winner`` the winning seat (None while playing, after a draw or an abort);
    ``termination`` a :class:`rules.Termination`, or None while playing (given
    as text, it is read as the Termination tag is, old words included).
    Naive datetimes are taken as UTC.
    """

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[Player, ...] = (Player("?"), Player("?"))
    moves: tuple[str, ...] = ()
    started: datetime | None = None
    finished: datetime | None = None
    result: str | None = None
    winner: int | None = None
    termination: Termination | None = None
    site: str | None = None
    game_id: str | None = None
    rated: bool | None = None
    extra: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        players = tuple(p if isinstance(p, Player) else Player(str(p)) for p in self.players)
        if len(players) != 2:
            raise RecordError("a game has two players, not {count}", count=len(players))
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "moves", tuple(self.moves))
        object.__setattr__(self, "options", dict(self.options))
        object.__setattr__(self, "extra", dict(self.extra))
        for name in ("started", "finished"):
            moment = getattr(self, name)
            if moment is not None:
                object.__setattr__(self, name, _utc(moment))
        if self.winner not in (None, 0, 1):
            raise RecordError("the winner is seat 0 or 1, not {winner}", winner=repr(self.winner))
        if self.termination is not None and not isinstance(self.termination, Termination):
            object.__setattr__(
                self,
                "termination",
                _termination(self.termination, self.game, self.options, self.moves),
            )
        if self.game_id is not None and not isinstance(self.game_id, str):
            object.__setattr__(self, "game_id", str(self.game_id))

    @classmethod
    def from_state(
        cls,
        state: State,
        players: Sequence[Player | str],
        *,
        started: datetime | None = None,
        finished: datetime | None = None,
        termination: Termination | str | None = None,
        result: str | None = None,
        winner: int | None = None,
        site: str | None = None,
        game_id: str | int | None = None,
        rated: bool | None = None,
    ) -> Record:
        """The record of ``state``'s game. A game over by the rules gets its
        result, winner and termination from the state's outcome; a game ended
        off the board (resignation, timeout, abort) passes ``termination``,
        ``result`` and ``winner``."""
        outcome = state.outcome
        if termination is None and outcome is not None:
            termination = outcome.termination
        elif isinstance(termination, str):
            termination = _termination(termination, state.game.name, state.options, state.history)
        if outcome is not None and termination is outcome.termination:
            result = outcome.text if result is None else result
            winner = outcome.winner if winner is None else winner
        return cls(
            game=state.game.name,
            options=dict(state.options),
            players=tuple(p if isinstance(p, Player) else Player(p) for p in players),
            moves=state.history,
            started=started,
            finished=finished,
            result=result,
            winner=winner,
            termination=termination,
            site=site,
            game_id=None if game_id is None else str(game_id),
            rated=rated,
        )

    @property
    def outcome(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (seats in order, as in PGN)."""
        if self.winner is not None:
            return "1-0" if self.winner == 0 else "0-1"
        if self.result is not None and self.termination not in (None, Termination.ABORT):
            return "1/2-1/2"
        return "*"


#: The words of records made before :class:`Termination`, but for ``rules``.
_OLD_WORDS = {"aborted": Termination.ABORT}
_BY_VALUE = {t.value: t for t in Termination}
_VALUES = ", ".join(_BY_VALUE)


def _termination(
    value: object, game: str, options: Mapping[str, Any], moves: Sequence[str]
) -> Termination:
    """The Termination a record's text names: a value, or an old word. The old
    ``rules`` is the ending the moves reach; if they reach none (or cannot be
    played), it is the game's usual ending, which :func:`replay_record` then
    refuses, saying why."""
    text = value.strip().lower() if isinstance(value, str) else None
    if text is None or not (text == "rules" or text in _OLD_WORDS or text in _BY_VALUE):
        raise RecordError("a game ends by {values}, not {value}", values=_VALUES, value=repr(value))
    if text != "rules":
        return _OLD_WORDS.get(text) or _BY_VALUE[text]
    try:
        outcome = _game(game).replay(moves, **options).outcome
    except (RecordError, ValueError):
        outcome = None
    if outcome is not None:
        return outcome.termination
    return _game(game).terminations[0] if game in rules.GAMES else Termination.NO_MOVES


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _iso(moment: datetime) -> str:
    return _utc(moment).isoformat().replace("+00:00", "Z")


def _game(name: str) -> Game:
    """The game a record names: by its name or by its title (records write the title)."""
    try:
        return rules.get_game(name)
    except UnknownGame as error:
        wanted = name.strip().casefold() if isinstance(name, str) else ""
        for game in rules.GAMES.values():
            if game.title.casefold() == wanted:
                return game
        raise RecordError(error.words) from None


def replay_record(record: Record) -> State:
    """The position at the end of ``record``.

    An illegal move raises :class:`rules.IllegalMove` whose message names the
    move ("move 5 (c3): c3 is occupied") and whose ``ply`` is its number; bad
    options raise :class:`rules.OptionError`. A record that says the game ended
    by the rules must end in a finished position with the same winner, or
    :class:`RecordError` says what is wrong.
    """
    state = _game(record.game).replay(record.moves, **record.options)
    if record.termination is not None and record.termination.by_rules:
        outcome = state.outcome
        if outcome is None:
            raise RecordError(
                "the record says the game ended by the rules, but after its "
                "{count} moves it is not over",
                count=len(record.moves),
            )
        if outcome.winner != record.winner:
            raise RecordError(
                "the record gives the outcome {outcome}, but the moves end in: {result}",
                outcome=record.outcome,
                result=outcome.text,
            )
        if outcome.termination is not record.termination:
            raise RecordError(
                "the record says the game ended {how}, but the moves end {ending}: {result}",
                how=record.termination.description,
                ending=outcome.termination.description,
                result=outcome.text,
            )
    return state


def _replayed(record: Record) -> State | None:
    try:
        return _game(record.game).replay(record.moves, **record.options)
    except ValueError:  # the rules' errors are ValueErrors: no colours to show then
        return None


# --- text form ---------------------------------------------------------------------


def _quote(value: str) -> str:
    """A tag value with quotes and backslashes escaped; a line break (which a
    tag line cannot hold) becomes a space."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\r", " ").replace("\n", " ")


def _tag_name(option: str) -> str:
    return option[:1].upper() + option[1:]


def format_record(record: Record, *, final: State | None = None) -> str:
    """The text form of ``record`` (see the module docstring). ``final``, the
    position at the end of the record if the caller has it, saves a replay
    (used only to name who played which colour)."""
    game = _game(record.game)
    tags: list[tuple[str, str]] = [("Game", game.title)]
    names = [spec.name for spec in game.options()]
    for name in [
        *[n for n in names if n in record.options],
        *[n for n in record.options if n not in names],
    ]:
        tags.append((_tag_name(name), str(record.options[name])))
    for seat, player in enumerate(record.players):
        label = _SEAT_TAGS[seat].capitalize()
        tags.append((label, player.name))
        if player.id is not None:
            tags.append((f"{label}Id", player.id))
    state = final if final is not None else _replayed(record)
    if state is not None:
        for color in game.colors:
            who = state.seat_of(color)
            if who is not None:
                tags.append((color.capitalize(), record.players[who].name))
    if record.site is not None:
        tags.append(("Site", record.site))
    if record.game_id is not None:
        tags.append(("GameId", record.game_id))
    if record.rated is not None:
        tags.append(("Rated", "yes" if record.rated else "no"))
    if record.started is not None:
        tags.append(("Date", record.started.date().isoformat()))
        tags.append(("Started", _iso(record.started)))
    if record.finished is not None:
        tags.append(("Finished", _iso(record.finished)))
    tags.append(("Outcome", record.outcome))
    if record.result is not None:
        tags.append(("Result", record.result))
    if record.termination is not None:
        tags.append(("Termination", record.termination.value))
    tags.extend(record.extra.items())

    lines = [f'[{name} "{_quote(value)}"]' for name, value in tags]
    lines.append("")
    lines.extend(_wrap(f"{number}. {move}" for number, move in enumerate(record.moves, 1)))
    return "\n".join(lines) + "\n"


def _wrap(units: Iterable[str]) -> list[str]:
    lines: list[str] = []
    line = ""
    for unit in units:
        if line and len(line) + 2 + len(unit) > WIDTH:
            lines.append(line)
            line = unit
        else:
            line = f"{line}  {unit}" if line else unit
    if line:
        lines.append(line)
    return lines


_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER = re.compile(r"(?<!\S)(\d+)\s*\.")


def parse_record(text: str) -> Record:
    """Read the text form. Tolerant of spacing, case, blank lines and comments;
    raises :class:`RecordError` naming the line or move that is wrong. The moves
    are not checked against the rules here: :func:`replay_record` does that."""
    if not isinstance(text, str):
        raise RecordError("a record is text, not {kind}", kind=type(text).__name__)
    tags: dict[str, tuple[int, str, str]] = {}
    movetext: list[str] = []
    # split on line feeds only: names may hold other line-breaking characters
    for number, raw in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        line = raw.strip()
        if not line or line.startswith((";", "#")):
            continue
        if line.startswith("["):
            if movetext:
                raise RecordError(
                    "line {number}: header lines come before the moves", number=number
                )
            match = _TAG.fullmatch(line)
            if match is None:
                raise RecordError(
                    'line {number}: a header line looks like [Name "value"], not {line}',
                    number=number,
                    line=line[:60],
                )
            name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
            if name.lower() in tags:
                raise RecordError(
                    "line {number}: the tag {name} is given twice", number=number, name=name
                )
            tags[name.lower()] = (number, name, value)
        else:
            movetext.append(raw)
    if "game" not in tags:
        raise RecordError('the record does not say which game it is: add [Game "..."]')
    return _build(tags, _parse_moves("\n".join(movetext)))


def parse_line(text: str, *, game: str | None = None) -> Record:
    """Read a record on one line: tags (``[Game "Asli"] [Size "9"]``) then the moves,
    numbered (``1. komi 3  2. white``), separated by commas (``komi 3, white, c3``) or
    by spaces alone (``komi 3 white c3``: each move is the fewest words that make a
    legal move). ``game`` names the game when no Game tag does (if both, they must
    agree). Raises :class:`RecordError`; the moves are checked by :func:`replay_record`."""
    if not isinstance(text, str):
        raise RecordError("a record is text, not {kind}", kind=type(text).__name__)
    tags: dict[str, tuple[int, str, str]] = {}
    rest = text.strip()
    while match := _TAG.match(rest):
        name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
        if name.lower() in tags:
            raise RecordError("the tag {name} is given twice", name=name)
        tags[name.lower()] = (1, name, value)
        rest = rest[match.end() :].lstrip()
    if game is not None:
        named = tags.get("game")
        if named is not None and _game(named[2]).name != _game(game).name:
            raise RecordError(
                "the record is a game of {named}, not of {game}",
                named=_game(named[2]).title,
                game=_game(game).title,
            )
        tags["game"] = (1, "Game", game)
    if "game" not in tags:
        raise RecordError('the record does not say which game it is: add [Game "..."]')
    if _NUMBER.search(rest):
        return _build(tags, _parse_moves(rest))
    if "," in rest:
        return _build(tags, tuple(normalize_move(part) for part in rest.split(",") if part.strip()))
    header = _build(dict(tags), ())
    return _build(
        tags,
        _split_by_rules(_game(header.game).new(**header.options), normalize_move(rest).split()),
    )


#: How many trial moves :func:`_split_by_rules` may play before it gives up.
_SPLIT_BUDGET = 2_000


def _split_by_rules(state: State, words: list[str]) -> tuple[str, ...]:
    """Words into legal moves (of up to three words each), longer moves tried first,
    backing up when the rest cannot be read (Astralis' ``e7`` and ``e7 d6`` are both
    moves). When no reading works, the words from the first that starts no legal move
    are kept one per move, for the replay to refuse with its reason."""
    budget = _SPLIT_BUDGET
    # Depth-first: for each move read so far, the position after it and the lengths
    # of the moves still to try at that point.
    stack: list[tuple[State, int, list[int]]] = [(state, 0, [3, 2, 1])]
    moves: list[str] = []
    stuck = 0
    while stack:
        position, start, lengths = stack[-1]
        if start == len(words):
            return tuple(moves)
        stuck = max(stuck, start)
        if not lengths or budget <= 0:
            stack.pop()
            if moves:
                moves.pop()
            if budget <= 0:
                break
            continue
        size = lengths.pop(0)
        if start + size > len(words):
            continue
        budget -= 1
        try:
            after = position.play(" ".join(words[start : start + size]))
        except IllegalMove:
            continue
        moves.append(after.history[-1])
        stack.append((after, start + size, [3, 2, 1]))
    prefix = _split_greedy(state, words[:stuck])
    return (*prefix, *words[stuck:]) if prefix is not None else tuple(words)


def _split_greedy(state: State, words: list[str]) -> tuple[str, ...] | None:
    """``words`` read as legal moves, longest first without backing up; None if not."""
    moves: list[str] = []
    start = 0
    while start < len(words):
        for size in (3, 2, 1):
            try:
                state = state.play(" ".join(words[start : start + size]))
            except IllegalMove:
                continue
            moves.append(state.history[-1])
            start += size
            break
        else:
            return None
    return tuple(moves)


def _named_by_color(
    game: Game,
    options: Mapping[str, Any],
    moves: tuple[str, ...],
    players: tuple[Player, ...],
    by_color: Mapping[str, str | None],
) -> tuple[Player, ...]:
    """``players`` with each seat no seat tag names named by its colour's tag: the seat
    that has that colour after the moves (none while undecided, or if the moves cannot
    be played: the replay then says why)."""
    try:
        state = game.replay(moves, **options)
    except ValueError:
        return players
    named = list(players)
    for color, name in by_color.items():
        seat = state.seat_of(color) if name else None
        if name and seat is not None and named[seat].name == "?":
            named[seat] = Player(name, named[seat].id)
    return tuple(named)


def _build(tags: dict[str, tuple[int, str, str]], moves: tuple[str, ...]) -> Record:
    def take(key: str) -> str | None:
        entry = tags.pop(key, None)
        return None if entry is None else entry[2]

    line_of = {key: entry[0] for key, entry in tags.items()}
    game = _game(take("game") or "")
    options: dict[str, Any] = {}
    for spec in game.options():
        value = take(spec.name.lower())
        if value is not None:
            try:
                options[spec.name] = spec.validate(value)
            except OptionError as error:
                raise RecordError(
                    "line {line}: {error}", line=line_of[spec.name.lower()], error=error
                ) from None
    by_color = {color: take(color) for color in game.colors}
    players = tuple(Player(take(seat) or "?", take(f"{seat}id")) for seat in _SEAT_TAGS)
    if any(p.name == "?" for p in players) and any(by_color.values()):
        players = _named_by_color(game, options, moves, players, by_color)
    started = _moment(take("started"), line_of.get("started"))
    day = take("date")
    if started is None and day is not None:
        started = _moment(day, line_of.get("date"))
    finished = _moment(take("finished"), line_of.get("finished"))
    outcome = (take("outcome") or "*").strip()
    if outcome not in ("1-0", "0-1", "1/2-1/2", "*"):
        raise RecordError(
            "line {line}: the outcome is 1-0, 0-1, 1/2-1/2 or *, not {outcome}",
            line=line_of["outcome"],
            outcome=repr(outcome),
        )
    termination_text = take("termination")
    termination = None
    if termination_text is not None:
        try:
            termination = _termination(termination_text, game.name, options, moves)
        except RecordError as error:
            raise RecordError(
                "line {line}: {error}", line=line_of["termination"], error=error
            ) from None
    rated_text = take("rated")
    rated = None
    if rated_text is not None:
        answer = rated_text.strip().lower()
        if answer not in ("yes", "no", "true", "false"):
            raise RecordError(
                "line {line}: Rated is yes or no, not {rated_text}",
                line=line_of["rated"],
                rated_text=repr(rated_text),
            )
        rated = answer in ("yes", "true")
    return Record(
        game=game.name,
        options=options,
        players=players,
        moves=moves,
        started=started,
        finished=finished,
        result=take("result"),
        winner=_OUTCOMES.get(outcome),
        termination=termination,
        site=take("site"),
        game_id=take("gameid"),
        rated=rated,
        extra={name: value for _, name, value in tags.values()},
    )


def _moment(text: str | None, line: int | None) -> datetime | None:
    if text is None:
        return None
    try:
        if len(text.strip()) == 10:
            return datetime.combine(date.fromisoformat(text.strip()), time(), UTC)
        return _utc(datetime.fromisoformat(text.strip()))
    except ValueError:
        raise RecordError(
            "line {line}: {text} is not a date and time like 2026-11-21T13:00:00Z",
            line=line,
            text=repr(text),
        ) from None


def _parse_moves(text: str) -> tuple[str, ...]:
    without_braces = re.sub(r"\{[^{}]*\}", " ", text)
    if "{" in without_braces or "}" in without_braces:
        raise RecordError(
            "a comment in the moves opens with {open} and must close with {close}",
            open="{",
            close="}",
        )
    cleaned = "\n".join(line.split(";", 1)[0] for line in without_braces.split("\n"))
    numbers = list(_NUMBER.finditer(cleaned))
    before = cleaned[: numbers[0].start()] if numbers else cleaned
    if before.strip():
        raise RecordError(
            "the moves must be numbered (1. c3  2. d4 ...), but the record starts with {text}",
            text=repr(" ".join(before.split())[:40]),
        )
    moves: list[str] = []
    for index, match in enumerate(numbers):
        expected = index + 1
        found = int(match.group(1))
        if found != expected:
            raise RecordError(
                "the moves are numbered 1, 2, 3, ... one per move: expected {expected}, "
                "found {found}",
                expected=expected,
                found=found,
            )
        end = numbers[index + 1].start() if index + 1 < len(numbers) else len(cleaned)
        move = normalize_move(cleaned[match.end() : end])
        if not move:
            raise RecordError("move {expected} is empty", expected=expected)
        moves.append(move)
    return tuple(moves)


# --- JSON form (Abstract Play's game record) -------------------------------------------

_VARIANT_ALIASES = {"board": "size"}


def to_json(
    record: Record, *, generated: datetime | None = None, final: State | None = None
) -> dict[str, Any]:
    """``record`` as an Abstract Play style game record (a JSON-ready dict).
    ``generated`` is the ``date-generated`` stamp (default: now); ``final`` as
    for :func:`format_record` (used for the players' scores in scored games)."""
    game = _game(record.game)
    header: dict[str, Any] = {
        "game": {
            "name": game.title,
            "variants": [f"{name}-{value}" for name, value in record.options.items()],
        },
        "site": {"name": record.site or UNKNOWN_SITE},
    }
    if record.game_id is not None:
        header["site"]["gameid"] = record.game_id
    if record.started is not None:
        header["date-start"] = _iso(record.started)
    if record.finished is not None:
        header["date-end"] = _iso(record.finished)
    header["date-generated"] = _iso(generated or datetime.now(UTC))
    if record.rated is not None:
        header["unrated"] = not record.rated
    state = final if final is not None else _replayed(record)
    players = []
    for seat, player in enumerate(record.players):
        entry: dict[str, Any] = {"name": player.name}
        if player.id is not None:
            entry["userid"] = player.id
        entry["is_ai"] = False
        if record.outcome != "*":
            entry["result"] = 1 if record.winner == seat else 0
        score = getattr(state, "score", None) if state is not None and state.is_over else None
        color = state.color_of(seat) if state is not None else None
        if callable(score) and color is not None:
            entry["score"] = score(color)
        players.append(entry)
    header["players"] = players
    header["options"] = dict(record.options)
    if record.result is not None:
        header["result-text"] = record.result
    if record.termination is not None:
        header["termination"] = record.termination.value
    moves = [list(record.moves[i : i + 2]) for i in range(0, len(record.moves), 2)]
    return {"header": header, "moves": moves}


def from_json(data: Mapping[str, Any]) -> Record:
    """Read an Abstract Play style game record (ours, or one close to it).
    Raises :class:`RecordError` saying which field is missing or wrong."""
    header = _field(data, "header", Mapping, "the record")
    game_info = _field(header, "game", Mapping, "header")
    game = _game(_field(game_info, "name", str, "header.game"))
    options = _json_options(game, header, game_info)
    raw_players = _field(header, "players", list, "header")
    if len(raw_players) != 2:
        raise RecordError(
            "header.players must list two players, not {count}", count=len(raw_players)
        )
    players = []
    results: list[Any] = []
    for seat, entry in enumerate(raw_players):
        where = f"header.players[{seat}]"
        if not isinstance(entry, Mapping):
            raise RecordError("{where} must be an object with a name", where=where)
        name = _field(entry, "name", str, where)
        userid = entry.get("userid")
        players.append(Player(name, None if userid is None else str(userid)))
        results.append(entry.get("result"))
    winner = None
    if all(isinstance(r, int | float) for r in results) and results[0] != results[1]:
        winner = 0 if results[0] > results[1] else 1
    moves = _json_moves(_field(data, "moves", list, "the record"))
    termination = header.get("termination")
    if termination is not None:
        try:
            termination = _termination(termination, game.name, options, moves)
        except RecordError as error:
            raise RecordError("header.termination: {error}", error=error) from None
    site = header.get("site")
    unrated = header.get("unrated")
    return Record(
        game=game.name,
        options=options,
        players=tuple(players),
        moves=moves,
        started=_json_moment(header, "date-start"),
        finished=_json_moment(header, "date-end"),
        result=header.get("result-text"),
        winner=winner,
        termination=termination,
        site=(
            site.get("name")
            if isinstance(site, Mapping) and site.get("name") not in (None, UNKNOWN_SITE)
            else None
        ),
        game_id=(
            str(site["gameid"])
            if isinstance(site, Mapping) and site.get("gameid") is not None
            else None
        ),
        rated=None if unrated is None else not unrated,
    )


def _field(container: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    value = container.get(key) if isinstance(container, Mapping) else None
    if not isinstance(value, kind):
        words: dict[type, str] = {Mapping: "an object", list: "a list", str: "text"}
        wanted = words.get(kind, kind.__name__)
        raise RecordError(
            "{where} must have {key}, {wanted}", where=where, key=repr(key), wanted=wanted
        )
    return value


def _json_options(game: Game, header: Mapping[str, Any], info: Mapping[str, Any]) -> dict:
    specs = {spec.name: spec for spec in game.options()}
    given: dict[str, Any] = {}
    typed = header.get("options")
    if isinstance(typed, Mapping):
        given = dict(typed)
    else:
        for variant in info.get("variants") or []:
            name, _, value = str(variant).partition("-")
            name = _VARIANT_ALIASES.get(name.lower(), name.lower())
            if name not in specs or not value:
                known = ", ".join(specs) or "none"
                raise RecordError(
                    "unknown variant {variant} for {game} (its options: {known})",
                    variant=repr(variant),
                    game=game.title,
                    known=known,
                )
            given[name] = value
    options = {}
    for name, value in given.items():
        if name not in specs:
            raise RecordError("{game} has no option {name}", game=game.title, name=repr(name))
        try:
            options[name] = specs[name].validate(value)
        except OptionError as error:
            raise RecordError(error.words) from None
    return options


def _json_moves(rounds: list[Any]) -> tuple[str, ...]:
    moves: list[str] = []
    for number, round_ in enumerate(rounds, 1):
        if not isinstance(round_, list):
            raise RecordError(
                "moves[{index}] must be a list of moves (one round)", index=number - 1
            )
        entries = [entry for entry in round_ if entry is not None]
        if entries and all(isinstance(e, Mapping) and "sequence" in e for e in entries):
            entries.sort(key=lambda e: e["sequence"])
        for entry in entries:
            text = entry.get("move") if isinstance(entry, Mapping) else entry
            if not isinstance(text, str) or not normalize_move(text):
                raise RecordError(
                    "round {number} holds {entry}, which is not a move",
                    number=number,
                    entry=repr(entry),
                )
            moves.append(normalize_move(text))
    return tuple(moves)


def _json_moment(header: Mapping[str, Any], key: str) -> datetime | None:
    text = header.get(key)
    if text is None:
        return None
    try:
        return _utc(datetime.fromisoformat(str(text)))
    except ValueError:
        raise RecordError(
            "header.{key} is not a date and time: {text}", key=key, text=repr(text)
        ) from None


__all__ = [
    "UNKNOWN_SITE",
    "Player",
    "Record",
    "RecordError",
    "format_record",
    "from_json",
    "parse_line",
    "parse_record",
    "replay_record",
    "to_json",
]
