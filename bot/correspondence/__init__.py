"""Correspondence play: clocks and time controls, vacations, notifications, takebacks,
aborts and the games waiting for a member; ``/myturn``, ``/takeback``, ``/abort``,
``/vacation``, ``/notify`` and the takeback buttons."""
