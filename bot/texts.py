"""What the bot says: labels, thread names, the captions of board posts, moments.

In a practice game the bot is the member's opponent (:func:`bot.model.automatic_seat`):
its posts never mention it, say its moves in the first person, and call the game
practice, never rated.

Pure functions of a game row and a rules State, so the services, the commands and
the tests all word things the same way. Moments are Discord timestamps
(:func:`discord.utils.format_dt`), which each reader sees in their own words and
time zone: the one thing this module takes from discord.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from discord.utils import format_dt

import rules
from bot import timecontrol
from bot.model import automatic_seat, members_of
from bot.storage import ChallengeRow, GameRow
from rules import State

THREAD_NAME_LIMIT = 100


#: What a game against the bot is, in its posts.
PRACTICE = "Practice, never rated."


def mention(member_id: int) -> str:
    return f"<@{member_id}>"


def title_of(game_name: str) -> str:
    try:
        return rules.get_game(game_name).title
    except rules.UnknownGame:
        return game_name.title()


def label(row: GameRow) -> str:
    """``Lifeline #12``."""
    return f"{title_of(row.game)} #{row.id}"


def thread_name(row: GameRow) -> str:
    """``Lifeline #12 · Ana vs Bo``, cut to Discord's 100 characters."""
    name = f"{label(row)} · {row.player_names[0]} vs {row.player_names[1]}"
    return name if len(name) <= THREAD_NAME_LIMIT else name[: THREAD_NAME_LIMIT - 1] + "…"


def options_text(options: dict[str, Any]) -> str:
    """``size 7, opening strong-pie``."""
    return ", ".join(f"{name} {value}" for name, value in options.items())


def player(row: GameRow, state: State, seat: int) -> str:
    """``Ana (black)``, or just ``Ana`` while a pie leaves the colours open."""
    color = state.color_of(seat)
    name = row.player_names[seat]
    return f"{name} ({color})" if color else name


def player_word(state: State, seat: int) -> str:
    """A seat without a name: ``Black``, or ``the first player`` before the colours."""
    color = state.color_of(seat)
    return (
        color.capitalize() if color else ("the first player" if seat == 0 else "the second player")
    )


def turn_line(row: GameRow, state: State) -> str:
    """The ping for the player to move: ``<@1>, your turn: place two stones.``"""
    seat = state.to_move
    if seat is None or seat == automatic_seat(row):  # the bot's typing indicator says so
        return ""
    prompt = state.prompt.rstrip(".")
    return f"{mention(row.player_ids[seat])}, your turn" + (f": {prompt}." if prompt else ".")


def sentence(text: str) -> str:
    """``text`` ending with a full stop (or its own ``!``, ``?`` or ``…``)."""
    text = text.strip()
    return text if not text or text[-1] in ".!?…" else f"{text}."


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 move``, ``2 moves``; ``words`` for an irregular plural."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def game_over(row: GameRow) -> str:
    """``**Game over.** Black wins: White resigned. Ana wins.`` (the winner named unless
    the result already names them)."""
    result = sentence(row.result or "")
    if row.status == "aborted":
        return f"**Game over.** {result} It counts for nothing.".replace(".  ", ". ")
    if row.winner_seat is None:
        return f"**Game over.** {result}" + ("" if "draw" in result.lower() else " It's a draw.")
    winner = row.player_names[row.winner_seat]
    if row.winner_seat == automatic_seat(row):
        return f"**Game over.** {result}" + ("" if result.startswith(f"{winner} ") else " I win.")
    return f"**Game over.** {result}" + (
        "" if result.startswith(f"{winner} ") else f" {winner} wins."
    )


def opening_post(row: GameRow, state: State) -> str:
    first = player(row, state, 0)
    second = player(row, state, 1)
    practice = automatic_seat(row) is not None
    lines = [
        f"**{label(row)}**: {first} vs {second} ({options_text(row.options)})."
        + (f" {PRACTICE}" if practice else ""),
        "I play first."
        if automatic_seat(row) == 0
        else f"{row.player_names[0]} is the first player.",
        turn_line(row, state),
    ]
    return "\n".join(line for line in lines if line)


def move_line(row: GameRow, after: State, seat: int, move: str, did: str = "") -> str:
    """``**Asli #3** · move 12: Ana (black) played `h3`: captured 19 white stones.``, or
    for a colour choice ``… move 2: Bo chose white.``"""
    what = f": {did}" if did else ""
    head = f"**{label(row)}** · move {after.ply}"
    bot = seat == automatic_seat(row)  # the bot speaks for itself
    if move == after.color_of(seat):  # the move is the colour its player now has
        return f"{head}: {'I' if bot else row.player_names[seat]} chose {move}{what}."
    return f"{head}: {'I' if bot else player(row, after, seat)} played `{move}`{what}."


