"""Monte Carlo tree search over :mod:`rules.position` positions, the same for every game.

Each simulation walks down the tree choosing moves by UCT blended with RAVE
(all-moves-as-first statistics: a move's results whenever the same player played
it later in a simulation, which moves ids stable across positions make
possible), adds one node, plays random moves to the end (or to the game's
cut-off, judged by ``evaluate()``), and backs the result up. Results are seat 0's
chance of winning: 1, 0, ½ for a draw, or the judged value of a cut-off playout.

A small solver rides along: a finished game is a proven result, a node where
the player to move has a proven winning move is proven won for them, and one
whose every move is proven lost is proven lost; proven nodes are chosen or
avoided outright. Turns need not alternate (a pie choice may be followed by the
same seat's move): everything is kept per seat, never per ply parity.
"""

from __future__ import annotations

import itertools
import logging
import math
import random
from dataclasses import dataclass

from ai.games import Knowledge
from ai.levels import Budget, Stopwatch
from rules.position import SearchPosition

log = logging.getLogger(__name__)

#: The share of a time budget left unused, for what follows the last simulation (reading
#: the tree, answering): Sliglube's medium level went 1% over its 2 s cap without it.
CAP_MARGIN = 0.05
#: How often (in simulations) a search that may stop once settled checks whether it is.
SETTLED_EVERY = 64


class Node:
    """A position of the tree, reached by ``move`` (played by ``mover``) from ``parent``."""

    __slots__ = (
        "amaf",
        "checked",
        "children",
        "complete",
        "move",
        "mover",
        "moves",
        "n",
        "parent",
        "prior",
        "proven",
        "to_move",
        "w",
    )

    def __init__(
        self, parent: Node | None, move: int, mover: int | None, to_move: int | None
    ) -> None:
        self.parent = parent
        self.move = move
        self.mover = mover
        self.to_move = to_move
        #: The moves considered here (None until first visited) and whether they are all.
        self.moves: list[int] | None = None
        self.complete = True
        self.children: dict[int, Node] = {}
        #: Visits and summed value for ``mover``.
        self.n = 0
        self.w = 0.0
        #: move -> [count, summed value for ``to_move``] over later plays by ``to_move``.
        self.amaf: dict[int, list[float]] = {}
        #: The seat that wins from here with best play, once proven.
        self.proven: int | None = None
        #: Whether every considered move was tried for a result at once (see ``_check``).
        self.checked = False
        #: move -> the game's evaluation after it, for the player to move here (``_check``).
        self.prior: dict[int, float] | None = None

    def value(self) -> float:
        """Mean result for the player who moved here (½ before any visit)."""
        return self.w / self.n if self.n else 0.5


@dataclass(frozen=True, slots=True)
class MoveStat:
    """One searched move at the root: its visits and the mover's estimated chance."""

    move: int
    visits: int
    win_chance: float
    proven: int | None


