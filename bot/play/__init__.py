"""Playing: finding games and their positions, moves, endings, board posts, and
autocomplete; ``/move``, ``/resign``, ``/board``, ``/games``, ``/rules`` and the
decision buttons."""
