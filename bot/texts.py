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

import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from discord.utils import format_dt

import rules
from bot import timecontrol
from bot.i18n import N_, N_n, _, _n, current_locale, said, speaking
from bot.i18n.languages import dm_language, guild_language
from bot.model import automatic_seat, members_of
from bot.storage import ChallengeRow, GameRow
from rules import State, Termination
from rules.words import colour_title

THREAD_NAME_LIMIT = 100


#: What a game against the bot is, in its posts (shown as ``_(PRACTICE)``).
PRACTICE = N_("Practice, never rated.")


def in_thread(row: GameRow | ChallengeRow) -> AbstractContextManager[None]:
    """Speak the language of the game's (or challenge's) server within the block: what
    is posted in its channel or thread is for everyone there. A game or challenge of the
    DMs (guild 0) speaks its players' language instead (:func:`dm_language`)."""
    if row.guild_id == 0:
        if isinstance(row, GameRow):
            return speaking(dm_language(list(row.player_ids)))
        return speaking(dm_language([row.challenger_id, row.opponent_id or 0]))
    return speaking(guild_language(row.guild_id))


def readers(row: GameRow) -> list[str]:
    """The languages a game of the DMs is read in, one per distinct language of its
    players (the bot's own seat aside), in seat order; none for a server's game (its
    thread speaks one language)."""
    if row.guild_id != 0:
        return []
    found: list[str] = []
    for seat, member_id in enumerate(row.player_ids):
        language = dm_language([member_id])
        if seat != automatic_seat(row) and language not in found:
            found.append(language)
    return found


def for_readers(row: GameRow, compose: Callable[[], str]) -> tuple[str, dict[str, str]]:
    """A post's text for everyone (``compose()`` in :func:`in_thread`'s language) and,
    for a game of the DMs, its text in each reader's language (:func:`readers`), to
    store with the post: each player's DM gets their own (:meth:`Post.text_for`)."""
    with in_thread(row):
        text = compose()
    by_locale: dict[str, str] = {}
    for language in readers(row):
        with speaking(language):
            by_locale[language] = compose()
    return text, by_locale


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
    name = _(
        "{game} · {first} vs {second}",
        game=label(row),
        first=row.player_names[0],
        second=row.player_names[1],
    )
    return name if len(name) <= THREAD_NAME_LIMIT else name[: THREAD_NAME_LIMIT - 1] + "…"


def options_text(options: dict[str, Any]) -> str:
    """``size 7, opening strong-pie`` (the options' names and values as typed)."""
    return ", ".join(f"{name} {value}" for name, value in options.items())


def player(row: GameRow, state: State, seat: int) -> str:
    """``Ana (black)``, or just ``Ana`` while a pie leaves the colours open."""
    color = state.color_of(seat)
    name = row.player_names[seat]
    return _("{name} ({colour})", name=name, colour=colour_word(color)) if color else name


#: The colours as a post names them beside a player: ``Ana (black)``.
_COLOUR_WORDS = {
    "black": N_("black"),
    "white": N_("white"),
    "yellow": N_("yellow"),
    "cyan": N_("cyan"),
}


def colour_word(colour: str) -> str:
    """A colour in lower case, in the current language: ``black``."""
    word = _COLOUR_WORDS.get(colour)
    return _(word) if word else colour


def player_word(state: State, seat: int) -> str:
    """A seat without a name: ``Black``, or ``the first player`` before the colours."""
    color = state.color_of(seat)
    if color:
        return said(colour_title(color))
    return _("the first player") if seat == 0 else _("the second player")


def turn_line(row: GameRow, state: State) -> str:
    """The ping for the player to move: ``<@1>, your turn: place two stones.``"""
    seat = state.to_move
    if seat is None or seat == automatic_seat(row):  # the bot's typing indicator says so
        return ""
    prompt = said(state.prompt).rstrip(".")
    who = mention(row.player_ids[seat])
    if prompt:
        return _("{member}, your turn: {prompt}.", member=who, prompt=prompt)
    return _("{member}, your turn.", member=who)


def sentence(text: str) -> str:
    """``text`` ending with a full stop (or its own ``!``, ``?`` or ``…``)."""
    text = text.strip()
    return text if not text or text[-1] in ".!?…" else f"{text}."


