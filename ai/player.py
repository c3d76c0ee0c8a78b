"""The AI's two services: a move for the player to move, and an estimate of a position.

Both start with the same cheap look at every move of the position: a move that
wins at once is played (or reported) without searching, and a move that loses at
once is never searched when another move does not. Where the replies are few
(an endgame), the look goes one reply deeper: a move after which every reply
loses at once wins, and a move that allows a reply winning at once loses. A game
whose knowledge asks for it (Asli) also gets the look three plies ahead of
:mod:`ai.threats`: a forced win is played without searching, and the move the
search leads with, and the one it chooses, must not let the opponent force one.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import rules
from ai.games import Knowledge, knowledge
from ai.levels import Budget, Level, Stopwatch, get_level
from ai.mcts import MoveStat, Node, Search
from ai.pie import komi_offer
from ai.threats import Look, forced_win, forced_winner_after
from rules import State
from rules.position import SearchPosition, StatePosition, position

#: Above this many moves the look at every move is skipped (Lifeline's two-stone openings).
TACTICS_WIDEST = 2000
#: A level with a temperature picks among the moves searched at least this share
#: as much as the best one (never a move the search barely looked at).
PLAUSIBLE = 0.25
#: The look at the replies to every move stops after this many replies.
TACTICS_REPLIES = 300
#: The look at every move stops after this share of a time budget (slow engines, wide boards).
TACTICS_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move the search looked at, with its visits and the mover's chance after it."""

    move: str
    visits: int
    win_chance: float


@dataclass(frozen=True, slots=True)
class Analysis:
    """The AI's estimate of a position.

    ``win_chance_for_seat0``: 0 to 1 (1 or 0 once over, or once a win is proven;
    ½ for a draw); ``best_move``: its choice (None once over); ``proven``: the
    estimate is certain (the game is over or a forced win was found);
    ``candidates``: every move the search visited, best first; ``line``: the expected
    continuation from ``best_move`` on.
    """

    win_chance_for_seat0: float
    best_move: str | None
    to_move: int | None
    proven: bool = False
    playouts: int = 0
    seconds: float = 0.0
    candidates: tuple[Candidate, ...] = ()
    line: tuple[str, ...] = ()

    @property
    def searched_chance(self) -> float:
        """The chance of the seat to move by the whole search: its moves' chances
        weighted by their visits (the chance of the move it would play is the best of
        many noisy estimates, lifted by being chosen), or the estimate itself when
        proven or when nothing was searched."""
        visits = sum(candidate.visits for candidate in self.candidates)
        if self.proven or not visits:
            seat0 = self.win_chance_for_seat0
            return seat0 if self.to_move == 0 else 1.0 - seat0
        return sum(c.visits * c.win_chance for c in self.candidates) / visits


def _tactics(pos: SearchPosition, over: Callable[[], bool]) -> tuple[int | None, frozenset[int]]:
    """A move that wins (at once, or whatever the reply when that is cheap to
    check), or None; and the moves to avoid: those that lose at once, and those
    that allow a reply winning at once unless that leaves nothing, among the
    moves looked at before ``over()``."""
    me = pos.to_move
    legal = pos.legal_moves()
    if len(legal) > TACTICS_WIDEST:
        return None, frozenset()
    losing: list[int] = []
    allowing: list[int] = []
    open_: list[tuple[int, SearchPosition]] = []
    for move in legal:
        if over():
            return None, frozenset(losing)
        after = pos.copy()
        after.play(move)
        if not after.is_over:
            open_.append((move, after))
        elif after.winner == me:
            return move, frozenset()
        elif after.winner is not None:
            losing.append(move)
    plays = 0
    for move, after in open_:
        if after.to_move == me:
            continue
        replies = after.legal_moves()
        plays += len(replies)
        if plays > TACTICS_REPLIES or over():
            break
        wins = 0
        for reply in replies:
            answer = after.copy()
            answer.play(reply)
            if not answer.is_over or answer.winner is None:
                continue
            if answer.winner != me:
                allowing.append(move)
                break
            wins += 1
        if wins == len(replies):
            return move, frozenset()
    if len(losing) + len(allowing) < len(legal):
        losing += allowing
    return None, frozenset(losing)


#: The plays of a look three plies ahead (:mod:`ai.threats`) for a budget without playouts.
THREAT_PLAYOUTS = 1_000
#: The shares of a search's playouts after which its leading move is checked three
#: plies ahead, so that a move found losing by force does not draw the rest of them.
THREAT_CHECKS = (0.25, 0.5)


@dataclass
class _Thought:
    """What :func:`_think` found: a win at once or by force, the one move that does
    not lose at once, or else a finished search; and what is left of the look three
    plies ahead to check the search's choice with (None: no look)."""

    pos: SearchPosition
    move: int | None
    search: Search | None
    look: Look | None = None
    #: The id of a ``swap`` valued by the mirror, left out of the search.
    swap: int | None = None


