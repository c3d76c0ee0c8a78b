"""Looking back: the move browser, animated replays, game records (export and
import), and the epilogue of a finished game; ``/review``, ``/replay``, ``/export``,
``/import`` and the browser's buttons."""
