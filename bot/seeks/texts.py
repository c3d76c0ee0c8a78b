"""What the seeks area says: the seek cards in the lobbies, /seek's and /lobby's answers
and refusals."""

from __future__ import annotations

from bot import places, texts
from bot.storage import GameRow, SeekRow


def seek_line(seek: SeekRow) -> str:
    """``#4 Ana: Asli (size 5), 3 days per move, rated``."""
    options = texts.options_text(seek.options)
    rated = "rated" if seek.settings.get("rated", True) is not False else "casual"
    return (
        f"#{seek.id} {seek.seeker_name}: {texts.title_of(seek.game)}"
        + (f" ({options})" if options else "")
        + f", {texts.clock_text(seek.settings)}, {rated}"
    )


def card_text(seek: SeekRow) -> str:
    """A seek's card in a lobby, while it is open."""
    return (
        f"🔎 **Seek {seek_line(seek)}.**\n"
        f"{seek.seeker_name} is looking for an opponent from any server: press **Accept** "
        "to play (the game starts in a server you both share with me, else in your DMs). "
        f"Open until {texts.when(seek.expires_at)}."
    )


def closed_card_text(seek: SeekRow, game: GameRow | None = None) -> str:
    """A seek's card once it is taken, cancelled or expired."""
    head = f"🔎 ~~Seek {seek_line(seek)}~~"
    if seek.status == "accepted":
        where = f": {texts.label(game)}" if game is not None else ""
        return f"{head}\nTaken by {seek.accepter_name}{where}."
    if seek.status == "cancelled":
        return f"{head}\nCancelled by {seek.seeker_name}."
    return f"{head}\nExpired: nobody accepted it in time."


def created_text(seek: SeekRow, lobbies: int) -> str:
    where = (
        f"posted in the lobby of {texts.plural(lobbies, 'server')}"
        if lobbies
        else "listed by `/seek list` (no server has a lobby channel yet)"
    )
    return (
        f"Your seek {seek_line(seek)} is open until {texts.when(seek.expires_at)}: "
        f"{where}. Cancel it with `/seek cancel`."
    )


def listing(seeks: list[SeekRow]) -> str:
    if not seeks:
        return "No open seeks right now: make one with `/seek create`."
    return "Open seeks (press Accept under one to play):\n" + "\n".join(
        f"- {seek_line(s)} (until {texts.relative(s.expires_at)})" for s in seeks
    )


def cancelled_text(seeks: list[SeekRow]) -> str:
    return "Cancelled: " + ", ".join(f"seek #{s.id}" for s in seeks) + "."


def started_text(game: GameRow) -> str:
    if game.guild_id == places.DMS:
        return (
            f"You accepted: {texts.label(game)} is played in your DMs with me, and in "
            f"{game.player_names[0]}'s and {game.player_names[1]}'s (you share no server "
            "with me)."
        )
    return (
        f"You accepted: {texts.label(game)} starts in "
        f"{texts.jump_url(game.guild_id, game.where_id, game.last_message_id)}"
    )


def lobby_set_text(channel_id: int | None) -> str:
    if channel_id is None:
        return "This server has no lobby channel any more: seeks are no longer posted here."
    return (
        f"Seeks from every server will be posted in <#{channel_id}>, and games accepted "
        "between members of this server may start there."
    )


# -- refusals -------------------------------------------------------------------------

NO_SEEK = "That seek doesn't exist: see the open ones with `/seek list`."
OWN_SEEK = "You can't accept your own seek (use `/seek cancel` to withdraw it)."
BOTS = "Bots can't play."
NOTHING_TO_CANCEL = "You have no open seek to cancel."
LOBBY_NEEDS_MANAGER = "Setting the lobby channel needs the Manage Server permission."
LOBBY_IN_SERVER = "The lobby is a server's channel: use `/lobby channel` in a server."
NO_SHARED_SERVER = (
    "You and {seeker} share no server with me where the game could start: ask a "
    "moderator of a server you share to set a lobby with `/lobby channel`."
)
NOT_A_TEXT_CHANNEL = "Pick a text channel of this server where I can post."


def already_open(seek: SeekRow) -> str:
    return (
        f"You already have an open {texts.title_of(seek.game)} seek (#{seek.id}): "
        "cancel it with `/seek cancel` first."
    )


def closed_refusal(seek: SeekRow) -> str:
    """What an Accept of a seek no longer open is told."""
    if seek.status == "accepted":
        return f"Seek #{seek.id} was already taken by {seek.accepter_name}."
    if seek.status == "cancelled":
        return f"Seek #{seek.id} was cancelled by {seek.seeker_name}."
    return f"Seek #{seek.id} has expired: nobody accepted it in time."


def beaten_to_it(seek: SeekRow) -> str:
    if seek.status == "accepted":
        return f"{seek.accepter_name} accepted seek #{seek.id} just before you."
    return closed_refusal(seek)


def no_shared_server(seek: SeekRow) -> str:
    return NO_SHARED_SERVER.format(seeker=seek.seeker_name)


def not_yours(seek: SeekRow) -> str:
    return f"Only {seek.seeker_name} can cancel seek #{seek.id}."
