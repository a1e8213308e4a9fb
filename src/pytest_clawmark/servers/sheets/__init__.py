"""A Google-Sheets-API-v4-compatible server (plus the Drive v3 files endpoints it needs).

It knows nothing of pytest: :func:`create_app` takes tokens, an audit sink and a clock, and
returns a :class:`SheetsServer` whose ``.app`` is a plain ASGI app. The harness's admin client
lives in :mod:`pytest_clawmark.world.sheets`; client helpers for agents and reference
solutions (gspread, google-api-python-client pointed at this server) in :mod:`.clients`.
"""

from .app import SheetsConfig, SheetsServer, create_app
from .drive import Owner

__all__ = ["Owner", "SheetsConfig", "SheetsServer", "create_app"]
