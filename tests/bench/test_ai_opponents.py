"""The AI benchmark's own opponents and its Elo ladder."""

from __future__ import annotations

import json
import random
import re
import zlib

import pytest

from bench.ladder import Load, elo
from bench.old_ai import OldAI
from bench.opponents import flat_mc_player, lookahead_player
from tests.ai import positions


def test_the_ladder_puts_random_at_zero_and_orders_the_players_by_their_scores() -> None:
    ratings = elo(
        [
            ("easy", "random", 9, 10),
            ("medium", "easy", 7.5, 10),
            ("hard", "medium", 7.5, 10),
            ("hard", "random", 10, 10),
        ]
    )
    assert ratings["random"] == 0
    assert 0 < ratings["easy"] < ratings["medium"] < ratings["hard"]
    # 75% is about 190 Elo; the virtual draws pull it in a little.
    assert 100 < ratings["hard"] - ratings["medium"] < 200


def test_lookahead_and_flat_mc_play_a_win_at_once_and_legal_moves() -> None:
    state = positions.LIFELINE_WIPE.state()
    rng = random.Random(1)
    assert lookahead_player(state, rng) == "b4"
    assert flat_mc_player(0.01)(state, rng) == "b4"
    other = positions.ASLI_ONE_SAFE_MOVE.state()
    assert lookahead_player(other, rng) in other.legal_moves()
    assert flat_mc_player(0.01)(other, rng) in other.legal_moves()


def test_a_komi_offer_of_the_lookahead_player_is_what_the_colour_choice_leaves_fair() -> None:
    import rules

    state = rules.get_game("asli").new(size=5)
    assert lookahead_player(state, random.Random(1)) == "komi 0"


def test_the_load_processes_end_with_the_block() -> None:
    with Load(2) as load:
        assert all(p.poll() is None for p in load.processes)
    assert all(p.poll() is not None for p in load.processes)


def test_a_knob_and_a_rate_change_the_levels_of_one_run_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import ai.player
    from bench import ai as bench_ai

    known = ai.player.knowledge
    try:
        bench_ai.main(["--calibrate", "--quick", "--game", "astralis", "--knob", "amaf_plies=5"])
        assert ai.player.knowledge("astralis", {"size": 8}).amaf_plies == 5
    finally:
        ai.player.knowledge = known
    assert "| astralis | 7 |" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no such knowledge field 'biass'"):
        bench_ai.set_knobs(["biass=1"])
    for bad in ("lifeline=fast", "lifeline=0", "lifeline=inf", "lifeline=nan", "chess=100"):
        with pytest.raises(SystemExit):
            bench_ai.main(["--quick", "--rate", bad])
        assert "--rate" in capsys.readouterr().err
    bench_ai.main(
        [
            *("--quick", "--pairs", "random", "--player", "medium"),
            *("--game", "lifeline", "--rate", "lifeline=20"),
        ]
    )
    out = capsys.readouterr().out
    # 0.5 s at 20 playouts/s: 10 playouts a move (the 5 s CPU cap cutting none of them short)
    assert "| medium | lifeline | 10 playouts, 5 s CPU cap, 15 s wall cap |" in out
    row = next(line for line in out.splitlines() if line.startswith("| medium | lifeline"))
    assert row.split("|")[5].strip() == "0"
    # on a host twice as slow as the rates' one, the caps are twice as long, the work the same
    bench_ai.main(
        [
            *("--quick", "--pairs", "random", "--player", "medium"),
            *("--game", "lifeline", "--rate", "lifeline=20", "--slowdown", "2"),
        ]
    )
    assert (
        "| medium | lifeline | 10 playouts, 10 s CPU cap, 30 s wall cap |"
        in capsys.readouterr().out
    )
    for bad in ("0", "-2", "inf", "nan", "fast"):
        with pytest.raises(SystemExit):
            bench_ai.main(["--quick", "--slowdown", bad])
        assert "--slowdown" in capsys.readouterr().err
    # a game's rate holds at a size with a rate of its own (Asli 9) too
    bench_ai.main(
        [
            *("--quick", "--pairs", "random", "--player", "medium"),
            *("--game", "asli", "--size", "9", "--rate", "asli=20"),
        ]
    )
    assert "| medium | asli | 10 playouts, 5 s CPU cap, 15 s wall cap |" in capsys.readouterr().out


