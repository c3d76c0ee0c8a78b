"""SQLite storage: the connection owner, the migrations, named queries and row types.

    db = await Database.open("boardbot.sqlite3")
    async with db.transaction() as tx:
        game_id = await queries.insert_game(tx, ...)
"""

from bot.storage import queries
from bot.storage.database import Database
from bot.storage.models import ChallengeRow, GameRow, MoveRow

__all__ = ["ChallengeRow", "Database", "GameRow", "MoveRow", "queries"]
