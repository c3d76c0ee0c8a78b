"""Where games and challenges live when no server the bot is in holds them (issue 29).

The bot's commands work in three kinds of place: a server that installed the bot, the
bot's DM with a member, and anywhere a member installed the app to their own account
(a group DM, a server that never installed the bot). Only in the first can the bot
post; elsewhere it answers interactions, and everything it must send later goes to
the players' DMs with the bot.

So a game or challenge of no server the bot is in has **guild id** :data:`DMS` (0): the
scope of "the DMs", in which every query by guild finds it (``/move`` in a DM finds the
member's DM games as ``/move`` in a server finds that server's). Its row says where it
lives (``place``: ``dms``) and links back to where it was made (``link``). Discord-free:
the words members read about places, and the pure rules of where a post may go.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.i18n import N_, _

#: The guild id of games and challenges that live in their members' DMs.
DMS = 0
#: How long an interaction's token lets the bot answer, edit and follow up (Discord's
#: 15 minutes, less a margin for the way there).
TOKEN_LIFETIME = timedelta(minutes=15)
TOKEN_MARGIN = timedelta(seconds=30)
#: Follow-ups Discord takes to an interaction the app reaches only through a member's
#: own install (a server without the bot, a group DM).
FOLLOWUP_LIMIT = 5


def token_alive(until: datetime | None, now: datetime) -> bool:
    """Whether an interaction token that dies at ``until`` may still be used."""
    return until is not None and now < until - TOKEN_MARGIN


def with_link(content: str, link: str | None) -> str:
    """A post sent to a player's DMs, with the link back to where the game was made."""
    return content if not link else content + "\n" + _("-# Started here: {link}", link=link)


def sent_to_dms(opponent: str) -> str:
    """The challenger's answer once a challenge made in a DM is sent to the opponent."""
    return _(
        "Your challenge is on its way to {name}'s DMs with me: the game will be "
        "played in both your DMs with me.",
        name=opponent,
    )


def reply_card_note(opponent: str | None) -> str:
    """Under a challenge card answered in a server without the bot (or a group DM)."""
    if opponent is None:
        return _("-# The game will be played in the players' DMs with me.")
    return _(
        "-# {name} also gets this challenge in their DMs with me; the game will be "
        "played in both your DMs with me.",
        name=opponent,
    )


def no_dm_to(name: str) -> str:
    """A challenge whose opponent the bot can't DM (no shared server, no install)."""
    return _(
        "I can't send {name} a direct message: they need to share a server with me, "
        "or to add me to their apps (then try again).",
        name=name,
    )


#: Shown as ``_(OPEN_CHALLENGE_IN_DM)``.
OPEN_CHALLENGE_IN_DM = N_(
    "In a DM nobody else sees a challenge: name your opponent (`opponent:`), or challenge "
    "in a server."
)


def lives_in_dms(link: str | None) -> str:
    """Where a game of no server lives, for whoever meets one of its old cards."""
    if link:
        return _(
            "That game is played in its players' DMs with me (its latest board: {link}).",
            link=link,
        )
    return _("That game is played in its players' DMs with me.")


def moved_here(label: str) -> str:
    """The caption of a move's board, answered where the bot can't post."""
    return _(
        "**{game}**: your move is played; the next turns come to your DMs with me.", game=label
    )


#: Shown as ``_(SERVER_ONLY)``.
SERVER_ONLY = N_(
    "This command only works in a server that added me (not in DMs, group chats or "
    "servers where only members added me)."
)


def game_ref(label: str, url: str, in_dms: bool) -> str:
    """A game in a list (``/games``, ``/myturn``): linked to its board, or for a game of
    the DMs (whose boards are in each player's own DMs) said to be there."""
    return _("{game} (in DMs)", game=label) if in_dms else f"[{label}]({url})"


#: Shown as ``_(OWN_GAMES_ONLY)``.
OWN_GAMES_ONLY = N_("In DMs, `/games` lists only your own games (your DM games are yours alone).")
