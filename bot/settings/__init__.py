"""A member's own settings: the theme of the pictures they look at, whether ``/move``
asks them to confirm, and how they hear of their turn; ``/settings``."""
