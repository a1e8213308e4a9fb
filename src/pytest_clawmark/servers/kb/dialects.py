"""The two API dialects, chosen per request by the ``Notion-Version`` header.

* ``2022-06-28`` (and older dates): a database *is* its table — it carries ``properties``, is
  queried at ``/v1/databases/{id}/query``, and rows have ``{"database_id": ...}`` parents.
* ``2025-09-03`` (and newer dates, e.g. ``2026-03-11`` sent by the MCP server's Markdown tools):
  a database lists ``data_sources``; schema and query live at ``/v1/data_sources/{id}``; rows
  have ``{"data_source_id", "database_id"}`` parents; search returns data sources.

The store is the same for both; only parsing of parents and rendering differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import NotionError

LEGACY = "2022-06-28"
CURRENT = "2025-09-03"
SUPPORTED = (LEGACY, CURRENT)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Dialect:
    version: str

    @property
    def data_sources(self) -> bool:
        """True when databases are containers of data sources (2025-09-03 and later)."""
        return self.version >= CURRENT


def parse_version(header: str | None) -> Dialect:
    if header is None or not header.strip():
        raise NotionError(
            400,
            "missing_version",
            "Notion-Version header failed validation: Notion-Version header should be defined, instead was "
            f"`undefined`. Supported versions: {', '.join(SUPPORTED)}.",
        )
    version = header.strip()
    if not _DATE.match(version) or version < "2021-05-13":
        raise NotionError(
            400,
            "validation_error",
            f"Notion-Version header failed validation: {version!r} is not a supported version "
            f"(use {LEGACY} or {CURRENT}).",
        )
    return Dialect(version)
