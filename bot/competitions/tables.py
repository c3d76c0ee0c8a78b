"""A tournament's standings as a picture: the crosstable of a round robin (up to
:data:`CROSSTABLE_MOST` players), the results round by round otherwise (``+5``: won
against the player ranked 5th, ``=5`` drawn, ``-5`` lost, ``bye``), and a knockout's
bracket; drawn by :mod:`bot.pictures`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from bot.competitions.pairing import Match
from bot.competitions.standings import Standing
from bot.i18n import _
from bot.model import DEFAULT_THEME
from bot.pictures import bracket_picture, table_picture
from bot.storage import EntrantRow, LadderRow, RungRow, TournamentGameRow, TournamentRow

#: The most players a crosstable shows (one column each); more get the round-by-round
#: table, whose width grows with the rounds only. (A double round robin of 10 is
#: about 860 px wide, its text about 11 px in Discord's 440 px preview; one of 14 was
#: 950 px, its half-points a blur.)
CROSSTABLE_MOST = 10
SYMBOL = {1.0: "1", 0.5: "½", 0.0: "0"}


def _points(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}".replace(".5", "½")


def crosstable_rows(
    standings: Sequence[Standing], games: Sequence[TournamentGameRow], names: dict[int, str]
) -> tuple[list[str], list[list[str]]]:
    """Player by player (in standing order), each opponent's column: the points scored
    against them, game by game."""
    order = [s.player for s in standings]
    against: dict[tuple[int, int], str] = defaultdict(str)
    for g in games:
        if g.player1_id is None or g.points is None:
            continue
        against[(g.player0_id, g.player1_id)] += SYMBOL.get(g.points, "?")
        against[(g.player1_id, g.player0_id)] += SYMBOL.get(1.0 - g.points, "?")
    header = [
        "#",
        _("Player"),
        *(str(i) for i in range(1, len(order) + 1)),
        _("Pts"),
        "SB",
    ]
    rows = []
    for i, s in enumerate(standings):
        cells = [
            "×" if j == i else (against.get((s.player, other)) or "·")
            for j, other in enumerate(order)
        ]
        rows.append(
            [
                str(s.rank),
                names.get(s.player, str(s.player)),
                *cells,
                _points(s.score),
                f"{s.sonneborn_berger:g}",
            ]
        )
    return header, rows


def round_rows(
    standings: Sequence[Standing],
    games: Sequence[TournamentGameRow],
    names: dict[int, str],
    rounds: int,
) -> tuple[list[str], list[list[str]]]:
    """Player by player, round by round: the result and the opponent's rank."""
    rank = {s.player: i + 1 for i, s in enumerate(standings)}
    cell: dict[tuple[int, int], str] = {}
    for g in games:
        if g.player1_id is None:
            cell[(g.player0_id, g.round)] = _("bye")
            continue
        for me, other, points in (
            (g.player0_id, g.player1_id, g.points),
            (g.player1_id, g.player0_id, None if g.points is None else 1.0 - g.points),
        ):
            sign = "" if points is None else {1.0: "+", 0.5: "=", 0.0: "-"}[points]
            cell[(me, g.round)] = f"{sign}{rank.get(other, '?')}"
    header = [
        "#",
        _("Player"),
        *(_("R{number}", number=r) for r in range(1, rounds + 1)),
        _("Pts"),
        "SB",
    ]
    rows = [
        [
            str(s.rank),
            names.get(s.player, str(s.player)),
            *(cell.get((s.player, r), "–") for r in range(1, rounds + 1)),
            _points(s.score),
            f"{s.sonneborn_berger:g}",
        ]
        for s in standings
    ]
    return header, rows


def bracket_rounds(
    bracket: Sequence[Sequence[Match]], names: dict[int, str]
) -> list[list[tuple[str, str, int | None]]]:
    shown = []
    for number, matches in enumerate(bracket, start=1):
        row = []
        for m in matches:
            a, b = (
                ("" if number == 1 else "?") if side is None else names.get(side, "?")
                for side in m.sides
            )
            winner = None if m.winner is None else m.sides.index(m.winner)
            row.append((a, b, winner))
        shown.append(row)
    return shown


async def tournament_picture(
    t: TournamentRow,
    players: Sequence[EntrantRow],
    games: Sequence[TournamentGameRow],
    standings: Sequence[Standing],
    bracket: Sequence[Sequence[Match]] | None,
    *,
    theme: str = DEFAULT_THEME,
) -> bytes | None:
    """The tournament's picture (None before it starts)."""
    if t.status == "signup" or not standings:
        return None
    names = {p.member_id: p.member_name for p in players}
    if bracket is not None:
        return await bracket_picture(t.name, bracket_rounds(bracket, names), theme=theme)
    round_robin = t.format in ("round_robin", "double_round_robin")
    if round_robin and len(standings) <= CROSSTABLE_MOST:
        header, rows = crosstable_rows(standings, games, names)
    else:
        played = max((g.round for g in games), default=0)
        header, rows = round_rows(standings, games, names, max(played, t.rounds or 0))
    champion = [i for i, s in enumerate(standings) if s.player == t.champion_id]
    return await table_picture(t.name, header, rows, theme=theme, highlight=champion)


async def ladder_picture(
    ladder: LadderRow,
    rungs: Sequence[RungRow],
    won: dict[int, int],
    lost: dict[int, int],
    *,
    theme: str = DEFAULT_THEME,
) -> bytes | None:
    """The ladder's places, top first, with each member's ladder games won and lost."""
    if not rungs:
        return None
    rows = [
        [str(r.place), r.member_name, str(won.get(r.member_id, 0)), str(lost.get(r.member_id, 0))]
        for r in rungs
    ]
    return await table_picture(
        ladder.name, ["#", _("Player"), _("Won"), _("Lost")], rows, theme=theme
    )