def _safe(pos: SearchPosition, moves: list[int], look: Look | None) -> int:
    """The first of ``moves`` after which the look three plies ahead finds no forced
    win for the opponent (the first of them where it finds one after each, or ran out)."""
    if look is not None:
        for move in moves:
            if look.spent or forced_winner_after(pos, move, look) is None:
                return move
    return moves[0]


def _refute_leader(search: Search, look: Look) -> None:
    """Check the move the search leads with three plies ahead; one that loses by force
    becomes a proven loss the search avoids from then on."""
    stats = search.root_stats()
    if not stats:
        return
    leader = stats[0]
    if leader.proven is None and not look.spent:
        winner = forced_winner_after(search.root_position, leader.move, look)
        if winner is not None:
            search.refute(leader.move, winner)


#: How many recent search trees a process keeps for :func:`choose_move` to search on
#: (a hard search's tree of Asli 13 at its first move: ~4 MB, measured by tracemalloc).
TREES_KEPT = 8
#: The most moves played since a kept tree's root for it to be searched on.
TREES_REACH = 4
#: Kept trees by the level that searched them, the game and options, and the moves to
#: the tree's root. A level searches on only from its own trees: two levels in one
#: process (a worker's practice games, a bench match) would otherwise each take up the
#: other's tree of the move just played, and the weaker one think with the stronger
#: one's visits (every bench pairing of two levels did until 2026-11-27: see the fourth
#: measurement in bench/README.md).
_trees: OrderedDict[tuple[Level, str, tuple[str, ...]], Search] = OrderedDict()


def _options_key(state: State) -> str:
    return f"{state.game.name}:{sorted(state.options.items())!r}"


def _kept_tree(state: State, level: Level) -> tuple[SearchPosition, Node] | None:
    """The subtree of a search ``level`` kept that ``state`` is reached in, and its position."""
    key = _options_key(state)
    history = tuple(state.history)
    for back in range(1, min(TREES_REACH, len(history)) + 1):
        search = _trees.get((level, key, history[:-back]))
        if search is not None:
            found = search.subtree(list(history[-back:]))
            if found is not None:
                return found
    return None


def _keep_tree(state: State, level: Level, search: Search) -> None:
    _trees[level, _options_key(state), tuple(state.history)] = search
    while len(_trees) > TREES_KEPT:
        _trees.popitem(last=False)


def _think(
    state: State,
    budget: Budget,
    rng: random.Random,
    evaluate: bool,
    settle: bool = False,
    reuse: Level | None = None,
    tuning: Mapping[str, Any] | None = None,
) -> _Thought:
    """Look at every move, then search unless that settled it (``evaluate``: search
    even when one move is left, to estimate the position; ``reuse``: search on from
    the tree of an earlier search of this level that led here, where one is kept, and
    keep this one; ``tuning``: fields of the game's knowledge changed for this search)."""
    started = Stopwatch.start()
    pos = position(state)
    winning, losing = _tactics(pos, functools.partial(started.spent, budget, TACTICS_SHARE))
    if winning is not None:
        return _Thought(pos, winning, None)
    if losing and not evaluate:
        left = [m for m in pos.legal_moves() if m not in losing]
        if len(left) == 1:
            return _Thought(pos, left[0], None)
    known = knowledge(state.game, state.options)
    if tuning:
        known = dataclasses.replace(known, **tuning)
    threat_plays = int(known.threat_plays * (budget.playouts or THREAT_PLAYOUTS))
    look = None
    if threat_plays:
        winning = forced_win(pos, Look(threat_plays))
        if winning is not None:
            return _Thought(pos, winning, None)
        look = Look(threat_plays)
    swap = _mirrored_swap(pos, known)
    if swap is not None:
        losing = losing | {swap}
    # Only where move ids are the same in every position of the game (fast positions).
    if isinstance(pos, StatePosition):
        reuse = None
    kept = _kept_tree(state, reuse) if reuse is not None else None
    if kept is not None:
        pos, tree = kept
        search = Search(pos, known, rng, losing, tree)
    else:
        search = Search(pos, known, rng, losing)
    if look is not None and budget.playouts is not None:
        for share in THREAT_CHECKS:
            part = dataclasses.replace(budget, playouts=max(1, int(share * budget.playouts)))
            search.run(part, started)
            _refute_leader(search, look)
    search.run(budget, started, stop_when_settled=settle)
    if reuse is not None:
        _keep_tree(state, reuse, search)
    return _Thought(pos, None, search, look, swap)


def _mirrored_swap(pos: SearchPosition, known: Knowledge) -> int | None:
    """The id of ``swap`` where it is legal and valued by the mirror (see
    :class:`ai.games.Knowledge`), else None."""
    if not known.mirror_swap:
        return None
    swap = pos.move_id("swap")
    return swap if swap in pos.legal_moves() else None


