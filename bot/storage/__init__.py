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
    ReadFailed,
    Statement,
    Unavailable,
    WriteFailed,
    apply,
)
from bot.storage.rows import (
    AnalysisRow,
    ChallengeRow,
    ClockRow,
    EntrantRow,
    GameRow,
    LadderChallengeRow,
    LadderRow,
    LeagueRow,
    MoveRow,
    OutboxRow,
    PlanRow,
    ProcessRow,
    RatingChangeRow,
    RatingRow,
    RungRow,
    SandboxRow,
    SeekPostRow,
    SeekRow,
    TakebackRow,
    TournamentGameRow,
    TournamentRow,
    VacationRow,
)

__all__ = [
    "AnalysisRow",
    "ChallengeRow",
    "ClockRow",
    "Conflict",
    "Connection",
    "Database",
    "EntrantRow",
    "GameRow",
    "LadderChallengeRow",
    "LadderRow",
    "LeagueRow",
    "MoveRow",
    "OutboxRow",
    "PlanRow",
    "ProcessRow",
    "Query",
    "RatingChangeRow",
    "RatingRow",
    "ReadFailed",
    "RungRow",
    "SandboxRow",
    "SeekPostRow",
    "SeekRow",
    "Statement",
    "TakebackRow",
    "TournamentGameRow",
    "TournamentRow",
    "Unavailable",
    "VacationRow",
    "WriteFailed",
    "apply",
    "open_database",
    "queries",
]
