"""Storage: the database (SQLite or PostgreSQL), the migrations, the named queries and
the row types. Only this package knows which database it is.

    db = await open_database("sqlite:///boardbot.sqlite3")  # or "postgresql://…"
    async with db.transaction() as tx:
        game_id = await queries.insert_game(tx, ...)
"""

from bot.storage import queries
from bot.storage.backends import open_database
from bot.storage.database import (
    Conflict,
    Connection,
    Database,
    Query,
    Statement,
    Unavailable,
    apply,
)
from bot.storage.rows import (
    ChallengeRow,
    ClockRow,
    GameRow,
    MoveRow,
    RatingChangeRow,
    RatingRow,
    TakebackRow,
    VacationRow,
)

__all__ = ["ChallengeRow", "ClockRow", "Conflict", "Connection", "Database", "GameRow",
           "MoveRow", "Query", "RatingChangeRow", "RatingRow", "Statement", "TakebackRow",
           "Unavailable", "VacationRow", "apply", "open_database", "queries"]
