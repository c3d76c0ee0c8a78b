"""Conditional moves and private notes, without Discord.

A player plans replies in a game they play: lines of alternating moves starting with
the opponent's (if they play e5 I play d4; then if they play f6 I play c3), checked
with the rules move by move, merged into one tree per player and game: at each depth
one reply per move of the opponent, any number of branches. The tree is stored
(``conditional_plans``) with the ply after which its first opponent move comes; it is
nobody's business but its planner's until a reply is played.

Playing: this service is a *move guard* of :class:`~bot.core.moves.Moves` (every move
updates the trees in its own transaction: the planner's own reply advances their tree;
an opponent's move outside it clears it, with a private notice staged in the game's
outbox lane: a DM, or when none can be delivered a line of the planner's own next
private ``/board`` answer, never the thread) and a *listener* of ``move_played``, told
after the board of the opponent's move is posted: when the move matches a branch, the
reply is played at once on the planner's behalf through :meth:`Moves.play_move`
(``expected_ply``: at most once per turn, ``UNIQUE (game_id, ply)`` backs it up),
stored marked conditional. The opponent's move pings nobody then (no board mention, no
"your turn" DM: :class:`PlannedReplies`, the core's ``PlannedTurns`` the root gives
the boards and the notifier): the reply follows at once. A reply that has become
illegal is dropped with a private notice. At start-up :meth:`Conditional.resume` plays
the replies owed since before a restart. A takeback or the game's end deletes the
trees.

Clocks and vacations: a reply is the planner's own decision, made in advance, so it is
played whoever is on vacation. The planner's vacation goes on (a reply ends none, and
their clock, stopped or not, loses no time: the reply is in time and takes none of
theirs, even when a restart delays it, and the clock does not time out a turn whose
reply is owed); the opponent's new turn starts when the reply is played, as after any
move, their own vacation stopping it as ever.

Notes: one per member per game, at most :data:`NOTE_LIMIT` characters, shown only to
their author.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import rules
from bot import texts
from bot.core.games import Games
from bot.core.moves import Moves, MoveWriter
from bot.i18n import N_, _, _n
from bot.model import GameUpdate, Member, UserError, automatic_seat
from bot.outbox import Outbox, Staged, game_lane, item
from bot.shards import EVERY_SHARD, Shards
from bot.storage import Database, GameRow, OutboxRow, PlanRow, Query, Statement, queries
from rules import State

log = logging.getLogger(__name__)

#: The longest line, in plies.
LINE_LIMIT = 40
#: The most moves (the opponent's and the replies) a player's tree holds.
TREE_LIMIT = 200
#: The longest private note, in characters.
NOTE_LIMIT = 1000
#: The outbox items of private notices (a tree cleared, a reply dropped).
NOTICE = "conditional_notice"
#: What separates the moves of a line (a move may contain spaces: Lifeline's "c3 e5").
SEPARATORS = re.compile(r"[,;]")
#: The option's description (one line).
NO_PLAN = N_("You have no conditional moves in {game}.")
LINE_HELP = "Moves separated by commas, the opponent's first: e5, d4, f6, c3"

#: {opponent's move: [reply, subtree]}
Tree = dict[str, list[Any]]


class Messenger(Protocol):
    async def dm(self, member_id: int, text: str) -> bool:
        """Send a direct message; False if it cannot be delivered."""
        ...


@dataclass(frozen=True, slots=True)
class Shown:
    """A member's conditional moves, as ``/conditional show`` shows them."""

    row: GameRow
    text: str
    #: The position at the end of the first branch (None: nothing to show, or the
    #: tree starts after the member's own next move, not known yet).
    after: State | None


# -- lines and trees (pure) ----------------------------------------------------------------


def split_line(text: str) -> list[str]:
    """The moves of a line as typed: separated by commas or semicolons."""
    return [" ".join(part.split()) for part in SEPARATORS.split(text) if part.strip()]


def tree_size(tree: Tree) -> int:
    """How many moves (the opponent's and the replies) a tree holds."""
    return sum(2 + tree_size(branch[1]) for branch in tree.values())


def lines_of(tree: Tree) -> list[list[str]]:
    """Every branch of the tree, from its root to a leaf."""
    found: list[list[str]] = []
    for move, (reply, rest) in tree.items():
        below = lines_of(rest)
        found += [[move, reply, *line] for line in below] if below else [[move, reply]]
    return found


