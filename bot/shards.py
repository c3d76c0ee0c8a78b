"""Which servers this process serves, among the bot processes sharing one database.

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count``, so a
process started on some shards (``SHARD_COUNT``, ``SHARD_IDS``) serves only their
servers. What a process takes up by itself at start-up (the bot's owed moves in
practice games, analyses left half-way, the buttons of games that ended while it was
down) is of its own servers only: the process holding a server's shard is the one its
members wait for, and no two processes start the same work.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Shards:
    """This process's shards: ``ids`` of ``count`` (None: not sharded, or every shard)."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    @property
    def everything(self) -> bool:
        return self.count is None or self.ids is None

    def holds(self, guild_id: int) -> bool:
        """Whether the server's events come to this process."""
        return self.everything or shard_of(guild_id, self.count or 1) in (self.ids or ())

    @property
    def name(self) -> str:
        """This process to the others, the same after a restart: ``"shards 0,1 of 4"``."""
        if self.everything:
            return "every shard"
        return f"shards {','.join(map(str, self.ids or ()))} of {self.count}"


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord gives a server's events to."""
    return (guild_id >> 22) % count


#: A process that serves every server (one process, or not sharded).
EVERY_SHARD = Shards()
