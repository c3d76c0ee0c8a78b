"""The AI player: legal moves everywhere, repeatable with a seed, and its tactics."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

import ai
import rules
from ai.games import knowledge
from ai.levels import Budget, Level, Stopwatch
from ai.mcts import Node, Search
from rules.position import position
from tests.ai import positions
from tests.ai.positions import ends
from tests.tictactoe import GAME as TICTACTOE


def tiny(playouts: int) -> list[Level]:
    """Every level, with its character (temperature) but a budget of ``playouts``."""
    return [
        dataclasses.replace(level, budget=Budget(playouts=playouts), games=())
        for level in ai.LEVELS.values()
    ]


#: (game, options, playouts, seed): short random games at small sizes. Sliglube's
#: playouts are slow through the State contract, hence its smaller budget.
RANDOM_GAMES = [
    ("lifeline", {"size": 3, "opening": "strong-pie"}, 20, 1),
    ("lifeline", {"size": 4, "opening": "strong-pie"}, 20, 2),
    ("lifeline", {"size": 3, "opening": "weak-pie"}, 20, 3),
    ("lifeline", {"size": 4, "opening": "komi-pie"}, 20, 4),
    ("asli", {"size": 5}, 20, 5),
    ("astralis", {"size": 7}, 5, 6),
    ("sliglube", {"size": 5}, 1, 7),
]


@pytest.mark.parametrize(
    ("name", "options", "playouts", "seed"),
    RANDOM_GAMES,
    ids=[f"{g}-{o['size']}-{o.get('opening', '')}" for g, o, _, _ in RANDOM_GAMES],
)
def test_every_level_returns_a_legal_move_in_every_position_of_a_random_game(
    name: str, options: dict, playouts: int, seed: int
) -> None:
    levels = tiny(playouts)
    rng = random.Random(seed)
    state = rules.get_game(name).new(**options)
    asked = 0
    while not state.is_over:
        level = levels[asked % len(levels)]
        move = ai.choose_move(state, level, seed=asked)
        assert move in state.legal_moves(), (level.name, state.history)
        asked += 1
        state = state.play(rng.choice(state.legal_moves()))
    assert asked >= len(levels)


def test_the_same_seed_gives_the_same_move_and_the_ai_is_not_stuck_on_one() -> None:
    state = rules.get_game("asli").replay(["komi 2", "white", "c3", "b3"], size=5)
    level = Level("test", Budget(playouts=30))
    first = [ai.choose_move(state, level, seed=seed) for seed in range(5)]
    assert first == [ai.choose_move(state, level, seed=seed) for seed in range(5)]
    easy = dataclasses.replace(ai.LEVELS["easy"], budget=Budget(playouts=40), games=())
    assert ai.choose_move(state, easy, seed=9) == ai.choose_move(state, easy, seed=9)
    assert len(set(first)) > 1


def test_an_unknown_level_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="easy, medium, hard"):
        ai.choose_move(rules.get_game("asli").new(size=5), "grandmaster")


def test_a_finished_game_has_no_move_to_choose() -> None:
    state = positions.LIFELINE_WIPE.state().play("b4")
    with pytest.raises(ValueError, match="over"):
        ai.choose_move(state, "easy")


# -- tactics -----------------------------------------------------------------------------

WINS_AT_ONCE = [
    (positions.LIFELINE_WIPE, "b4"),
    (positions.ASLI_NO_ACTION, "a2"),
    (positions.ASTRALIS_LAST_PLACEMENT, "h12 g13"),
]


@pytest.mark.parametrize(
    ("position", "winning"), WINS_AT_ONCE, ids=[p.game for p, _ in WINS_AT_ONCE]
)
def test_a_move_that_wins_at_once_is_played_at_every_level(
    position: positions.Position, winning: str
) -> None:
    state = position.state()
    me = state.to_move
    outcomes = {move: ends(state, move) for move in state.legal_moves()}
    assert [m for m, winner in outcomes.items() if winner == me] == [winning]
    assert len(outcomes) >= 15
    for level in tiny(1):
        for seed in range(3):
            assert ai.choose_move(state, level, seed=seed) == winning


def test_the_lifeline_win_wipes_the_opponent_out_and_the_asli_one_leaves_no_action() -> None:
    wiped = positions.LIFELINE_WIPE.state().play("b4")
    assert wiped.result == "Black wins: White has no stones left"
    stuck = positions.ASLI_NO_ACTION.state().play("a2")
    assert stuck.result == "White wins: Black has no legal action"


def test_a_sliglube_move_that_stalemates_the_mover_into_a_win_is_found() -> None:
    state = positions.SLIGLUBE_SELF_STALEMATE.state()
    me = state.to_move
    after = state.play("d1")
    assert all(ends(after, reply) == me for reply in after.legal_moves())
    others = [m for m in state.legal_moves() if m != "d1"]
    assert others and all(ends(state, m) == "on" for m in others)
    for seed in range(3):
        assert ai.choose_move(state, Level("test", Budget(playouts=30)), seed=seed) == "d1"
    analysis = ai.analyse(state, Budget(playouts=30), seed=0)
    assert analysis.proven and analysis.best_move == "d1"
    assert analysis.win_chance_for_seat0 == (1.0 if me == 0 else 0.0)


LOSING_POSITIONS = [
    positions.ASTRALIS_LOSING_PLACEMENTS,
    positions.SLIGLUBE_STALEMATING_THE_OPPONENT,
]


@pytest.mark.parametrize("position", LOSING_POSITIONS, ids=[p.game for p in LOSING_POSITIONS])
def test_a_move_that_loses_at_once_is_never_played_when_another_does_not(
    position: positions.Position,
) -> None:
    state = position.state()
    me = state.to_move
    outcomes = {move: ends(state, move) for move in state.legal_moves()}
    losing = {m for m, winner in outcomes.items() if winner == 1 - me}
    assert losing and len(losing) < len(outcomes)
    for level in tiny(1):
        for seed in range(6):
            assert ai.choose_move(state, level, seed=seed) not in losing


def test_a_move_that_allows_a_winning_reply_is_avoided_where_replies_are_few() -> None:
    state = positions.ASLI_ONE_SAFE_MOVE.state()
    me = state.to_move
    legal = state.legal_moves()
    assert len(legal) == 8 and all(ends(state, m) == "on" for m in legal)
    allowing = {
        m
        for m in legal
        if any(
            ends(after, reply) == 1 - me
            for after in [state.play(m)]
            for reply in after.legal_moves()
        )
    }
    assert allowing == set(legal) - {"c5"}
    for level in tiny(1):
        for seed in range(3):
            assert ai.choose_move(state, level, seed=seed) == "c5"


def test_a_move_that_loses_by_force_four_plies_on_is_avoided_at_a_members_size() -> None:
    """The corner trap of a bench game the hard level lost (Asli 13): after a12, b12
    leaves every White move a reply that leaves White no action. A tree of uniform
    40-ply playouts walks into it; the look three plies ahead sees it, and plays the
    win after it. Frugal playouts, which judge the corner's territory as it will be
    played, keep the tree alone out of it too."""
    state = positions.ASLI_CORNER_TRAP.state()
    level = Level("trap", Budget(playouts=600))
    blind = dataclasses.replace(level, tuning=(("asli", "threat_plays", 0),))
    uniform = (("asli", "frugal", 0), ("asli", "cutoff", 40))
    blind_uniform = dataclasses.replace(blind, tuning=blind.tuning + uniform)
    looking_uniform = dataclasses.replace(level, tuning=uniform)
    assert ai.choose_move(state, blind_uniform, seed=1) == "a12", "uniform avoids it now"
    assert ai.choose_move(state, looking_uniform, seed=1) != "a12"
    assert ai.choose_move(state, blind, seed=1) != "a12"
    assert ai.choose_move(state, level, seed=1) != "a12"
    sprung = state.play("a12")
    assert ai.choose_move(sprung, level, seed=1) in {"b12", "c13"}
    analysis = ai.analyse(sprung, Budget(playouts=600), seed=1)
    assert analysis.proven and analysis.best_move in {"b12", "c13"}


# -- every kind of move ------------------------------------------------------------------


def test_komi_is_chosen_among_small_numbers_and_the_colour_choice_follows() -> None:
    for name, options in (("asli", {"size": 5}), ("lifeline", {"size": 4, "opening": "komi-pie"})):
        state = rules.get_game(name).new(**options)
        move = ai.choose_move(state, Level("test", Budget(playouts=40)), seed=1)
        word, number = move.split()
        assert word == "komi" and 0 <= int(number) <= options["size"]
        state = state.play(move)
        assert ai.choose_move(state, Level("test", Budget(playouts=20)), seed=1) in (
            "black",
            "white",
        )


def considered(state: rules.State) -> set[str]:
    """The moves the search's root considers in ``state`` (after its choice among many)."""
    pos = position(state)
    search = Search(pos, knowledge(state.game.name, state.options), random.Random(0))
    search.run(Budget(playouts=1))
    assert search.root.moves is not None
    return {pos.move_text(m) for m in search.root.moves}


