"""What the seeks area says: the seek cards in the lobbies, /seek's and /lobby's answers
and refusals, in the current language (a card: its lobby's server's; an answer: the
member's). The ``N_`` constants are shown as ``_(X)``."""

from __future__ import annotations

from bot import places, texts
from bot.i18n import N_, _, _n
from bot.storage import GameRow, SeekRow


def seek_line(seek: SeekRow) -> str:
    """``#4 Ana: Asli (size 5), 3 days per move, rated``."""
    options = texts.options_text(seek.options)
    rated = _("rated") if seek.settings.get("rated", True) is not False else _("casual")
    game = texts.title_of(seek.game)
    if options:
        game = _("{game} ({options})", game=game, options=options)
    return _(
        "#{number} {name}: {game}, {clock}, {rated}",
        number=seek.id,
        name=seek.seeker_name,
        game=game,
        clock=texts.clock_text(seek.settings),
        rated=rated,
    )


def card_text(seek: SeekRow) -> str:
    """A seek's card in a lobby, while it is open."""
    return _(
        "🔎 **Seek {seek}.**\n"
        "{name} is looking for an opponent from any server: press **Accept** to play (the "
        "game starts in a server you both share with me, else in your DMs). Open until "
        "{moment}.",
        seek=seek_line(seek),
        name=seek.seeker_name,
        moment=texts.when(seek.expires_at),
    )


def closed_card_text(seek: SeekRow, game: GameRow | None = None) -> str:
    """A seek's card once it is taken, cancelled or expired."""
    head = _("🔎 ~~Seek {seek}~~", seek=seek_line(seek))
    if seek.status == "accepted":
        if game is not None:
            done = _("Taken by {name}: {game}.", name=seek.accepter_name, game=texts.label(game))
        else:
            done = _("Taken by {name}.", name=seek.accepter_name)
    elif seek.status == "cancelled":
        done = _("Cancelled by {name}.", name=seek.seeker_name)
    else:
        done = _("Expired: nobody accepted it in time.")
    return f"{head}\n{done}"


def created_text(seek: SeekRow, lobbies: int) -> str:
    where = (
        _n(
            "posted in the lobby of {count} server",
            "posted in the lobby of {count} servers",
            lobbies,
        )
        if lobbies
        else _("listed by `/seek list` (no server has a lobby channel yet)")
    )
    return _(
        "Your seek {seek} is open until {moment}: {where}. Cancel it with `/seek cancel`.",
        seek=seek_line(seek),
        moment=texts.when(seek.expires_at),
        where=where,
    )


def listing(seeks: list[SeekRow]) -> str:
    if not seeks:
        return _("No open seeks right now: make one with `/seek create`.")
    lines = [
        _("- {seek} (until {relative})", seek=seek_line(s), relative=texts.relative(s.expires_at))
        for s in seeks
    ]
    return _("Open seeks (press Accept under one to play):") + "\n" + "\n".join(lines)


def cancelled_text(seeks: list[SeekRow]) -> str:
    numbers = ", ".join(_("seek #{number}", number=s.id) for s in seeks)
    return _("Cancelled: {seeks}.", seeks=numbers)


def started_text(game: GameRow) -> str:
    if game.guild_id == places.DMS:
        return _(
            "You accepted: {game} is played in your DMs with me, and in {first}'s and "
            "{second}'s (you share no server with me).",
            game=texts.label(game),
            first=game.player_names[0],
            second=game.player_names[1],
        )
    return _(
        "You accepted: {game} starts in {url}",
        game=texts.label(game),
        url=texts.jump_url(game.guild_id, game.where_id, game.last_message_id),
    )


def lobby_set_text(channel_id: int | None) -> str:
    if channel_id is None:
        return _("This server has no lobby channel any more: seeks are no longer posted here.")
    return _(
        "Seeks from every server will be posted in {channel}, and games accepted between "
        "members of this server may start there.",
        channel=f"<#{channel_id}>",
    )


# -- refusals -------------------------------------------------------------------------

NO_SEEK = N_("That seek doesn't exist: see the open ones with `/seek list`.")
OWN_SEEK = N_("You can't accept your own seek (use `/seek cancel` to withdraw it).")
BOTS = N_("Bots can't play.")
NOTHING_TO_CANCEL = N_("You have no open seek to cancel.")
LOBBY_NEEDS_MANAGER = N_("Setting the lobby channel needs the Manage Server permission.")
LOBBY_IN_SERVER = N_("The lobby is a server's channel: use `/lobby channel` in a server.")
NO_SHARED_SERVER = N_(
    "You and {seeker} share no server with me where the game could start: ask a "
    "moderator of a server you share to set a lobby with `/lobby channel`."
)
NOT_A_TEXT_CHANNEL = N_("Pick a text channel of this server where I can post.")


def already_open(seek: SeekRow) -> str:
    return _(
        "You already have an open {game} seek (#{number}): cancel it with `/seek cancel` first.",
        game=texts.title_of(seek.game),
        number=seek.id,
    )


def closed_refusal(seek: SeekRow) -> str:
    """What an Accept of a seek no longer open is told."""
    if seek.status == "accepted":
        return _(
            "Seek #{number} was already taken by {name}.", number=seek.id, name=seek.accepter_name
        )
    if seek.status == "cancelled":
        return _("Seek #{number} was cancelled by {name}.", number=seek.id, name=seek.seeker_name)
    return _("Seek #{number} has expired: nobody accepted it in time.", number=seek.id)


def beaten_to_it(seek: SeekRow) -> str:
    if seek.status == "accepted":
        return _(
            "{name} accepted seek #{number} just before you.",
            name=seek.accepter_name,
            number=seek.id,
        )
    return closed_refusal(seek)


def no_shared_server(seek: SeekRow) -> str:
    return _(NO_SHARED_SERVER, seeker=seek.seeker_name)


def not_yours(seek: SeekRow) -> str:
    return _("Only {name} can cancel seek #{number}.", name=seek.seeker_name, number=seek.id)