#: The counted things the bot names, singular and plural, for :func:`plural`.
_COUNTED = {
    "move": N_n("{count} move", "{count} moves"),
    "round": N_n("{count} round", "{count} rounds"),
    "player": N_n("{count} player", "{count} players"),
    "rated game": N_n("{count} rated game", "{count} rated games"),
    "game": N_n("{count} game", "{count} games"),
    "day": N_n("{count} day", "{count} days"),
    "hour": N_n("{count} hour", "{count} hours"),
    "minute": N_n("{count} minute", "{count} minutes"),
}


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 move``, ``2 moves`` in the current language (for the words of ``_COUNTED``;
    English for another); ``words`` for an irregular plural."""
    forms = _COUNTED.get(word)
    if forms is not None and words is None:
        return _n(forms[0], forms[1], count)
    return f"{count} {word if count == 1 else words or word + 's'}"


def result_text(row: GameRow, state: State | None = None) -> str:
    """How a finished game ended, in the current language: composed from how it ended
    (``end_reason``), the winner and, with its final ``state``, the colours (the rules'
    own sentence when the rules ended it); the players' names without it."""
    termination = row.end_reason
    by_rules = termination is None or termination.by_rules
    if state is not None and by_rules and state.outcome is not None:
        return said(state.outcome.text)
    if row.is_active or termination is None:
        return row.result or row.status
    if row.result and current_locale() == "en":
        return row.result  # as it was stored (its words may say more: who aborted)
    if termination is Termination.ABORT or row.status == "aborted":
        return _("Aborted")
    if row.winner_seat is None:
        return _("Draw by repetition") if termination is Termination.REPETITION else _("Draw")
    winner, loser = (_side(row, state, seat) for seat in (row.winner_seat, 1 - row.winner_seat))
    if termination is Termination.RESIGNATION:
        return _("{winner} wins: {loser} resigned", winner=winner, loser=loser)
    if termination is Termination.TIMEOUT:
        return _("{winner} wins: {loser} ran out of time", winner=winner, loser=loser)
    if termination is Termination.NO_MOVES:
        return _("{winner} wins: {loser} has no legal move", winner=winner, loser=loser)
    if termination is Termination.NO_STONES:
        return _("{winner} wins: {loser} has no stones left", winner=winner, loser=loser)
    if termination is Termination.STALEMATE:
        return _("{winner} wins: {winner} has no legal placement (stalemate wins)", winner=winner)
    if termination is Termination.SCORE:
        scores = re.search(r"wins ([0-9.]+) to ([0-9.]+)", row.result or "")
        if scores:
            return _("{winner} wins {top} to {low}", winner=winner, top=scores[1], low=scores[2])
    return _("{winner} wins {how}", winner=winner, how=said(termination.description))


def _side(row: GameRow, state: State | None, seat: int) -> str:
    """A player as a result names them: their colour with the final position, else
    their name."""
    colour = state.color_of(seat) if state is not None else None
    return said(colour_title(colour)) if colour else row.player_names[seat]


def over_text(row: GameRow, state: State | None = None) -> str:
    """``Asli #3 is over: White wins: Black resigned.``: a refusal for a finished game."""
    return sentence(_("{game} is over: {result}", game=label(row), result=result_text(row, state)))


def game_over(row: GameRow, state: State | None = None) -> str:
    """``**Game over.** Black wins: White resigned. Ana wins.`` (the winner named when
    the result names the colours)."""
    result = sentence(result_text(row, state))
    if row.status == "aborted":
        return _("**Game over.** {result} It counts for nothing.", result=result)
    over = _("**Game over.** {result}", result=result)
    if row.winner_seat is None:
        english = (state.result if state is not None else None) or row.result or ""
        if row.end_reason is Termination.REPETITION or "draw" in english.lower():
            return over  # the result says so
        return over + " " + _("It's a draw.")
    winner = row.player_names[row.winner_seat]
    if state is None or state.color_of(row.winner_seat) is None or result.startswith(winner):
        return over  # the result names the players
    # (outside f-strings: Babel's extractor does not look into them)
    if row.winner_seat == automatic_seat(row):
        return over + " " + _("I win.")
    return over + " " + _("{name} wins.", name=winner)


def opening_post(row: GameRow, state: State) -> str:
    first = player(row, state, 0)
    second = player(row, state, 1)
    practice = automatic_seat(row) is not None
    head = _(
        "**{game}**: {first} vs {second} ({options}).",
        game=label(row),
        first=first,
        second=second,
        options=options_text(row.options),
    )
    lines = [
        head + (f" {_(PRACTICE)}" if practice else ""),
        _("I play first.")
        if automatic_seat(row) == 0
        else _("{name} is the first player.", name=row.player_names[0]),
        turn_line(row, state),
    ]
    return "\n".join(line for line in lines if line)


def move_line(row: GameRow, after: State, seat: int, move: str, did: str = "") -> str:
    """``**Asli #3** · move 12: Ana (black) played `h3`: captured 19 white stones.``, or
    for a colour choice ``… move 2: Bo chose white.``"""
    head = _("**{game}** · move {number}", game=label(row), number=after.ply)
    bot = seat == automatic_seat(row)  # the bot speaks for itself
    if move == after.color_of(seat):  # the move is the colour its player now has
        colour = colour_word(move)
        if bot:
            line = _("{head}: I chose {colour}", head=head, colour=colour)
        else:
            line = _(
                "{head}: {name} chose {colour}",
                head=head,
                name=row.player_names[seat],
                colour=colour,
            )
    elif bot:
        line = _("{head}: I played `{move}`", head=head, move=move)
    else:
        line = _(
            "{head}: {name} played `{move}`", head=head, name=player(row, after, seat), move=move
        )
    return f"{line}: {did}." if did else f"{line}."