class Search:
    """One search tree from ``root`` (which the search never changes)."""

    def __init__(
        self,
        root: SearchPosition,
        knowledge: Knowledge,
        rng: random.Random,
        exclude: frozenset[int] = frozenset(),
        tree: Node | None = None,
    ) -> None:
        if knowledge.frugal:
            root = root.copy()
            root.play_frugally()
        self.root_position = root
        self.knowledge = knowledge
        self.rng = rng
        self.exclude = exclude
        if tree is not None:  # a subtree of an earlier search, reached by the moves since
            tree.parent = None
            if exclude and tree.moves is not None:
                kept = [m for m in tree.moves if m not in exclude]
                if kept:
                    tree.moves = kept
                    for move in exclude:
                        tree.children.pop(move, None)
        self.root = tree if tree is not None else Node(None, -1, None, root.to_move)
        self.playouts = 0
        #: Whether the time cap of a budget with a playout limit stopped the search.
        self.cut_short = False
        self._texts: dict[int, str] = {}
        evaluates = type(root).evaluate is not SearchPosition.evaluate
        self.cutoff = knowledge.cutoff if evaluates else None
        self.rave = knowledge.rave
        self.decisive_after = knowledge.decisive_after
        #: Progressive bias by the game's evaluation (none where it has none).
        self.bias = knowledge.bias if evaluates else 0.0
        #: Playout plies recorded for RAVE (None: all of them); none without RAVE.
        self.recorded = knowledge.amaf_plies if self.rave else 0
        #: Last good replies, per seat: the opponent's move -> the reply that won after it.
        self.replies: tuple[dict[int, int], dict[int, int]] | None = (
            ({}, {}) if knowledge.last_good_reply else None
        )

    # -- driving -------------------------------------------------------------------------

    def run(
        self,
        budget: Budget,
        started: Stopwatch | None = None,
        *,
        stop_when_settled: bool = False,
    ) -> None:
        """Simulate until the budget is spent or the root's result is proven.

        The time limits count from ``started`` (default: now, by the CPU time of this
        thread and the wall clock) and are not overrun by a simulation expected to end
        after them; at least one is made.
        ``stop_when_settled``: stop as soon as the most visited move can no longer
        be overtaken by another in the simulations the budget has left (the move
        chosen by visits is then the one the whole budget would choose).
        """
        watch = Stopwatch.start() if started is None else started
        since = watch.lap()
        timed = budget.seconds is not None or budget.wall_seconds is not None
        limit = budget.playouts
        share = 1 - CAP_MARGIN
        while self.root.proven is None and not self.root_position.is_over:
            if limit is not None and self.playouts >= limit:
                break
            if (
                timed
                and self.playouts
                and watch.simulations_left(budget, share, self.playouts, since) <= 1
            ):
                if limit is not None:
                    self.cut_short = True
                    log.info(
                        "search cut short after %.2f s of CPU and %.2f s by the wall "
                        "clock: %d of %d playouts (%s)",
                        *watch.elapsed(),
                        self.playouts,
                        limit,
                        budget,
                    )
                break
            if stop_when_settled and self.playouts % SETTLED_EVERY == SETTLED_EVERY - 1:
                left = math.inf if limit is None else limit - self.playouts
                if timed:
                    left = min(left, watch.simulations_left(budget, share, self.playouts, since))
                if self._settled(left):
                    break
            self.simulate()

    def _settled(self, left: float) -> bool:
        # A move not tried yet counts as none: it cannot catch up either.
        visits = sorted(
            (child.n for child in self.root.children.values() if child.proven is None), reverse=True
        )
        first, second = (*visits, 0, 0)[:2]
        return first - second > left

    def simulate(self) -> None:
        pos = self.root_position.copy()
        node = self.root
        path = [node]
        trail: list[tuple[int, int]] = []
        while True:
            if node.proven is not None or node.to_move is None:
                break
            if node.moves is None:
                self._expand(node, pos)
            # The root only for its priors: the player's look at every move before the
            # search already found what wins or loses at once there.
            if not node.checked and (
                node.n >= self.decisive_after if node is not self.root else self.bias
            ):
                self._check(node, pos)
                if node.proven is not None:
                    break
            move = self._select(node)
            if move is None:  # every move is proven lost: so is this node
                break
            seat = node.to_move
            pos.play(move)
            trail.append((seat, move))
            child = node.children.get(move)
            if child is None:
                child = node.children[move] = Node(node, move, seat, pos.to_move)
                if pos.is_over:
                    child.proven = pos.winner
                path.append(child)
                node = child
                break
            path.append(child)
            node = child
        if node.proven is not None:
            result = 1.0 if node.proven == 0 else 0.0
        elif node.to_move is None:  # a draw
            result = 0.5
        else:
            result = self._playout(pos, trail)
        self.playouts += 1
        self._backup(path, trail, result)

    # -- the four steps ------------------------------------------------------------------

    def _text(self, move: int) -> str:
        text = self._texts.get(move)
        if text is None:
            text = self._texts[move] = self.root_position.move_text(move)
        return text

    def _expand(self, node: Node, pos: SearchPosition) -> None:
        legal = pos.legal_moves()
        if node is self.root and self.exclude:
            legal = [m for m in legal if m not in self.exclude] or legal
        moves = self.knowledge.candidates(legal, self._text, self.rng)
        node.complete = len(moves) == len(legal)
        moves = list(moves)
        self.rng.shuffle(moves)
        node.moves = moves

    def _check(self, node: Node, pos: SearchPosition) -> None:
        """Decisive and anti-decisive moves: try every move ``node`` considers; one that
        wins at once proves the node won, one that loses at once becomes a proven-lost
        child the search never chooses while another move does not lose (and a move
        that allows a win at once is found lost the same way one level down)."""
        node.checked = True
        seat = node.to_move
        children = node.children
        prior: dict[int, float] | None = {} if self.bias else None
        judge = self.knowledge.judge
        for move in node.moves:  # type: ignore[union-attr]
            child = children.get(move)
            if child is not None and child.proven is not None:
                if child.proven == seat:
                    node.proven = seat
                    return
                continue
            after = pos.copy()
            after.play(move)
            if not after.is_over:
                if prior is not None:
                    chance = judge(after.evaluate())
                    prior[move] = chance if seat == 0 else 1.0 - chance
                continue
            winner = after.winner
            if winner is None:  # a draw at once: an ordinary leaf
                continue
            child = children[move] = Node(node, move, seat, None)
            child.proven = winner
            if winner == seat:
                node.proven = seat
                return
        if prior:
            node.prior = prior

    def _select(self, node: Node) -> int | None:
        seat = node.to_move
        children = node.children
        amaf = node.amaf
        rave = self.rave
        c = self.knowledge.exploration
        # The root chooses by value alone, as every search has since the first (its own
        # visits are never counted, so its exploration term is nil): a root taken over
        # from an earlier tree, whose visits were counted, too. With exploration there,
        # a kept tree's search spread its visits and chose worse: 2/14 at equal playouts
        # against searching afresh (Asli 9, medium, bench ai, 2026-11-27).
        log_n = 0.0 if node is self.root else math.log(node.n + 1)
        prior = node.prior
        bias = self.bias
        best_move = None
        best = -1.0
        lost = 0
        for move in node.moves:  # type: ignore[union-attr]
            child = children.get(move)
            a = amaf.get(move)
            if child is None:
                q = a[1] / a[0] if a else 1.0
                score = q + c * math.sqrt(log_n)
                if prior is not None:
                    score += bias * prior.get(move, 0.0)
            else:
                if child.proven is not None:
                    if child.proven == seat:
                        return move
                    lost += 1
                    continue
                n = child.n
                q = child.w / n
                if a and rave:
                    beta = math.sqrt(rave / (3 * n + rave))
                    q = (1 - beta) * q + beta * a[1] / a[0]
                score = q + c * math.sqrt(log_n / n)
                if prior is not None:  # progressive bias: fades as visits grow
                    score += bias * prior.get(move, 0.0) / (n + 1)
            if score > best:
                best, best_move = score, move
        if best_move is None and lost:
            if node.complete:
                node.proven = 1 - seat  # type: ignore[operator]
                return None
            # Only the considered moves are lost: play on among them, least lost first.
            return max(node.moves, key=lambda m: children[m].n)  # type: ignore[arg-type]
        return best_move

    def _playout(self, pos: SearchPosition, trail: list[tuple[int, int]]) -> float:
        """Random moves to the end or the cut-off: the first ``amaf_plies`` chosen
        here and recorded for RAVE, the rest by the position's own (often much
        faster) ``playout``, which does not say which moves it played."""
        cutoff = self.cutoff
        recorded = self.recorded
        if cutoff is not None and (recorded is None or recorded > cutoff):
            recorded = cutoff
        random_ = self.rng.random
        replies = self.replies
        plies = 0
        while recorded is None or plies < recorded:
            if replies is None:
                played = pos.play_random(self.rng)
                if played is None:
                    break
                seat, move = played
            else:
                mover = pos.to_move
                moves = pos.legal_moves()
                if mover is None or not moves:
                    break
                seat = mover
                move = -1
                if trail:
                    last = trail[-1]
                    if last[0] != seat:
                        move = replies[seat].get(last[1], -1)
                        if move not in moves:
                            move = -1
                if move < 0:
                    move = moves[int(random_() * len(moves))]
                pos.play(move)
            trail.append((seat, move))
            plies += 1
        if not pos.is_over and (cutoff is None or plies < cutoff):
            pos.playout(self.rng, None if cutoff is None else cutoff - plies)
        if pos.is_over:
            winner = pos.winner
            return 0.5 if winner is None else 1.0 - winner
        return self.knowledge.judge(pos.evaluate())

    def _learn_replies(self, trail: list[tuple[int, int]], result: float) -> None:
        """Keep each winner's replies of this simulation, forget the loser's."""
        if self.replies is None or result == 0.5:
            return
        winner = 0 if result > 0.5 else 1
        for (before, previous), (seat, move) in itertools.pairwise(trail):
            if before == seat:
                continue
            known = self.replies[seat]
            if seat == winner:
                known[previous] = move
            elif known.get(previous) == move:
                del known[previous]

    def _backup(self, path: list[Node], trail: list[tuple[int, int]], result: float) -> None:
        self._learn_replies(trail, result)
        rave = self.rave
        # Moves each seat played from the node at depth i on: built from the end.
        later: tuple[dict[int, None], dict[int, None]] = ({}, {})
        if rave:
            for seat, move in trail[len(path) - 1 :]:
                later[seat].setdefault(move, None)
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            if node.mover is not None:
                node.n += 1
                node.w += result if node.mover == 0 else 1.0 - result
            if depth < len(trail):
                seat, move = trail[depth]
                if rave:
                    later[seat][move] = None
                child = node.children.get(move)
                if child is not None and child.proven is not None and node.proven is None:
                    self._prove(node, child)
            to_move = node.to_move
            if rave and to_move is not None:
                value = result if to_move == 0 else 1.0 - result
                amaf = node.amaf
                for move in later[to_move]:
                    a = amaf.get(move)
                    if a is None:
                        amaf[move] = [1, value]
                    else:
                        a[0] += 1
                        a[1] += value

    def _prove(self, node: Node, child: Node) -> None:
        """Settle ``node`` from its newly proven ``child`` where that settles it."""
        if child.proven == node.to_move:
            node.proven = node.to_move
        elif (
            node.complete
            and len(node.children) == len(node.moves or ())
            and all(
                c.proven is not None and c.proven != node.to_move for c in node.children.values()
            )
        ):
            node.proven = child.proven

    def refute(self, move: int, winner: int) -> None:
        """Record that the root's ``move`` lets ``winner`` win by force (as found outside
        the tree): the search avoids it from now on, as a proven loss."""
        root = self.root
        child = root.children.get(move)
        if child is None:
            child = root.children[move] = Node(root, move, root.to_move, None)
        child.proven = winner
        if root.proven is None:
            self._prove(root, child)

    # -- reading the tree ----------------------------------------------------------------

    def subtree(self, moves: list[str]) -> tuple[SearchPosition, Node] | None:
        """The position after ``moves`` (texts) from the root and the tree below it, to
        search on from (the same move ids); None where the tree never went there."""
        pos = self.root_position.copy()
        node = self.root
        for text in moves:
            try:
                move = pos.move_id(text)
            except ValueError:
                return None
            child = node.children.get(move)
            if child is None or child.proven is not None:
                return None
            pos.play(move)
            node = child
        if node.moves is None or pos.is_over:
            return None
        return pos, node

    def root_stats(self) -> list[MoveStat]:
        """The searched root moves, most visited first (proven wins first, losses last)."""
        seat = self.root.to_move
        stats = [
            MoveStat(move, child.n, child.value(), child.proven)
            for move, child in self.root.children.items()
        ]

        def rank(stat: MoveStat) -> tuple[int, int, float]:
            proven = 0 if stat.proven is None else (1 if stat.proven == seat else -1)
            return (proven, stat.visits, stat.win_chance)

        return sorted(stats, key=rank, reverse=True)

    def principal_variation(self, first: int | None = None, longest: int = 8) -> list[int]:
        """The most visited line from the root (from its move ``first`` if given)."""
        line: list[int] = []
        node = self.root
        if first is not None and first in node.children:
            node = node.children[first]
            line.append(first)
        while node.children and len(line) < longest:
            seat = node.to_move
            node = max(
                node.children.values(), key=lambda c: (c.proven == seat, c.proven is None, c.n)
            )
            if node.n == 0 and node.proven is None:
                break
            line.append(node.move)
        return line