def test_uncapped_levels_think_with_their_playouts_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench import ai as bench_ai

    argv = [
        *("--quick", "--pairs", "random", "--player", "medium"),
        *("--game", "lifeline", "--rate", "lifeline=20", "--uncapped"),
    ]
    bench_ai.main(argv)
    first = capsys.readouterr()
    row = next(line for line in first.out.splitlines() if line.startswith("| medium | lifeline"))
    assert row.split("|")[3].strip() == "10 playouts"  # no cap, so no p99 target either
    assert row.split("|")[9].strip() == ""
    bench_ai.main(argv)
    assert capsys.readouterr().err == first.err  # the same games, move for move


def test_moves_lets_a_game_of_the_run_be_replayed(capsys: pytest.CaptureFixture[str]) -> None:
    import rules
    from bench import ai as bench_ai

    argv = ["--quick", "--pairs", "random", "--player", "easy", "--game", "asli"]
    line = re.compile(
        r"asli game \d \(seat \d\): [0-9.]+/\d \((\d+) plies, moves (\w+)(?:: (.*))?\)"
    )
    bench_ai.main(argv)
    games = [line.fullmatch(text) for text in capsys.readouterr().err.splitlines()]
    assert [game[3] for game in games if game] == [None, None]  # a checksum only
    bench_ai.main([*argv, "--moves"])
    games = [line.fullmatch(text) for text in capsys.readouterr().err.splitlines()]
    replayed = [game.groups() for game in games if game]
    assert len(replayed) == 2
    for plies, checksum, record in replayed:
        state = rules.get_game("asli").new(size=5)
        for move in json.loads(record):
            state = state.play(move)
        assert state.ply == int(plies) > 0
        assert f"{zlib.crc32(' '.join(state.history).encode()):08x}" == checksum


def test_a_variant_thinks_with_its_own_knowledge_and_its_opponent_with_the_code_s(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import ai.mcts
    import ai.player
    from bench import ai as bench_ai

    searched: list[float] = []
    search = ai.mcts.Search

    def spying(pos, knowledge, *args, **kwargs):  # type: ignore[no-untyped-def]
        searched.append(knowledge.last_good_reply)
        return search(pos, knowledge, *args, **kwargs)

    monkeypatch.setattr(ai.player, "Search", spying)
    known = ai.player.knowledge
    bench_ai.main(
        [
            *("--quick", "--pairs", "variant", "--game", "lifeline"),
            *("--variant", "last_good_reply=1"),
        ]
    )
    out = capsys.readouterr().out
    assert "| lifeline | 4 | variant vs medium | 2 |" in out
    assert "| variant | lifeline | 2 playouts |" in out
    # the variant's moves were searched with the change, medium's without it
    assert set(searched) == {0.0, 1.0}
    assert searched.count(1.0) in range(searched.count(0.0) - 1, searched.count(0.0) + 2)
    assert ai.player.knowledge is known
    with pytest.raises(SystemExit, match="--variant: no such knowledge field 'lgr'"):
        bench_ai.knob_changes(["lgr=1"], "--variant")
    with pytest.raises(SystemExit, match="--knob: bias wants a number or none, not 'high'"):
        bench_ai.knob_changes(["bias=high"])


def test_the_old_hard_is_the_code_of_before_issue_24_in_a_process_of_its_own() -> None:
    old = OldAI()
    root = old.root
    try:
        assert (root / "ai" / "search.py").exists()  # ai/mcts.py was ai/search.py then
        # the old AI, too, plays a win at once when there is one
        assert old.choose_move(positions.LIFELINE_WIPE.state(), "easy", seed=1) == "b4"
        other = positions.ASLI_ONE_SAFE_MOVE.state()
        assert old.choose_move(other, "easy", seed=1) in other.legal_moves()
        # --slowdown: the old hard thinks for the time it is given (its own level's kind)
        assert old.choose_move(other, "hard", seed=1, seconds=0.05) in other.legal_moves()
    finally:
        old.close()
    assert not root.exists() and old.ended
    old.close()  # a second close does nothing
