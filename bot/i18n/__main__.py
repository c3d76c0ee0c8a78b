"""The translators' tools:

    python -m bot.i18n extract          # the keys of the sources and commands, merged
    python -m bot.i18n missing [LOCALE] # what each language lacks (exit 1 when any)

``extract`` reads the commands' strings from the bot's command tree as a test does: it
loads the composed client by name (the tool runs beside the bot, not in it)."""

from __future__ import annotations

import asyncio
import importlib
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.i18n import LOCALES
from bot.i18n.tools import extract, problems, template_path, update


async def command_texts() -> list[tuple[str, str]]:
    """(context, text) of every command, option and choice of the bot's tree."""
    client = importlib.import_module("bot.client")
    config = importlib.import_module("bot.config")
    translator = importlib.import_module("bot.ui.translator")
    with tempfile.TemporaryDirectory() as folder:
        settings = config.Settings(token="x.y.z", database_path=Path(folder) / "unused.db")
        bot: Any = client.BoardBot(settings)
        try:
            await bot.load_areas()
            texts: list[tuple[str, str]] = await translator.command_texts(bot.tree)
        finally:
            await bot.close()
    return texts


def main(argv: list[str]) -> int:
    if argv[:1] == ["extract"] and len(argv) == 1:
        template = extract(asyncio.run(command_texts()))
        written = update(template)
        print(f"{len(template)} keys in {template_path()}; merged into {', '.join(written)}")
        return 0
    if argv[:1] == ["missing"] and len(argv) <= 2:
        locales = argv[1:] or list(LOCALES[1:])
        unknown = [code for code in locales if code not in LOCALES]
        if unknown:
            print(f"no such catalogue: {', '.join(unknown)} (there are {', '.join(LOCALES)})")
            return 2
        total = 0
        for locale in locales:
            found = problems(locale)
            for problem in found:
                print(problem)
            print(f"{locale}: {len(found)} to do")
            total += len(found)
        return 1 if total else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
