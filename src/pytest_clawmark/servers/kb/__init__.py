"""A Notion-API-compatible knowledge-base server (pages, databases, data sources, blocks,
comments, search, users), serving both the 2022-06-28 and 2025-09-03 dialects.

It knows nothing of pytest or of worlds: :func:`create_app` takes a :class:`KbStore`, the two
tokens and an audit callback; :mod:`pytest_clawmark.world.kb` wires it into a world.
"""

from . import limits
from .app import MAX_BODY, create_app
from .dialects import CURRENT, LEGACY
from .errors import NotionError
from .model import User
from .store import FALLBACK_EPOCH, KbStore

__all__ = ["CURRENT", "FALLBACK_EPOCH", "LEGACY", "MAX_BODY", "KbStore", "NotionError", "User", "create_app", "limits"]