def test_the_search_considers_every_kind_of_special_move() -> None:
    lifeline = rules.get_game("lifeline")
    opening = considered(lifeline.replay(["a1 c3"], size=7))
    assert "swap" in opening and 20 <= len(opening) <= 100
    komi = lifeline.replay(
        ["komi 3", "white", "a1", "b2", "c3", "d4", "e2"], size=4, opening="komi-pie"
    )
    assert komi.color_to_move == "white" and "pass" in considered(komi)
    asli = rules.get_game("asli").replay(["komi 3", "black", "c3"], size=5)
    assert "hold" in considered(asli)
    assert considered(rules.get_game("asli").new(size=13)) == {f"komi {k}" for k in range(14)}
    sliglube = positions.SLIGLUBE_NOFLIP.state()
    assert "g5 noflip" in considered(sliglube)
    astralis = considered(rules.get_game("astralis").replay(["a3", "m3"], size=7))
    assert any(" " in m for m in astralis) and any(" " not in m for m in astralis)


def test_a_two_stone_lifeline_opening_is_searched_among_a_sample() -> None:
    state = rules.get_game("lifeline").new(size=7)
    move = ai.choose_move(state, Level("test", Budget(playouts=20)), seed=2)
    assert len(move.split()) == 2 and move in state.legal_moves()


