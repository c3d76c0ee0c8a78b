"""Every named query of the bot, in one namespace: ``queries.get_game(conn, 12)``.

One module per table (or group of tables); each query takes the handle that
``Database.transaction()`` (writes) or ``Database.reading()`` (reads) gives out.
The ``*_statement`` functions prepare writes for ``Database.write`` or ``apply``
(several in one transaction, in one hop), and the ones made with ``@query`` prepare
reads for ``Database.read``.
"""

from __future__ import annotations

from bot.storage.queries.buttons import (
    add_button_post_statement,
    button_posts_of_ended_games,
    button_posts_of_game,
    drop_button_post_statement,
)
from bot.storage.queries.challenges import (
    close_challenge,
    find_pending_challenge,
    get_challenge,
    insert_challenge,
    oldest_pending_challenge,
    pending_challenges_created_by,
    set_challenge_message,
)
from bot.storage.queries.clocks import (
    active_games_without_clock,
    add_clocks,
    clock_and_vacations,
    clocks_due,
    clocks_of_member,
    get_clock,
    next_due,
    save_clock_statement,
)
from bot.storage.queries.games import (
    active_games,
    active_games_with_moves,
    finish_game_statement,
    game_by_id,
    game_in_thread,
    games_of_member,
    get_game,
    insert_game,
    recent_games,
    set_game_thread_statement,
    set_last_message_statement,
)
from bot.storage.queries.learning import (
    analyses_of_game,
    games_to_analyse,
    get_sandbox,
    insert_sandbox_statements,
    latest_sandbox,
    save_analysis_statement,
    set_sandbox_moves_statement,
)
from bot.storage.queries.members import (
    all_vacations,
    digests_due,
    get_notify,
    insert_vacation,
    member_settings,
    set_confirm_moves_statement,
    set_digest_due,
    set_notify,
    set_theme_statement,
    set_vacation_end,
    vacations_of,
    vacations_of_members,
)
from bot.storage.queries.moves import (
    delete_last_move,
    insert_move_statement,
    moves_of_game,
    set_move_message_statement,
)
from bot.storage.queries.outbox import (
    outbox_attempt_statement,
    outbox_closed_statement,
    outbox_item_statement,
    outbox_result_statement,
    pending_lanes,
    pending_outbox,
    prune_outbox_statement,
)
from bot.storage.queries.ratings import (
    get_rating,
    get_rating_change,
    insert_rating_change,
    leaderboard,
    ratings_of_member,
    save_rating,
)
from bot.storage.queries.takebacks import (
    answer_takeback,
    get_takeback,
    insert_takeback,
    takebacks_of_ply,
)

__all__ = [
    "active_games",
    "active_games_with_moves",
    "active_games_without_clock",
    "add_button_post_statement",
    "add_clocks",
    "all_vacations",
    "analyses_of_game",
    "answer_takeback",
    "button_posts_of_ended_games",
    "button_posts_of_game",
    "clock_and_vacations",
    "clocks_due",
    "clocks_of_member",
    "close_challenge",
    "delete_last_move",
    "digests_due",
    "drop_button_post_statement",
    "find_pending_challenge",
    "finish_game_statement",
    "game_by_id",
    "game_in_thread",
    "games_of_member",
    "games_to_analyse",
    "get_challenge",
    "get_clock",
    "get_game",
    "get_notify",
    "get_rating",
    "get_rating_change",
    "get_sandbox",
    "get_takeback",
    "insert_challenge",
    "insert_game",
    "insert_move_statement",
    "insert_rating_change",
    "insert_sandbox_statements",
    "insert_takeback",
    "insert_vacation",
    "latest_sandbox",
    "leaderboard",
    "member_settings",
    "moves_of_game",
    "next_due",
    "oldest_pending_challenge",
    "outbox_attempt_statement",
    "outbox_closed_statement",
    "outbox_item_statement",
    "outbox_result_statement",
    "pending_challenges_created_by",
    "pending_lanes",
    "pending_outbox",
    "prune_outbox_statement",
    "ratings_of_member",
    "recent_games",
    "save_analysis_statement",
    "save_clock_statement",
    "save_rating",
    "set_challenge_message",
    "set_confirm_moves_statement",
    "set_digest_due",
    "set_game_thread_statement",
    "set_last_message_statement",
    "set_move_message_statement",
    "set_notify",
    "set_sandbox_moves_statement",
    "set_theme_statement",
    "set_vacation_end",
    "takebacks_of_ply",
    "vacations_of",
    "vacations_of_members",
]
