"""``python -m bench [NAME ...] [OPTIONS]``: run the benchmarks and print tables.

Names: engine, legal, pictures, bot, playouts, ai, soak, storage, scale, competitions
(all of them when none is given). Options go to the benchmark named (``python -m bench
engine --budget 5``); with several benchmarks only ``--quick`` is shared.
"""

from __future__ import annotations

import importlib
import sys

MODULES = {
    "engine": "bench.engine",
    "legal": "bench.legal_moves",
    "pictures": "bench.pictures",
    "bot": "bench.whole_bot",
    "playouts": "bench.playouts",
    "ai": "bench.ai",
    "soak": "bench.soak",
    "storage": "bench.storage",
    "scale": "bench.scale",
    "competitions": "bench.competitions",
}


def main(argv: list[str]) -> None:
    names = [a for a in argv if a in MODULES]
    options = [a for a in argv if a not in MODULES]
    if not names and options and not options[0].startswith("-"):
        sys.exit(f"unknown benchmark {options[0]!r}; choose from {', '.join(MODULES)}")
    if len(names) != 1 and any(o != "--quick" for o in options):
        sys.exit(
            "options other than --quick apply to one benchmark at a time, e.g. "
            "python -m bench engine --budget 5"
        )
    for name in names or list(MODULES):
        importlib.import_module(MODULES[name]).main(options)


if __name__ == "__main__":
    main(sys.argv[1:])