def most_visited(search: Search) -> int:
    return max(
        (c for c in search.root.children.values() if c.proven is None), key=lambda c: c.n
    ).move


def test_a_search_that_stops_once_settled_chooses_what_the_whole_budget_would() -> None:
    """A level without temperature stops when no move can overtake the most visited
    one: the same move as the whole budget, in fewer playouts where one move stands out."""
    saved = 0
    for name, options in (("lifeline", {"size": 5}), ("astralis", {"size": 7})):
        rng = random.Random(3)
        state = rules.get_game(name).new(**options)
        while not state.is_over and state.ply < 40:
            if state.ply % 8 == 7:
                searches = []
                for settle in (False, True):
                    search = Search(
                        position(state), knowledge(name, state.options), random.Random(5)
                    )
                    search.run(Budget(playouts=400), stop_when_settled=settle)
                    searches.append(search)
                whole, settled = searches
                if whole.root.proven is None and settled.root.children:
                    assert most_visited(settled) == most_visited(whole), (name, state.ply)
                    assert settled.playouts <= whole.playouts
                    saved += whole.playouts - settled.playouts
            state = state.play(rng.choice(state.legal_moves()))
    assert saved > 0


# -- a game the AI has never heard of ----------------------------------------------------


def test_a_game_without_a_module_is_played_and_won_by_the_generic_search() -> None:
    state = TICTACTOE.replay(["a1", "b1", "a2", "b2"])
    assert ai.choose_move(state, Level("test", Budget(playouts=1)), seed=0) == "a3"
    threatened = TICTACTOE.replay(["a1", "b2", "a2"])
    assert ai.choose_move(threatened, Level("test", Budget(playouts=300)), seed=0) == "a3"
    wins = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = TICTACTOE.new()
        while not state.is_over:
            if state.to_move == seed % 2:
                move = ai.choose_move(state, Level("test", Budget(playouts=200)), seed=seed)
            else:
                move = rng.choice(state.legal_moves())
            state = state.play(move)
        assert state.winner != 1 - seed % 2, state.history
        wins += state.winner == seed % 2
    assert wins >= 2


# -- analysis ----------------------------------------------------------------------------