def final_post(row: GameRow, head: str, words: list[str], state: State | None = None) -> str:
    """The one post of a game's end: ``head`` (its last move, or its name), how it
    ended, the final ``words`` (summary, ratings, record), and both players mentioned
    (thanked, unless the game was aborted): the members, not the bot."""
    both = " ".join(mention(member_id) for member_id in members_of(row))
    again = "/practice" if automatic_seat(row) is not None else "/challenge"
    thanks = (
        _(
            "{members}: start a new game with `{command}` whenever you like.",
            members=both,
            command=again,
        )
        if row.status == "aborted"
        else _("Well played, {members}!", members=both)
    )
    return "\n".join([head, game_over(row, state), *words, thanks])


def status_line(row: GameRow, state: State, member_id: int) -> str:
    """For the games list: whose turn it is, seen by ``member_id``."""
    if not row.is_active:
        return result_text(row, state)
    seat = state.to_move
    if seat is None:
        return _("finished")
    if row.player_ids[seat] == member_id:
        if state.prompt:
            return _("**your turn**: {prompt}", prompt=said(state.prompt))
        return _("**your turn**")
    return _("{name}'s turn", name=row.player_names[seat])


def clock_text(settings: dict[str, Any]) -> str:
    """The game's time control and courtesies: ``3 days per move, no takebacks``."""
    try:
        control = timecontrol.parse_time_control(str(settings.get("time_control", "3d")))
    except timecontrol.TimeControlError:
        control = timecontrol.DEFAULT
    parts = [timecontrol.describe_time_control(control)]
    if settings.get("takebacks") is False:
        parts.append(_("no takebacks"))
    if settings.get("vacation") is False:
        parts.append(_("no vacations"))
    return ", ".join(parts)


def when(moment: datetime) -> str:
    """``Sunday, 4 January 2026 12:00``, in each reader's own time zone."""
    return format_dt(moment, "f")


def relative(moment: datetime) -> str:
    """``in 2 days``, in each reader's own words."""
    return format_dt(moment, "R")


def deadline_line(name: str, deadline: datetime) -> str:
    """``⏳ Ana's time for this move runs out in 3 days (Sunday…).``"""
    return _(
        "⏳ {name}'s time for this move runs out {relative} ({moment}).",
        name=name,
        relative=relative(deadline),
        moment=when(deadline),
    )


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
    whom = mention(challenge.opponent_id) if challenge.opponent_id else _("anyone")
    first = {
        "challenger": _("{name} plays first", name=challenge.challenger_name),
        "opponent": _("the opponent plays first"),
        "random": _("who plays first is drawn at random"),
    }.get(challenge.settings.get("first", "challenger"), "")
    casual = _("; casual, unrated") if challenge.settings.get("rated") is False else ""
    lines = [
        _(
            "**{name}** challenges {whom} to **{game}** ({options}; {first}{casual}; {clock}).",
            name=challenge.challenger_name,
            whom=whom,
            game=title,
            options=options_text(challenge.options),
            first=first,
            casual=casual,
            clock=clock_text(challenge.settings),
        )
    ]
    if challenge.status == "pending":
        lines.append(
            _("Accept to start the game in a thread of its own.")
            if challenge.opponent_id
            else _("Anyone may accept.")
        )
        if expires_at is not None:
            lines[-1] += " " + _(
                "It expires {relative} if nobody answers.", relative=relative(expires_at)
            )
    return "\n".join(lines)


#: A challenge's (or game's) status, as a sentence says it.
_STATUS_WORDS = {
    "pending": N_("pending"),
    "accepted": N_("accepted"),
    "declined": N_("declined"),
    "cancelled": N_("cancelled"),
    "expired": N_("expired"),
    "active": N_("in progress"),
    "finished": N_("finished"),
    "aborted": N_("aborted"),
}


def status_word(status: str) -> str:
    """``declined``, in the current language."""
    word = _STATUS_WORDS.get(status)
    return _(word) if word else status


def challenge_expired_text(challenge: ChallengeRow) -> str:
    """The challenge message once nobody answered it in time."""
    head = challenge_text(challenge).splitlines()[0]
    expired = _("⌛ Expired: nobody answered in time. Start a new one with /challenge.")
    return f"{head}\n{expired}"


def challenge_closed_text(challenge: ChallengeRow, by: str, game: GameRow | None = None) -> str:
    """The challenge message once answered: ``by`` is who answered."""
    head = challenge_text(challenge).splitlines()[0]
    if challenge.status == "accepted" and game is not None:
        if game.place == "dms":
            done = _(
                "✅ Accepted by {name}: **{game}** has started in both players' DMs with me.",
                name=by,
                game=label(game),
            )
        elif game.thread_id:
            done = _(
                "✅ Accepted by {name}: **{game}** has started in {thread}.",
                name=by,
                game=label(game),
                thread=f"<#{game.thread_id}>",
            )
        else:
            done = _("✅ Accepted by {name}: **{game}** has started.", name=by, game=label(game))
        return f"{head}\n{done}"
    if challenge.status == "declined":
        return f"{head}\n" + _("❌ Declined by {name}.", name=by)
    if challenge.status == "cancelled":
        return f"{head}\n" + _("🚫 Cancelled by {name}.", name=by)
    return f"{head}\n" + _("{status} by {name}.", status=status_word(challenge.status), name=by)


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
