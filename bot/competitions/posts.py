"""What a tournament shows on Discord, through the outbox (:mod:`bot.outbox`), in its
own lane (``tournament:<id>``), each item stored with the change that causes it: its
sign-up post (Join and Leave buttons) and the thread opened from it, then in the
thread who joined or left, the start, each round's pairings with the standings so
far, replays, withdrawals, and the champion with the final standings and crosstable
(or bracket) picture.

The posts go through the games' :class:`~bot.model.Poster` as if the tournament were
a game living in its channel, then in its thread (:func:`place`): each delivery is
safe to repeat as a board's is (nonces, a thread found again). What a delivery did is
recorded in its item, so that a repeat goes on from there.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot import texts
from bot.competitions.pairing import Match, knockout
from bot.competitions.service import FORMATS, Record, byes_of, played_by_round, results_of
from bot.competitions.standings import Standing, standings
from bot.competitions.tables import tournament_picture
from bot.core.boards import SEND_WAIT
from bot.i18n import _, speaking
from bot.i18n.languages import guild_language
from bot.model import Post, Poster
from bot.outbox import Outbox, Staged, item
from bot.storage import (
    Database,
    EntrantRow,
    GameRow,
    OutboxRow,
    TournamentGameRow,
    TournamentRow,
    queries,
)

log = logging.getLogger(__name__)

#: The post action naming the sign-up buttons (built by the area's views).
SIGNUP_ACTION = "tournament"

#: A tournament's picture: (tournament, entrants, games, standings, bracket) -> PNG.
Picture = Callable[
    [TournamentRow, list[EntrantRow], list[TournamentGameRow], list[Standing], Any],
    Awaitable[bytes | None],
]


def tournament_lane(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def place(t: TournamentRow) -> GameRow:
    """Where the tournament's posts go, as the poster takes it: its channel until its
    thread is open (the thread opened from its sign-up post), then its thread. The id
    is negative: no game's."""
    return GameRow(
        id=-t.id,
        guild_id=t.guild_id,
        channel_id=t.channel_id,
        thread_id=t.thread_id,
        challenge_id=None,
        challenge_message_id=t.message_id,
        last_message_id=None,
        game=t.game,
        options=t.options,
        settings={"tournament": t.id},
        player_ids=(0, 0),
        player_names=("", ""),
        status="finished",  # no clock, no deadline line
        result=None,
        winner_seat=None,
        end_reason=None,
        created_at=t.created_at,
        finished_at=None,
    )


def format_line(t: TournamentRow) -> str:
    what = _(FORMATS[t.format]) if t.format in FORMATS else t.format
    game = texts.title_of(t.game)
    if t.format == "swiss":
        return _(
            "a {format} of {rounds} of {game}",
            format=what,
            rounds=texts.plural(t.rounds or 0, "round"),
            game=game,
        )
    return _("a {format} of {game}", format=what, game=game)


def signup_text(t: TournamentRow, players: Sequence[EntrantRow], *, signup: bool = True) -> str:
    options = texts.options_text(t.options)
    what = format_line(t)
    if options:
        what = _("{what} ({options})", what=what, options=options)
    head = _(
        "🏆 **{name}**: {what}, {clock}, {rated}.",
        name=t.name,
        what=what,
        clock=texts.clock_text(t.settings),
        rated=_("rated") if t.rated else _("casual"),
    )
    if not signup:  # a league's division: its players are known
        names = ", ".join(p.member_name for p in players)
        return head + "\n" + _("Players: {names}.", names=names)
    return (
        head
        + "\n"
        + _(
            "Organised by {name}. Sign-up until {moment} ({relative}): {least} to {most} "
            "players, {count} so far. Press **Join** to play.",
            name=t.organiser_name,
            moment=texts.when(t.starts_at),
            relative=texts.relative(t.starts_at),
            least=t.min_players,
            most=t.max_players,
            count=len(players),
        )
    )