def final_post(row: GameRow, head: str, words: list[str]) -> str:
    """The one post of a game's end: ``head`` (its last move, or its name), how it
    ended, the final ``words`` (summary, ratings, record), and both players mentioned
    (thanked, unless the game was aborted): the members, not the bot."""
    both = " ".join(mention(member_id) for member_id in members_of(row))
    again = "/practice" if automatic_seat(row) is not None else "/challenge"
    thanks = (
        f"{both}: start a new game with `{again}` whenever you like."
        if row.status == "aborted"
        else f"Well played, {both}!"
    )
    return "\n".join([head, game_over(row), *words, thanks])


def status_line(row: GameRow, state: State, member_id: int) -> str:
    """For the games list: whose turn it is, seen by ``member_id``."""
    if not row.is_active:
        return row.result or row.status
    seat = state.to_move
    if seat is None:
        return "finished"
    if row.player_ids[seat] == member_id:
        return f"**your turn**: {state.prompt}" if state.prompt else "**your turn**"
    return f"{row.player_names[seat]}'s turn"


def clock_text(settings: dict[str, Any]) -> str:
    """The game's time control and courtesies: ``3 days per move, no takebacks``."""
    try:
        control = timecontrol.parse_time_control(str(settings.get("time_control", "3d")))
    except timecontrol.TimeControlError:
        control = timecontrol.DEFAULT
    parts = [timecontrol.describe_time_control(control)]
    if settings.get("takebacks") is False:
        parts.append("no takebacks")
    if settings.get("vacation") is False:
        parts.append("no vacations")
    return ", ".join(parts)


def when(moment: datetime) -> str:
    """``Sunday, 4 January 2026 12:00``, in each reader's own time zone."""
    return format_dt(moment, "f")


def relative(moment: datetime) -> str:
    """``in 2 days``, in each reader's own words."""
    return format_dt(moment, "R")


def deadline_line(name: str, deadline: datetime) -> str:
    """``⏳ Ana's time for this move runs out in 3 days (Sunday…).``"""
    return f"⏳ {name}'s time for this move runs out {relative(deadline)} ({when(deadline)})."


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a channel or message; guild 0: a DM (``@me``), where DM games live."""
    base = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


def challenge_text(challenge: ChallengeRow, expires_at: datetime | None = None) -> str:
    """The public challenge message (``expires_at``: when it expires unanswered). It
    shows no number: a challenge is answered with its buttons, and the one number a
    member sees is its game's (``Sliglube #1``, shown once accepted), which they can
    type wherever a game is asked for."""
    title = title_of(challenge.game)
    whom = mention(challenge.opponent_id) if challenge.opponent_id else "anyone"
    first = {
        "challenger": f"{challenge.challenger_name} plays first",
        "opponent": "the opponent plays first",
        "random": "who plays first is drawn at random",
    }.get(challenge.settings.get("first", "challenger"), "")
    casual = "; casual, unrated" if challenge.settings.get("rated") is False else ""
    lines = [
        f"**{challenge.challenger_name}** challenges {whom} to **{title}** "
        f"({options_text(challenge.options)}; {first}{casual}; "
        f"{clock_text(challenge.settings)})."
    ]
    if challenge.status == "pending":
        lines.append(
            "Accept to start the game in a thread of its own."
            if challenge.opponent_id
            else "Anyone may accept."
        )
        if expires_at is not None:
            lines[-1] += f" It expires {relative(expires_at)} if nobody answers."
    return "\n".join(lines)


def challenge_expired_text(challenge: ChallengeRow) -> str:
    """The challenge message once nobody answered it in time."""
    head = challenge_text(challenge).splitlines()[0]
    return f"{head}\n⌛ Expired: nobody answered in time. Start a new one with /challenge."


def challenge_closed_text(challenge: ChallengeRow, by: str, game: GameRow | None = None) -> str:
    """The challenge message once answered: ``by`` is who answered."""
    head = challenge_text(challenge).splitlines()[0]
    if challenge.status == "accepted" and game is not None:
        where = f" in <#{game.thread_id}>" if game.thread_id else ""
        if game.place == "dms":
            where = " in both players' DMs with me"
        return f"{head}\n✅ Accepted by {by}: **{label(game)}** has started{where}."
    verb = {"declined": "❌ Declined", "cancelled": "🚫 Cancelled"}.get(
        challenge.status, challenge.status
    )
    return f"{head}\n{verb} by {by}."


#: How much of a member's text the bot quotes back at most (Discord allows 6,000
#: characters in an option; a message holds 2,000).
ECHO_LIMIT = 40


def echo(text: object, limit: int = ECHO_LIMIT) -> str:
    """Member text made safe to quote back: on one line, no backticks (it is often put
    in code spans), at most ``limit`` characters. Every refusal that repeats what a
    member typed goes through here, however long the text they sent."""
    cleaned = " ".join(str(text).split()).replace("`", "'")
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


def echoing(message: str, text: str, limit: int = ECHO_LIMIT) -> str:
    """``message`` (an engine's or a parser's refusal, which may quote ``text`` whole)
    with every quotation of ``text`` shortened by :func:`echo`."""
    if len(text) <= limit or not text:
        return message
    short = echo(text, limit)
    for whole in (text, text.strip()):
        message = message.replace(repr(whole), repr(short))
    for whole in (text, text.strip()):
        if whole:
            message = message.replace(whole, short)
    return message
