"""Errors in the Notion API's own shape.

Why one exception type: every layer (parsing, validation, lookups) raises :class:`NotionError`
and the app turns it into ``{"object": "error", "status", "code", "message"}`` — the body that
official clients (notion-client, @notionhq/client, the Notion MCP server) know how to surface.
Raising before any mutation is how a bad request leaves the state untouched.
"""

from __future__ import annotations

from typing import Any

MAX_MESSAGE = 1000
"""Longest error message: they quote the offending input, which is bounded only by the body limit;
each refusal is also kept in the audit log."""


class NotionError(Exception):
    """A request the API refuses, with the HTTP status and Notion error code to answer with."""

    def __init__(self, status: int, code: str, message: str) -> None:
        if len(message) > MAX_MESSAGE:  # messages quote the input, which may be up to the body limit
            message = message[: MAX_MESSAGE - 1] + "…"
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"object": "error", "status": self.status, "code": self.code, "message": self.message}


def invalid(message: str) -> NotionError:
    """400 ``validation_error``: the body, query or path does not match what the endpoint takes."""
    return NotionError(400, "validation_error", message)


def not_found(kind: str, object_id: str) -> NotionError:
    """404 ``object_not_found``, worded like Notion so agents recognise it."""
    return NotionError(
        404,
        "object_not_found",
        f"Could not find {kind} with ID: {object_id}. "
        "Make sure the relevant pages and databases are shared with your integration.",
    )


def in_trash(kind: str, object_id: str) -> NotionError:
    """Editing something in the trash is refused until it is restored (as Notion does)."""
    return invalid(f"Can't edit {kind} {object_id} because it is in the trash. Restore it first (in_trash: false).")