def _swap_instead(thought: _Thought, best: MoveStat) -> int | None:
    """The mirrored swap where it is worth more than ``best``, the best other move (a
    chance under ½, or a proven loss, for the mover after it); else None."""
    swap = thought.swap
    if swap is None or best.proven == thought.pos.to_move:
        return None
    return swap if best.proven is not None or best.win_chance < 0.5 else None


def choose_move(state: State, level: str | Level = "medium", seed: int | None = None) -> str:
    """The AI's move for the player to move, in canonical text.

    ``level``: a name from :data:`ai.levels.LEVELS` or a :class:`Level`; ``seed``
    makes the choice repeatable when the level's budget has no time limit.
    """
    if state.is_over:
        raise ValueError("the game is over: there is no move to choose")
    level = get_level(level)
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    rng = random.Random(seed)
    # A level that always plays the most visited move may stop once no other can catch up.
    budget = level.budget_for(state.game.name, state.options.get("size"))
    tuning = level.tuning_for(state.game.name)
    offer = komi_offer(state, budget, rng, functools.partial(analyse, tuning=tuning))
    if offer is not None:
        return offer
    # A time-capped level searches on from its tree of the last moves (a budget without a
    # time limit stays repeatable: it never does).
    thought = _think(
        state,
        budget,
        rng,
        evaluate=False,
        settle=level.temperature <= 0,
        reuse=level if budget.seconds is not None else None,
        tuning=tuning,
    )
    text = thought.pos.move_text
    if thought.search is None:
        return text(thought.move)  # type: ignore[arg-type]
    stats = thought.search.root_stats()
    if stats[0].proven == state.to_move:
        return text(stats[0].move)
    swap = _swap_instead(thought, stats[0])
    if swap is not None:
        return text(swap)
    unproven = [s.move for s in stats if s.proven is None]
    if level.temperature <= 0:
        first = stats[0].move
    else:
        plausible = PLAUSIBLE * stats[0].visits
        open_ = [s for s in stats if s.proven is None and s.visits >= plausible] or stats[:1]
        weights = [max(s.visits, 1) ** (1 / level.temperature) for s in open_]
        first = rng.choices(open_, weights)[0].move
    order = [first, *(m for m in unproven if m != first)]
    return text(_safe(thought.pos, order, thought.look))


def analyse(
    state: State,
    budget: Budget,
    seed: int | None = None,
    tuning: Mapping[str, Any] | None = None,
) -> Analysis:
    """The AI's estimate of ``state``: seat 0's chance of winning and its best move
    (``tuning``: fields of the game's search knowledge changed, as a level's)."""
    if state.is_over:
        chance = 0.5 if state.winner is None else 1.0 - state.winner
        return Analysis(chance, None, None, proven=True)
    started = time.perf_counter()
    me = state.to_move
    assert me is not None

    def for_seat0(chance: float) -> float:
        return chance if me == 0 else 1.0 - chance

    thought = _think(state, budget, random.Random(seed), evaluate=True, tuning=tuning)
    text = thought.pos.move_text
    search = thought.search
    if search is None:  # a win at once or by force
        return Analysis(
            for_seat0(1.0),
            text(thought.move),  # type: ignore[arg-type]
            me,
            proven=True,
            seconds=time.perf_counter() - started,
        )
    stats = search.root_stats()
    best = stats[0]
    if best.proven is None:
        safe = _safe(thought.pos, [s.move for s in stats if s.proven is None], thought.look)
        best = next(s for s in stats if s.move == safe)
    proven = best.proven is not None
    chance = (1.0 if best.proven == me else 0.0) if proven else best.win_chance
    candidates = tuple(Candidate(text(s.move), s.visits, s.win_chance) for s in stats)
    line = tuple(text(m) for m in search.principal_variation(best.move))
    best_move = text(best.move)
    swap = _swap_instead(thought, best)
    if swap is not None:  # the other seat then plays the best move found, as searched
        best_move = text(swap)
        chance, proven = 1.0 - chance, False
        candidates = (Candidate(best_move, best.visits, chance), *candidates)
        line = (best_move, *line)
    return Analysis(
        win_chance_for_seat0=for_seat0(chance),
        best_move=best_move,
        to_move=me,
        proven=proven,
        playouts=search.playouts,
        seconds=time.perf_counter() - started,
        candidates=candidates,
        line=line,
    )


def analyse_game(
    game_name: str,
    options: Mapping[str, Any],
    moves: Iterable[str],
    budget: Budget,
    seed: int | None = None,
) -> list[Analysis]:
    """An :class:`Analysis` of every position of a game, from the start to after its last move."""
    state = rules.get_game(game_name).new(**options)
    analyses = [analyse(state, budget, seed)]
    for move in moves:
        state = state.play(move)
        analyses.append(analyse(state, budget, seed))
    return analyses
