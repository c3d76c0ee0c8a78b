"""Storage: the connection owner, the migrations, the named queries and the row types.
Only this package knows it is SQLite.

    db = await Database.open("boardbot.sqlite3")
    async with db.transaction() as tx:
        game_id = await queries.insert_game(tx, ...)
"""

from bot.storage import queries
from bot.storage.database import (
    Conflict,
    Database,
    Query,
    Statement,
    Unavailable,
    WriteFailed,
    apply,
)
from bot.storage.rows import (
    AnalysisRow,
    ChallengeRow,
    ClockRow,
    GameRow,
    MoveRow,
    OutboxRow,
    RatingChangeRow,
    RatingRow,
    SandboxRow,
    TakebackRow,
    VacationRow,
)

__all__ = ["AnalysisRow", "ChallengeRow", "ClockRow", "Conflict", "Database", "GameRow",
           "MoveRow", "OutboxRow", "Query", "RatingChangeRow", "RatingRow", "SandboxRow",
           "Statement", "TakebackRow", "Unavailable", "VacationRow", "WriteFailed", "apply",
           "queries"]