def merged(tree: Tree, line: Sequence[str]) -> Tree:
    """``tree`` with the line (canonical moves, even in number) added; a UserError if it
    answers a move of the tree with another reply."""
    new = copy.deepcopy(tree)
    node = new
    for i in range(0, len(line), 2):
        move, reply = line[i], line[i + 1]
        branch = node.get(move)
        if branch is None:
            branch = node[move] = [reply, {}]
        elif branch[0] != reply:
            raise UserError(
                _(
                    "Your conditional moves already answer `{move}` with `{planned}` there, "
                    "not `{reply}`: clear that branch first (`/conditional clear line:`).",
                    move=move,
                    planned=branch[0],
                    reply=reply,
                )
            )
        node = branch[1]
    return new


def _same(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def pruned(tree: Tree, line: Sequence[str]) -> Tree:
    """``tree`` without the branch ``line`` leads to (its last move of the opponent, its
    reply and all below); a UserError if the tree has no such branch."""
    new = copy.deepcopy(tree)
    node = new
    for i in range(0, len(line), 2):
        key = next((k for k in node if _same(k, line[i])), None)
        reply = line[i + 1] if i + 1 < len(line) else None
        if key is None or (reply is not None and not _same(node[key][0], reply)):
            raise UserError(
                _(
                    "Your conditional moves have no branch `{line}`: "
                    "see them with `/conditional show`.",
                    line=texts.echo(", ".join(line)),
                )
            )
        if i + 2 >= len(line):
            del node[key]
            return new
        node = node[key][1]
    return new


def first_branch(tree: Tree) -> list[str]:
    """The first line of the tree (its first move at each depth)."""
    line: list[str] = []
    node = tree
    while node:
        move, (reply, node) = next(iter(node.items()))
        line += [move, reply]
    return line


def as_text(tree: Tree, opponent: str) -> str:
    """The tree, indented: one line per move of the opponent and its reply."""
    out: list[str] = []

    def walk(node: Tree, depth: int) -> None:
        for move, (reply, rest) in node.items():
            out.append(f"{'  ' * depth}{move} → {reply}")
            walk(rest, depth + 1)

    walk(tree, 0)
    return _("{opponent}'s move → your reply", opponent=opponent) + "\n" + "\n".join(out)


def owed_reply(plan: PlanRow, row: GameRow, state: State) -> str | None:
    """The reply ``plan`` makes now: the game is in progress, the planner to move, and
    the opponent's last move a branch of the tree's root."""
    seat = state.to_move
    if not row.is_active or seat is None or row.player_ids[seat] != plan.member_id:
        return None
    if plan.ply != state.ply - 1 or state.last_move is None:
        return None
    branch = plan.tree.get(state.last_move)
    return None if branch is None else str(branch[0])


class _Refused(Exception):
    def __init__(self, index: int, text: str, why: str) -> None:
        super().__init__(why)
        self.index, self.text, self.why = index, text, why


def _replayed_line(state: State, line: Sequence[str], seats: tuple[int, int]) -> list[str]:
    """The line's moves as the rules write them, played from ``state``, the first one by
    ``seats[0]`` and then in turn; _Refused names the first that cannot be."""
    canonical: list[str] = []
    for index, text in enumerate(line):
        seat = seats[index % 2]
        if state.to_move is None:
            raise _Refused(
                index, text, _("the game is over before it ({result})", result=state.result)
            )
        if state.to_move != seat:
            raise _Refused(index, text, _("it would not be that player's turn"))
        try:
            state = state.play(text)
        except rules.IllegalMove as error:
            raise _Refused(index, text, texts.echoing(str(error), text)) from None
        canonical.append(state.history[-1])
    return canonical


def checked_line(state: State, mine: int, line: Sequence[str]) -> list[str]:
    """The line checked with the rules from ``state`` (``mine``: the planner's seat) and
    written as the rules write it; a UserError naming the first move that cannot be."""
    if not line:
        raise UserError(_("The line is empty: give moves separated by commas, e.g. `e5, d4`."))
    if len(line) > LINE_LIMIT:
        raise UserError(too_long(len(line)))
    canonical = _checked(state, mine, line)
    if len(canonical) % 2:
        raise UserError(
            _(
                "The line ends with your opponent's move `{move}`: add your reply to it.",
                move=texts.echo(line[-1]),
            )
        )
    return canonical


def _checked(state: State, mine: int, line: Sequence[str]) -> list[str]:
    theirs = 1 - mine
    if state.to_move == theirs:
        try:
            return _replayed_line(state, line, (theirs, mine))
        except _Refused as refused:
            raise _refusal(refused) from None
    # Their move comes after the planner's next one, which is not known: the line must
    # be playable after one of the planner's moves.
    furthest: _Refused | None = None
    for move in state.legal_moves():
        try:
            return _replayed_line(state.play(move), line, (theirs, mine))
        except _Refused as refused:
            if furthest is None or refused.index > furthest.index:
                furthest = refused
    try:
        _replayed_line(state, line, (mine, theirs))
    except _Refused:
        pass
    else:
        raise UserError(
            _(
                "It's your turn, and that line starts with your own move: play it with "
                "`/move`. A line starts with your opponent's move (here: after your next one)."
            )
        )
    assert furthest is not None
    raise _refusal(furthest)


def _refusal(refused: _Refused) -> UserError:
    return UserError(
        _(
            "Move {number} of the line, `{move}`, can't be played: {reason} Nothing was saved.",
            number=refused.index + 1,
            move=texts.echo(refused.text),
            reason=texts.sentence(refused.why),
        )
    )


def too_long(moves: int) -> str:
    return _(
        "That line has {count} moves: a line holds at most {limit}.", count=moves, limit=LINE_LIMIT
    )


# -- the service -----------------------------------------------------------------------------


class PlannedReplies:
    """Which turns a plan answers (a :class:`~bot.core.plans.PlannedTurns`, given to the
    boards and the turn notices): the planner of a reply owed and playable is not
    pinged for the turn it answers, since the reply follows at once. A reply that has
    become illegal pings as ever (it is dropped, and the turn is theirs)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def answered(self, row: GameRow, state: State) -> frozenset[int]:
        if not row.is_active or state.to_move is None:
            return frozenset()
        found = set()
        for plan in await self.db.read(queries.plans_of_game(row.id)):
            reply = owed_reply(plan, row, state)
            if reply is not None and await asyncio.to_thread(_playable, state, reply):
                found.add(plan.member_id)
        return frozenset(found)


def _playable(state: State, move: str) -> bool:
    try:
        state.play(move)
    except rules.IllegalMove:
        return False
    return True


class PlanGuard:
    """The move guard of the trees (see :class:`~bot.core.moves.MoveGuard`): every move
    updates them in its own transaction. The planner's own reply advances their tree;
    an opponent's move outside it clears it, and a private notice to the planner is
    staged in the game's outbox lane (delivered by :class:`Conditional`)."""

    def __init__(self, *, now: Callable[[], datetime]) -> None:
        self.now = now

    def facts(self, game_id: int) -> Query[list[PlanRow]]:
        return queries.plans_of_game(game_id)

    def check(
        self, row: GameRow, state: State, member: Member, facts: list[PlanRow], *, conditional: bool
    ) -> MoveWriter | None:
        if not facts:
            return None
        return lambda after: self._after_move(row, member, after, facts)

    def _after_move(
        self, row: GameRow, mover: Member, after: State, plans: list[PlanRow]
    ) -> list[Statement]:
        ply, move = after.ply, after.history[-1]
        statements: list[Statement] = []
        for plan in plans:
            if after.is_over:
                statements.append(queries.drop_plan_statement(row.id, plan.member_id))
            elif plan.member_id != mover.id:  # the opponent moved: in the tree, or not
                if plan.ply == ply - 1 and move in plan.tree:
                    continue  # the reply is owed (the listener plays it)
                statements.append(queries.drop_plan_statement(row.id, plan.member_id))
                if plan.ply == ply - 1 and plan.tree:
                    statements.append(
                        notice(
                            self.now(),
                            row,
                            plan.member_id,
                            _(
                                "{game}: {player} played `{move}`, which your conditional "
                                "moves did not plan for: they are cleared, and it's your turn.",
                                game=texts.label(row),
                                player=mover.name,
                                move=move,
                            ),
                        ).statement
                    )
            elif plan.ply == ply:
                continue  # planned on their own turn, for after this move: it starts now
            else:  # the planner's own move: their reply (the tree goes on) or not
                branch = plan.tree.get(after.history[-2]) if ply >= 2 else None
                if plan.ply == ply - 2 and branch is not None and branch[0] == move and branch[1]:
                    statements.append(
                        queries.save_plan_statement(
                            row.id, plan.member_id, ply, branch[1], self.now()
                        )
                    )
                else:
                    statements.append(queries.drop_plan_statement(row.id, plan.member_id))
        return statements


def notice(now: datetime, row: GameRow, member_id: int, text: str) -> Staged:
    """A private notice to ``member_id`` about the game, as an outbox item of its lane."""
    return item(game_lane(row.id), NOTICE, {"member_id": member_id, "text": text}, now=now)


class Conditional:
    def __init__(
        self,
        db: Database,
        games: Games,
        moves: Moves,
        outbox: Outbox,
        messenger: Messenger,
        *,
        now: Callable[[], datetime],
        shards: Shards = EVERY_SHARD,
    ) -> None:
        self.db = db
        self.games = games
        self.moves = moves
        self.outbox = outbox
        self.messenger = messenger
        self.now = now
        #: Whose games' owed replies :meth:`resume` plays: those of this process's servers.
        self.shards = shards
        self._playing: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        outbox.handle(NOTICE, self._deliver_notice)

    # -- planning ------------------------------------------------------------------------

    async def _planner(self, guild_id: int, game_id: int, member: Member) -> tuple[GameRow, int]:
        row = await self.games.get_game(guild_id, game_id)
        seat = row.seat_of(member.id)
        if seat is None or seat == automatic_seat(row):
            raise UserError(_("You are not playing in {game}.", game=texts.label(row)))
        if not row.is_active:
            raise UserError(
                texts.sentence(
                    _("{game} is over: {result}", game=texts.label(row), result=row.result)
                )
            )
        return row, seat

    async def add(self, *, guild_id: int, game_id: int, member: Member, line: str) -> Shown:
        """Add a line (moves separated by commas, the opponent's first) to ``member``'s
        conditional moves; what they hold now. Refused (a UserError), nothing saved: a
        game they don't play or that is over, an illegal move, too long a line or tree."""
        moves = split_line(line)
        if len(moves) > LINE_LIMIT:  # before any replay
            raise UserError(too_long(len(moves)))
        return await self._add(guild_id, game_id, member, moves)

    async def save_line(
        self, *, guild_id: int, game_id: int, member: Member, moves: Sequence[str]
    ) -> str:
        """The sandbox's line (every move from the start) added: what to tell them."""
        row, _seat = await self._planner(guild_id, game_id, member)
        state = await self.games.state_of(row)
        history = list(state.history)
        if list(moves[: len(history)]) != history:
            raise UserError(
                _(
                    "{game} has moved on since this sandbox was opened: open a new "
                    "one with Explore from its current position.",
                    game=texts.label(row),
                )
            )
        shown = await self._add(guild_id, game_id, member, list(moves[len(history) :]))
        return _("Saved as conditional moves.") + "\n" + shown.text

    async def _add(self, guild_id: int, game_id: int, member: Member, moves: list[str]) -> Shown:
        async with self.games.lock(game_id):
            row, seat = await self._planner(guild_id, game_id, member)
            state = await self.games.state_of(row)
            plan = await self._plan(row.id, member.id)
            if plan is not None and (reply := owed_reply(plan, row, state)) is not None:
                raise UserError(
                    _(
                        "Your conditional move `{move}` is being played right now: try again "
                        "in a moment. Nothing was saved.",
                        move=reply,
                    )
                )
            line = await asyncio.to_thread(checked_line, state, seat, moves)
            anchor = state.ply if state.to_move != seat else state.ply + 1
            tree = plan.tree if plan is not None and plan.ply == anchor else {}
            tree = merged(tree, line)
            if (size := tree_size(tree)) > TREE_LIMIT:
                raise UserError(
                    _(
                        "Your conditional moves would hold {count} moves in {game}: "
                        "at most {limit}. Nothing was saved.",
                        count=size,
                        game=texts.label(row),
                        limit=TREE_LIMIT,
                    )
                )
            await self.db.write(
                [queries.save_plan_statement(row.id, member.id, anchor, tree, self.now())]
            )
        return await self._shown(
            row, member.id, state, PlanRow(row.id, member.id, anchor, tree, self.now())
        )

    async def show(self, *, guild_id: int, game_id: int, member: Member) -> Shown:
        """``member``'s conditional moves in the game (for them only)."""
        row, _seat = await self._planner(guild_id, game_id, member)
        state = await self.games.state_of(row)
        return await self._shown(row, member.id, state, await self._plan(row.id, member.id))

    async def clear(
        self, *, guild_id: int, game_id: int, member: Member, line: str | None = None
    ) -> str:
        """Remove ``member``'s conditional moves in the game, or the one branch ``line``
        leads to."""
        async with self.games.lock(game_id):
            row, _seat = await self._planner(guild_id, game_id, member)
            plan = await self._plan(row.id, member.id)
            if plan is None or not plan.tree:
                raise UserError(_(NO_PLAN, game=texts.label(row)))
            if not line or not split_line(line):
                await self.db.write([queries.drop_plan_statement(row.id, member.id)])
                return _("Your conditional moves in {game} are cleared.", game=texts.label(row))
            tree = pruned(plan.tree, split_line(line))
            if tree:
                statement = queries.save_plan_statement(
                    row.id, member.id, plan.ply, tree, self.now()
                )
            else:
                statement = queries.drop_plan_statement(row.id, member.id)
            await self.db.write([statement])
        if not tree:
            return _(
                "That was your last branch: your conditional moves in {game} are cleared.",
                game=texts.label(row),
            )
        shown = as_text(tree, row.opponent_name(member.id))
        return (
            _("That branch is gone. Your conditional moves in {game} now:", game=texts.label(row))
            + f"\n```\n{shown}\n```"
        )

    async def _plan(self, game_id: int, member_id: int) -> PlanRow | None:
        return next(
            (
                p
                for p in await self.db.read(queries.plans_of_game(game_id))
                if p.member_id == member_id
            ),
            None,
        )

    async def _shown(
        self, row: GameRow, member_id: int, state: State, plan: PlanRow | None
    ) -> Shown:
        if plan is None or not plan.tree or plan.ply < state.ply:
            return Shown(row, _(NO_PLAN, game=texts.label(row)), None)
        opponent = row.opponent_name(member_id)
        size = tree_size(plan.tree)
        text = _n(
            "Your conditional moves in **{game}** ({count} move, secret until played).",
            "Your conditional moves in **{game}** ({count} moves, secret until played).",
            size,
            game=texts.label(row),
        )
        if plan.ply != state.ply:
            text += " " + _("They start after your next move.")
        text += f"\n```\n{as_text(plan.tree, opponent)}\n```"
        after = None
        if plan.ply == state.ply:
            line = first_branch(plan.tree)
            try:
                after = await asyncio.to_thread(_after, state, line)
            except rules.IllegalMove:
                after = None
            text += _("The picture: after `{line}`.", line=", ".join(line))
        return Shown(row, text, after)

    async def _deliver_notice(self, pending: OutboxRow, worked_out: object) -> bool:
        """A DM; when none can be delivered (closed DMs), the notice waits for the
        member's own /board answer (never the thread: the opponent would learn of it)."""
        member_id, text = int(pending.payload["member_id"]), pending.payload["text"]
        if await self.messenger.dm(member_id, text):
            return True
        game_id = int(pending.lane.removeprefix("game:"))  # notice(): the game's lane
        await self.db.write(
            [queries.save_plan_notice_statement(game_id, member_id, text, self.now())]
        )
        return False

    async def unseen_notice(self, game_id: int, member_id: int) -> str | None:
        """The notice no DM carried to ``member_id`` in the game, now seen (None: none)."""
        text = await self.db.read(queries.plan_notice(game_id, member_id))
        if text is not None:
            await self.db.write([queries.drop_plan_notice_statement(game_id, member_id, text)])
        return text

    # -- the listener: the reply owed after the opponent's move ----------------------------

    async def move_played(self, update: GameUpdate) -> None:
        row, state = update.game, update.state
        if not row.is_active or state.to_move is None:
            return
        plans = await self.db.read(queries.plans_of_game(row.id))
        if any(owed_reply(plan, row, state) for plan in plans):
            self.poke(row.id)

    async def move_taken_back(self, update: GameUpdate) -> None:
        """A takeback clears both players' trees."""
        await self.db.write([queries.drop_plan_statement(update.game.id)])

    async def game_ended(self, update: GameUpdate) -> None:
        """Branches never played are deleted, unseen; so are notices not seen."""
        await self.db.write(
            [
                queries.drop_plan_statement(update.game.id),
                queries.drop_plan_notice_statement(update.game.id),
            ]
        )

    async def resume(self, *, everywhere: bool = False) -> int:
        """At start-up: the replies owed since before a restart (in this process's
        servers; ``everywhere``: in every server, when another process died owing some),
        played. Returns how many games were looked at."""
        shards = EVERY_SHARD if everywhere else self.shards
        plans = await self.db.read(
            queries.plans_of_active_games(shard_count=shards.count, shard_ids=shards.ids)
        )
        games = sorted({plan.game_id for plan in plans})
        for game_id in games:
            self.poke(game_id)
        return len(games)

    def poke(self, game_id: int) -> None:
        """Play the reply owed in game ``game_id``, if any; one task per game."""
        task = self._playing.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            return
        self._playing[game_id] = asyncio.create_task(
            self._play(game_id), name=f"a conditional move in game {game_id}"
        )

    async def stop(self) -> None:
        for task in self._playing.values():
            task.cancel()
        await asyncio.gather(*self._playing.values(), return_exceptions=True)
        self._playing.clear()

    async def _play(self, game_id: int) -> None:
        while True:
            self._again.discard(game_id)
            try:
                await self._reply(game_id)
            except asyncio.CancelledError:
                raise
            except UserError as error:  # another move for this turn came first, time ran out…
                log.info("game %d: a conditional move was refused (%s)", game_id, error.message)
            except Exception:
                log.exception("game %d: a conditional move could not be played", game_id)
            if game_id not in self._again:
                return

    async def _reply(self, game_id: int) -> None:
        row = await self.db.read(queries.game_by_id(game_id))
        if row is None or not row.is_active:
            return
        state = await self.games.state_of(row)
        plans = await self.db.read(queries.plans_of_game(game_id))
        for plan in plans:
            reply = owed_reply(plan, row, state)
            if reply is None:
                continue
            try:
                await asyncio.to_thread(state.play, reply)
            except rules.IllegalMove as error:
                await self._drop(row, plan, reply, str(error))
                return
            seat = row.player_ids.index(plan.member_id)
            await self.moves.play_move(
                guild_id=row.guild_id,
                game_id=game_id,
                member=Member(plan.member_id, row.player_names[seat]),
                text=reply,
                expected_ply=state.ply,
                conditional=True,
            )
            return

    async def _drop(self, row: GameRow, plan: PlanRow, reply: str, why: str) -> None:
        """The reply cannot be played: the tree goes, the planner is told privately."""
        async with self.games.lock(row.id):
            if await self._plan(row.id, plan.member_id) != plan:
                return  # changed meanwhile
            told = notice(
                self.now(),
                row,
                plan.member_id,
                _(
                    "{game}: your conditional move `{move}` can't be played ({reason}), so "
                    "your conditional moves there are cleared: it's your turn.",
                    game=texts.label(row),
                    move=reply,
                    reason=texts.echoing(why, reply),
                ),
            )
            await self.db.write(
                [queries.drop_plan_statement(row.id, plan.member_id), told.statement]
            )
        await self.outbox.deliver(told, timeout=5.0)

    # -- private notes ---------------------------------------------------------------------

    async def set_note(self, *, guild_id: int, game_id: int, member: Member, text: str) -> str:
        """``member``'s note on the game, replacing theirs; an empty text deletes it."""
        row = await self.games.get_game(guild_id, game_id)
        text = text.strip()
        if len(text) > NOTE_LIMIT:
            raise UserError(
                _(
                    "That note has {count} characters: a note holds at most {limit}. "
                    "Nothing was saved.",
                    count=len(text),
                    limit=NOTE_LIMIT,
                )
            )
        if not text:
            await self.db.write([queries.drop_note_statement(row.id, member.id)])
            return _("Your note on {game} is deleted.", game=texts.label(row))
        await self.db.write([queries.save_note_statement(row.id, member.id, text, self.now())])
        return _(
            "Your note on {game} is saved: only you see it, in `/board` and `/review`.",
            game=texts.label(row),
        )

    async def note_of(self, game_id: int, member_id: int) -> str | None:
        return await self.db.read(queries.game_note(game_id, member_id))


def _after(state: State, line: Sequence[str]) -> State:
    for move in line:
        state = state.play(move)
    return state
