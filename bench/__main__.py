"""``python -m bench [NAME ...] [--quick]``: run the benchmarks and print tables.

Names: engine, legal, pictures, bot (all of them when none is given).
"""

from __future__ import annotations

import importlib
import sys

MODULES = {"engine": "bench.engine", "legal": "bench.legal_moves",
           "pictures": "bench.pictures", "bot": "bench.whole_bot"}


def main(argv: list[str]) -> None:
    flags = [a for a in argv if a.startswith("-")]
    names = [a for a in argv if not a.startswith("-")] or list(MODULES)
    unknown = [n for n in names if n not in MODULES]
    if unknown:
        sys.exit(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(MODULES)}")
    for name in names:
        importlib.import_module(MODULES[name]).main(flags)


if __name__ == "__main__":
    main(sys.argv[1:])