def test_analysis_of_a_won_position_a_finished_game_and_an_open_one() -> None:
    state = positions.LIFELINE_WIPE.state()
    won = ai.analyse(state, Budget(playouts=10))
    assert won.proven and won.best_move == "b4" and won.win_chance_for_seat0 == 1.0
    over = ai.analyse(state.play("b4"), Budget(playouts=10))
    assert over.best_move is None and over.win_chance_for_seat0 == 1.0
    open_ = ai.analyse(
        rules.get_game("asli").replay(["komi 2", "white"], size=5), Budget(playouts=60), seed=1
    )
    assert 0.0 < open_.win_chance_for_seat0 < 1.0 and not open_.proven
    assert open_.best_move in open_.candidates[0].move and open_.line[0] == open_.best_move
    assert open_.playouts == 60


def test_a_whole_game_is_analysed_position_by_position() -> None:
    moves = ["komi 1", "black", "c3", "b3", "b2"]
    analyses = ai.analyse_game("asli", {"size": 5}, moves, Budget(playouts=10), seed=1)
    assert len(analyses) == len(moves) + 1
    state = rules.get_game("asli").new(size=5)
    for analysis, move in zip(analyses, [*moves, None], strict=True):
        assert analysis.best_move in state.legal_moves()
        assert analysis.to_move == state.to_move
        if move:
            state = state.play(move)


# -- levels by work ------------------------------------------------------------------------


def test_every_level_is_a_number_of_playouts_per_game_with_a_time_cap_as_a_safety_net() -> None:
    for name, level in ai.LEVELS.items():
        for game in rules.GAMES:
            budget = level.budget_for(game)
            assert budget.playouts is not None and budget.playouts >= 1
            assert budget.seconds == max(
                ai.levels.CAP_FLOOR, ai.levels.CAP_FACTOR * ai.levels.SECONDS[name]
            )
            assert budget.wall_seconds == ai.levels.WALL_FACTOR * budget.seconds
    easy, medium, hard = (ai.LEVELS[n].budget_for("asli").playouts or 0 for n in ai.LEVELS)
    assert easy < medium < hard
    bare = ai.LEVELS["hard"].uncapped(3)  # as the bot's AI_TEST_PLAYOUTS makes them
    assert bare.budget_for("asli") == Budget(playouts=3) and bare.tuning == ai.LEVELS["hard"].tuning
    assert ai.LEVELS["hard"].uncapped().budget_for("asli") == Budget(playouts=hard)


def test_a_size_whose_playouts_cost_otherwise_has_a_budget_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hard = ai.LEVELS["hard"]
    nine, thirteen = hard.budget_for("asli", 9), hard.budget_for("asli", 13)
    assert nine.playouts == round(3.0 * ai.levels.RATES["hard"]["asli 9"], -1)
    assert thirteen == hard.budget_for("asli") == hard.budget_for("asli", 11)
    assert nine.playouts != thirteen.playouts and nine.seconds == thirteen.seconds
    searched_with: list[int | None] = []

    class Spy(Search):  # each search's last budget (it may run in steps)
        def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            super().__init__(*args, **kwargs)
            searched_with.append(None)

        def run(self, budget, *args, **kwargs):  # type: ignore[no-untyped-def]
            searched_with[-1] = budget.playouts
            return super().run(budget, *args, **kwargs)

    monkeypatch.setattr(ai.player, "Search", Spy)
    sized = Level(
        "sized",
        Budget(playouts=5),
        games=(("asli", Budget(playouts=7)), ("asli 5", Budget(playouts=9))),
    )
    for size in (5, 7):
        state = rules.get_game("asli").replay(["komi 2", "white", "c3"], size=size)
        ai.choose_move(state, sized, seed=1)
    assert searched_with == [9, 7]


def test_a_level_searches_with_its_own_tuning_of_the_game_and_no_other_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched_with = []

    class Spy(Search):
        def __init__(self, pos, known, *args, **kwargs):  # type: ignore[no-untyped-def]
            searched_with.append(known)
            super().__init__(pos, known, *args, **kwargs)

    monkeypatch.setattr(ai.player, "Search", Spy)
    state = rules.get_game("asli").replay(["komi 2", "white", "c3"], size=5)
    tuning = (("asli", "cutoff", 7), ("asli", "rave", 0.0), ("lifeline", "rave", 5.0))
    ai.choose_move(state, Level("tuned", Budget(playouts=20), tuning=tuning), seed=1)
    ai.choose_move(state, Level("plain", Budget(playouts=20)), seed=1)
    own = knowledge("asli", state.options)
    assert [(known.cutoff, known.rave, known.exploration) for known in searched_with] == [
        (7, 0.0, own.exploration),
        (own.cutoff, own.rave, own.exploration),
    ]
    assert (own.cutoff, own.rave) != (7, 0.0)
    # the searches that judge its komi offer think with the same tuning
    searched_with.clear()
    opening = rules.get_game("asli").new(size=5)
    offer = ai.choose_move(opening, Level("tuned", Budget(playouts=20), tuning=tuning), seed=1)
    assert offer in opening.legal_moves() and offer.startswith("komi")
    assert searched_with and {(known.cutoff, known.rave) for known in searched_with} == {(7, 0.0)}


