"""``python -m bot``: start the bot."""

import os
import sys

from dotenv import load_dotenv


def main() -> int:
    load_dotenv()
    if not os.environ.get("DISCORD_TOKEN", "").strip():
        print("error: DISCORD_TOKEN is not set (put it in the environment or in .env; "
              "see .env.example)", file=sys.stderr)
        return 2
    print("error: the bot itself is not built yet", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
