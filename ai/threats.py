"""Forced wins three plies deep: a look the tree search is too wide to make in time.

A move after which every reply allows a win at once wins by force, and a move
that allows the opponent such a move loses by force. On an open Asli board the
tree would have to prove every one of ~160 replies lost to see either, and a
hard search walked into one four plies deep rather than see it (bench/README.md,
the ninth measurement). The look tries the first move and the winning answers
among :meth:`~rules.position.SearchPosition.tactical_moves` only, but every
reply in between, and it plays every move it counts on: what it finds is
certain. It spends at most a number of plays (one copy and move each); spent,
it says it found nothing, so a short budget can miss a threat, never invent one.
It looks only where the tactical moves are few (:data:`WIDEST`): an opening,
an endgame.
"""

from __future__ import annotations

from rules.position import SearchPosition

#: A position with more tactical moves than this is not looked at: the look costs about
#: their square, and in games of the easy level against itself it found nothing in 489
#: positions with 40 or more (Asli 9 and 13: 0.17-1.0 s of CPU each on a slow host) and
#: 14 forced wins in 371 with fewer (openings, endgames).
WIDEST = 40


class Look:
    """A budget of plays for the look, spent as it goes."""

    __slots__ = ("plays",)

    def __init__(self, plays: int) -> None:
        self.plays = plays

    @property
    def spent(self) -> bool:
        return self.plays <= 0

    def after(self, pos: SearchPosition, move: int) -> SearchPosition:
        """The position after ``move``, one play of the budget."""
        self.plays -= 1
        after = pos.copy()
        after.play(move)
        return after


def win_at_once(pos: SearchPosition, look: Look) -> int | None:
    """A tactical move that wins at once for the player to move, or None."""
    me = pos.to_move
    for move in pos.tactical_moves():
        if look.spent:
            return None
        after = look.after(pos, move)
        if after.is_over and after.winner == me:
            return move
    return None


def forced_win(pos: SearchPosition, look: Look) -> int | None:
    """A tactical move after which every reply allows the player to move a win at
    once (or loses at once), or None where the look found none."""
    me = pos.to_move
    moves = pos.tactical_moves()
    if me is None or len(moves) > WIDEST:
        return None
    # Replies that escaped an earlier try are tried first: one usually escapes them all.
    escapes: list[int] = []
    for move in moves:
        if look.spent:
            return None
        after = look.after(pos, move)
        if after.is_over:
            if after.winner == me:
                return move
            continue
        if after.to_move != me and _every_reply_loses(after, me, escapes, look):
            return move
    return None


def _every_reply_loses(pos: SearchPosition, me: int, escapes: list[int], look: Look) -> bool:
    replies = pos.legal_moves()
    known = set(replies)
    first = [r for r in escapes if r in known]
    tried = set(first)
    ordered = first + [r for r in replies if r not in tried]
    for reply in ordered:
        if look.spent:
            return False
        after = look.after(pos, reply)
        if after.is_over:
            if after.winner == me:
                continue
            return False
        if after.to_move != me or win_at_once(after, look) is None:
            if reply in escapes:
                escapes.remove(reply)
            escapes.insert(0, reply)
            return False
    return True


def forced_winner_after(pos: SearchPosition, move: int, look: Look) -> int | None:
    """The opponent, where ``move`` lets them win by force three plies on (as far as
    the look sees); else None."""
    after = look.after(pos, move)
    if after.is_over or after.to_move == pos.to_move:
        return None
    return after.to_move if forced_win(after, look) is not None else None