def standings_text(table: Sequence[Standing], names: dict[int, str], limit: int = 40) -> str:
    """The standings as a monospaced table (the headings' words at most their English
    widths: a column for each)."""
    player, points = _("player")[:20], _("pts")[:5]
    lines = ["```", f"{'#':>3} {player:<20} {points:>5} {'SB':>6}  W-D-L"]
    for s in table[:limit]:
        lines.append(
            f"{s.rank:>3} {names.get(s.player, str(s.player))[:20]:<20} "
            f"{_points(s.score):>5} {s.sonneborn_berger:>6.2f}  {s.wins}-{s.draws}-{s.losses}"
        )
    if len(table) > limit:
        lines.append(_("… and {count} more", count=len(table) - limit))
    lines.append("```")
    return "\n".join(lines)


def pairings_text(games: Sequence[TournamentGameRow], names: dict[int, str]) -> str:
    lines = []
    for g in games:
        first = names.get(g.player0_id, str(g.player0_id))
        if g.player1_id is None:
            lines.append(_("- {name}: a bye", name=first))
            continue
        second = names.get(g.player1_id, str(g.player1_id))
        if g.forfeit and g.points is not None:
            lines.append(
                _(
                    "- {first} – {second}: {score} (forfeit)",
                    first=first,
                    second=second,
                    score=_score(g.points),
                )
            )
        else:
            lines.append(f"- {first} – {second}")
    return "\n".join(lines)


def results_text(number: int, games: Sequence[TournamentGameRow], names: dict[int, str]) -> str:
    """A round's results, game by game."""
    lines = [_("Results of round {number}:", number=number)]
    for g in games:
        if g.round != number or g.points is None:
            continue
        first = names.get(g.player0_id, str(g.player0_id))
        if g.player1_id is None:
            lines.append(_("- {name}: a bye", name=first))
            continue
        second = names.get(g.player1_id, str(g.player1_id))
        score = _score(g.points)
        if g.forfeit:
            line = _(
                "- {first} {score} {second} (forfeit)", first=first, score=score, second=second
            )
        else:
            line = f"- {first} {score} {second}"
        lines.append(line)
    return "\n".join(lines)


def bracket_text(bracket: Sequence[Sequence[Match]], names: dict[int, str]) -> str:
    lines = []
    for number, matches in enumerate(bracket, start=1):
        cells = []
        for m in matches:
            a, b = (names.get(s, "?") if s is not None else "—" for s in m.sides)
            won = f" → **{names.get(m.winner, '?')}**" if m.winner is not None else ""
            cells.append(f"{a} v {b}{won}")
        lines.append(_("Round {number}: {matches}", number=number, matches="; ".join(cells)))
    return "\n".join(lines)


def moves_text(payload: dict[str, Any]) -> str:
    """A league division's news at the season's turn: who goes up, who down."""

    def listed(key: str) -> str:
        return ", ".join(
            _("{name} (division {number})", name=name, number=to)
            for name, to in payload.get(key) or []
        )

    lines = [
        _(
            "Season {number} begins: the divisions are made again.",
            number=payload.get("season", "?"),
        )
    ]
    if payload.get("up"):
        lines.append(_("⬆️ Promoted: {names}.", names=listed("up")))
    if payload.get("down"):
        lines.append(_("⬇️ Relegated: {names}.", names=listed("down")))
    if payload.get("gone"):
        gone = ", ".join(n for n, _to in payload["gone"])
        lines.append(_("Leaving the league: {names}.", names=gone))
    if len(lines) == 1:
        lines.append(_("Everyone stays in this division."))
    return "\n".join(lines)


