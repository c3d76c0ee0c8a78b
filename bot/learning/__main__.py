"""``python -m bot.learning docs``: write the player's rules (``docs/rules``) and their
pictures from the guides of ``/rules`` (see :mod:`bot.learning.docs`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.learning.docs import write_docs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.learning", description=__doc__)
    parser.add_argument("command", choices=["docs"], help="what to write")
    parser.add_argument(
        "--root", type=Path, default=Path("."), help="the repository's top folder (default: here)"
    )
    args = parser.parse_args(argv)
    for path in write_docs(args.root):
        print(path)


if __name__ == "__main__":
    main()