def test_a_search_cut_short_by_its_time_cap_says_so_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = rules.get_game("asli").replay(["komi 2", "white", "c3"], size=5)
    search = Search(position(state), knowledge("asli", state.options), random.Random(1))
    # A second of CPU a simulation: the cap of five cuts the search after a few.
    cpu, wall = itertools.count().__next__, itertools.count(step=0.001).__next__
    with caplog.at_level("INFO", logger="ai.mcts"):
        search.run(Budget(seconds=5.0, playouts=1000), Stopwatch.start(cpu, wall))
    assert search.cut_short and search.playouts < 5
    assert "search cut short after" in caplog.text and "seconds=5.0" in caplog.text
    caplog.clear()
    unbounded = Search(position(state), knowledge("asli", state.options), random.Random(1))
    with caplog.at_level("INFO", logger="ai.mcts"):
        unbounded.run(Budget(playouts=20))
    assert not unbounded.cut_short and "cut short" not in caplog.text


def test_a_busy_host_slows_a_search_down_but_cuts_it_only_at_its_wall_clock_cap(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A host so busy that every simulation takes a second by the wall clock, while the
    # search's own CPU time stays what an idle core would take.
    state = rules.get_game("asli").replay(["komi 2", "white", "c3"], size=5)
    cpu, wall = itertools.count(step=0.001).__next__, itertools.count().__next__
    patient = Search(position(state), knowledge("asli", state.options), random.Random(1))
    patient.run(Budget(seconds=5.0, playouts=300), Stopwatch.start(cpu, wall))
    assert patient.playouts == 300 and not patient.cut_short
    hurried = Search(position(state), knowledge("asli", state.options), random.Random(1))
    with caplog.at_level("INFO", logger="ai.mcts"):
        hurried.run(
            Budget(seconds=5.0, playouts=300, wall_seconds=40.0), Stopwatch.start(cpu, wall)
        )
    assert hurried.cut_short and hurried.playouts < 40
    assert "wall_seconds=40.0" in caplog.text


# -- the pie -------------------------------------------------------------------------------


def test_a_komi_offer_is_judged_by_a_search_of_each_and_is_never_a_large_one() -> None:
    from ai.pie import non_increasing

    assert non_increasing([0.6, 0.7, 0.4, 0.45, 0.2]) == pytest.approx(
        [0.65, 0.65, 0.425, 0.425, 0.2]
    )
    state = rules.get_game("asli").new(size=5)
    level = Level("test", Budget(playouts=120))
    offers = {ai.choose_move(state, level, seed=seed) for seed in range(2)}
    assert all(o.startswith("komi ") and int(o.split()[1]) <= 5 for o in offers), offers
    lifeline = rules.get_game("lifeline").new(size=3, opening="komi-pie")
    offer = ai.choose_move(lifeline, level, seed=1)
    assert offer.startswith("komi ") and int(offer.split()[1]) <= 3


def test_a_komi_is_judged_by_the_whole_search_not_by_its_best_moves_lifted_chance() -> None:
    """Each komi's search thinks Black's best move worth 0.56 (0.51 at komi 5), but
    over all its visits Black's chance falls with the komi from ½: komi 0 is fair."""
    from ai.pie import komi_offer
    from ai.player import Analysis, Candidate

    def analyse(board: rules.State, budget: Budget, seed: int) -> Analysis:
        komi = int(board.history[0].split()[1])
        best = 0.51 if komi == 5 else 0.56
        black = board.to_move
        candidates = (Candidate("a1", 10, best), Candidate("b1", 90, 0.5 - 0.03 * komi))
        seat0 = best if black == 0 else 1.0 - best
        return Analysis(seat0, "a1", black, playouts=100, candidates=candidates)

    state = rules.get_game("asli").new(size=9)
    offer = komi_offer(state, Budget(playouts=1000), random.Random(1), analyse)
    assert offer == "komi 0"


def test_a_capped_level_searches_on_from_the_tree_of_its_last_move() -> None:
    from ai import player

    player._trees.clear()
    state = rules.get_game("lifeline").replay(["b2 d4", "swap"], size=4)
    capped = Level("capped", Budget(seconds=60.0, playouts=300))
    mine = ai.choose_move(state, capped, seed=1)
    kept = player._trees[capped, player._options_key(state), tuple(state.history)]
    after = state.play(mine)
    reply = after.legal_moves()[0]
    found = player._kept_tree(after.play(reply), capped)
    assert found is not None and found[1].n > 0  # visits from the first search
    assert ai.choose_move(after.play(reply), capped, seed=2) in after.play(reply).legal_moves()
    assert kept.root.children  # the kept tree was searched
    # A budget without a time limit stays repeatable: it keeps no tree.
    player._trees.clear()
    ai.choose_move(state, Level("bare", Budget(playouts=50)), seed=1)
    assert not player._trees


def test_a_root_taken_over_from_a_kept_tree_explores_no_more_than_a_fresh_one() -> None:
    """A fresh root never counts its own visits, so it chooses among its moves by their
    values alone; a root taken over from a kept tree (its visits counted as a child's)
    must too: a rarely visited move no better than the best does not draw it away."""
    state = rules.get_game("lifeline").replay(["b2 d4", "swap"], size=4)
    pos = position(state)
    seat = pos.to_move
    assert seat is not None
    rare, best = pos.legal_moves()[:2]
    kept = Node(None, -1, 1 - seat, seat)
    kept.n, kept.w, kept.moves = 910, 455.0, [rare, best]
    for move, visits, won in ((rare, 10, 5.0), (best, 900, 495.0)):
        child = kept.children[move] = Node(kept, move, seat, 1 - seat)
        child.n, child.w = visits, won
    known = dataclasses.replace(knowledge(state.game, state.options), rave=0.0)
    search = Search(pos, known, random.Random(1), tree=kept)
    search.simulate()
    assert (kept.children[rare].n, kept.children[best].n) == (10, 901)


def test_a_level_never_searches_on_from_another_levels_tree() -> None:
    """Two levels playing each other in one process (a bench match, a worker's games):
    each searches on only from its own trees, not from the one the other just made."""
    from ai import player

    player._trees.clear()
    state = rules.get_game("lifeline").replay(["b2 d4", "swap"], size=4)
    strong = Level("strong", Budget(seconds=60.0, playouts=300))
    weak = Level("weak", Budget(seconds=60.0, playouts=30))
    after = state.play(ai.choose_move(state, strong, seed=1))
    assert player._kept_tree(after, strong) is not None
    assert player._kept_tree(after, weak) is None
    reply = ai.choose_move(after, weak, seed=1)
    weak_tree = player._trees[weak, player._options_key(after), tuple(after.history)]
    found = player._kept_tree(after.play(reply), weak)
    assert found is not None and found[1].parent is weak_tree.root


def test_the_second_player_swaps_exactly_when_whites_best_first_turn_is_below_even() -> None:
    """``swap`` leaves the board and the colour to move as they are, played by the
    other seat, so it is worth 1 - White's best first turn: the AI never plays a first
    turn it rates below even where it could swap instead, nor swaps away a better one."""
    lifeline = rules.get_game("lifeline")
    budget = Budget(playouts=300)
    chosen = set()
    for opening in ("a1 a3", "a4 e1", "b1 g3", "b2 d4", "d4 e2", "b4 e3"):
        state = lifeline.replay([opening], size=4)
        for seed in (1, 2):
            estimate = ai.analyse(state, budget, seed=seed)
            mine = 1.0 - estimate.win_chance_for_seat0  # the second player's
            assert mine >= 0.5, (opening, seed, estimate.best_move, mine)
            others = [c for c in estimate.candidates if c.move != "swap"]
            if estimate.best_move == "swap":
                assert mine == pytest.approx(1.0 - others[0].win_chance)
            chosen.add(estimate.best_move == "swap")
            move = ai.choose_move(state, Level("test", budget), seed=seed)
            assert move in state.legal_moves()
            chosen.add(move == "swap")
    assert chosen == {True, False}
