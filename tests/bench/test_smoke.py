"""Smoke run of every benchmark with ``--quick``: each one runs to the end and prints a
table naming every game. Benchmarks are not tests: no figure is asserted here."""

from __future__ import annotations

import importlib

import pytest

import rules

BENCHMARKS = ("bench.engine", "bench.legal_moves", "bench.pictures", "bench.whole_bot")


@pytest.mark.parametrize("module", BENCHMARKS)
def test_quick_run_prints_a_table_of_every_game(
    module: str, capsys: pytest.CaptureFixture[str]
) -> None:
    importlib.import_module(module).main(["--quick"])
    printed = capsys.readouterr().out
    table = [line for line in printed.splitlines() if line.startswith("| ")]
    assert len(table) > len(rules.GAMES), printed
    for name in rules.GAMES:
        assert any(name in line for line in table[1:]), f"no row for {name}:\n{printed}"
    assert "error:" not in printed and "would reject" not in printed, printed
