"""A loopback fake of Discord (REST API v10 and gateway) for end-to-end tests.

See ``fake.FakeDiscord`` for the test API, and ``client.point_discord_py_at``
for pointing an in-process discord.py client at it."""

from .fake import FakeDiscord, Fault, RequestRecord
from .interactions import Interaction, text_inputs
from .models import Attachment, Channel, Guild, Member, Message, User

__all__ = [
    "Attachment",
    "Channel",
    "FakeDiscord",
    "Fault",
    "Guild",
    "Interaction",
    "Member",
    "Message",
    "RequestRecord",
    "User",
    "text_inputs",
]