def record_text(record: Record, member_id: int, other: str, last: int = 5) -> str:
    """``/h2h``: the record against ``other`` (wins, draws, losses), by game, and the
    last games, each linked to its thread, with how each went for the member."""
    if not record.games:
        return _("You haven't finished a game against {name} here yet.", name=other)
    wins, draws, losses = record.total
    lines = [
        _(
            "**You v {name}**: {wins} won, {draws} drawn, {losses} lost.",
            name=other,
            wins=wins,
            draws=draws,
            losses=losses,
        )
    ]
    for name, (w, d, lo) in sorted(record.by_game.items()):
        lines.append(
            _(
                "- {game}: {wins} won, {draws} drawn, {losses} lost",
                game=texts.title_of(name),
                wins=w,
                draws=d,
                losses=lo,
            )
        )
    shown = []
    for row in reversed(record.games[-last:]):
        if row.winner_seat is None:
            how = _("drawn")
        else:
            how = _("won") if row.player_ids[row.winner_seat] == member_id else _("lost")
        where = texts.jump_url(row.guild_id, row.thread_id or row.channel_id)
        shown.append(f"[{texts.label(row)}]({where}) {how}")
    lines.append(_("Last games: {games}", games=", ".join(shown)))
    return "\n".join(lines)


def _points(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


def _score(points: float) -> str:
    return {1.0: "1–0", 0.5: "½–½", 0.0: "0–1"}.get(points, str(points))


class TournamentPosts:
    """Stages a tournament's news in its lane and delivers them (the service's
    :class:`~bot.competitions.service.News`)."""

    def __init__(
        self,
        db: Database,
        poster: Poster,
        outbox: Outbox,
        *,
        now: Callable[[], datetime],
        picture: Picture = tournament_picture,
    ) -> None:
        self.db = db
        self.poster = poster
        self.outbox = outbox
        self.now = now
        self.picture = picture
        outbox.handle("tournament", self._deliver)

    def staged(self, tournament_id: int, news: str, **details: Any) -> Staged:
        return item(
            tournament_lane(tournament_id),
            "tournament",
            {"tournament_id": tournament_id, "news": news, **details},
            now=self.now(),
        )

    async def send(self, *staged: Staged) -> None:
        await self.outbox.deliver(*staged, timeout=SEND_WAIT)

    async def _record(self, pending: OutboxRow, done: dict[str, Any]) -> None:
        pending.result.update(done)
        await self.db.write([queries.outbox_result_statement(pending.id, pending.result)])

    async def _deliver(self, pending: OutboxRow, worked_out: object) -> None:
        payload = pending.payload
        async with self.db.reading() as conn:
            t = await queries.get_tournament(conn, payload["tournament_id"])
            players = [] if t is None else await queries.entrants(conn, t.id)
            games = [] if t is None else await queries.tournament_games(conn, t.id)
        if t is None:
            return
        with speaking(guild_language(t.guild_id)):  # the thread's words: its server's
            await self._deliver_in(pending, t, players, games)

    async def _deliver_in(
        self,
        pending: OutboxRow,
        t: TournamentRow,
        players: list[EntrantRow],
        games: list[TournamentGameRow],
    ) -> None:
        payload = pending.payload
        names = {p.member_id: p.member_name for p in players}
        news = payload["news"]
        if news == "created":
            await self._open(pending, t, players, signup=payload.get("signup", True))
            return
        if "posted" in pending.result:
            return
        if news in ("joined", "left") and t.message_id is not None and t.status == "signup":
            # the sign-up post's count of players, as it is now (a later delivery shows
            # a later count: the last one is right)
            await self.poster.edit_text(t.channel_id, t.message_id, signup_text(t, players))
        content, picture = await self._words(t, news, payload, players, games, names)
        if news in ("started", "cancelled") and t.message_id is not None:
            await self.poster.remove_buttons(t.channel_id, t.message_id)
        if not content:
            return
        posted = await self.poster.post(
            place(t),
            Post(content[:2000], picture=picture, filename="standings.png"),
        )
        await self._record(pending, {"posted": posted.message_id})

    async def _open(
        self, pending: OutboxRow, t: TournamentRow, players: list[EntrantRow], *, signup: bool
    ) -> None:
        """The sign-up post, then the tournament's thread opened from it."""
        message_id = pending.result.get("message", t.message_id)
        if message_id is None:
            posted = await self.poster.post(
                place(t),
                Post(
                    signup_text(t, players, signup=signup),
                    actions=(f"{SIGNUP_ACTION}:{t.id}",) if signup else (),
                ),
            )
            message_id = posted.message_id
            await self.db.write(
                [queries.outbox_result_statement(pending.id, {"message": message_id})]
            )
            pending.result["message"] = message_id
            if message_id is None:
                return
            async with self.db.transaction() as tx:
                await queries.set_tournament_post(tx, t.id, message_id=message_id)
        if t.thread_id is not None:
            return
        thread_id = await self.poster.open_thread(
            place(replace(t, message_id=message_id)), f"🏆 {t.name}"[:100]
        )
        if thread_id is not None:
            async with self.db.transaction() as tx:
                await queries.set_tournament_post(tx, t.id, thread_id=thread_id)

    async def _words(
        self,
        t: TournamentRow,
        news: str,
        payload: dict[str, Any],
        players: list[EntrantRow],
        games: list[TournamentGameRow],
        names: dict[int, str],
    ) -> tuple[str, bytes | None]:
        def who(key: str) -> str:
            return names.get(payload.get(key) or 0) or _("someone")

        count = _("{count} of {most} places taken", count=len(players), most=t.max_players)
        if news == "joined":
            return _("{name} joined ({count}).", name=who("member"), count=count), None
        if news == "left":
            name = payload.get("name") or _("Someone")
            return _("{name} left ({count}).", name=name, count=count), None
        if news == "started":
            seeded = ", ".join(f"{p.member_name}" for p in players)
            return (
                _(
                    "**{name}** starts with {players}: {names}.",
                    name=t.name,
                    players=texts.plural(len(players), "player"),
                    names=seeded,
                ),
                None,
            )
        if news == "cancelled":
            by = payload.get("by")
            if by:
                return _("**{name}** was cancelled by {by}.", name=t.name, by=by), None
            return (
                _(
                    "**{name}** was cancelled: too few players signed up by the deadline.",
                    name=t.name,
                ),
                None,
            )
        if news == "withdrawn":
            return _("{name} withdrew: their games left are lost.", name=who("member")), None
        if news == "moves":
            return moves_text(payload), None
        if news == "replays":
            drawn = [g for g in games if g.round == payload.get("round") and g.points is None]
            return (
                _("Drawn games are played again, seats swapped:")
                + "\n"
                + pairings_text(drawn, names),
                None,
            )
        ratings = {p.member_id: p.rating or 0.0 for p in players}
        table = standings(ratings, results_of(games), byes_of(games))
        if news == "round":
            number = payload["round"]
            current = [g for g in games if g.round == number]
            head = ""
            if number > 1:
                head = results_text(number - 1, games, names) + "\n"
            head += _("**Round {number}** of {name}:", number=number, name=t.name)
            head += "\n" + pairings_text(current, names)
            if number > 1 and t.format != "knockout":
                earlier = [g for g in games if g.round < number]
                before = standings(ratings, results_of(earlier), byes_of(earlier))
                head += "\n" + _("Standings after round {number}:", number=number - 1)
                head += "\n" + standings_text(before, names)
            return head, None
        if news == "finished":
            champion = payload.get("champion")
            head = results_text(t.round, games, names) + "\n" if t.round else ""
            head += _(
                "🏆 **{name}** is over: **{champion}** wins it!",
                name=t.name,
                champion=names.get(champion or 0, "?"),
            )
            head += "\n"
            picture = None
            try:
                bracket = None
                if t.format == "knockout":
                    seeds = [p.member_id for p in sorted(players, key=lambda p: p.seed or 0)]
                    bracket = knockout(seeds, played_by_round(games))
                picture = await self.picture(t, players, games, table, bracket)
            except Exception:  # the words matter more than the picture
                log.exception("no picture for tournament %d", t.id)
            return head + standings_text(table, names), picture
        log.warning("tournament %d: unknown news %r", t.id, news)
        return "", None
