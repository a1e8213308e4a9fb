"""Google API errors: one exception type that every layer raises and the app renders.

Why one type: the Sheets and Drive clients (gspread, google-api-python-client, agents' own
code) parse ``{"error": {"code", "message", "status"}}``; raising :class:`ApiError` anywhere in
the store or the request handlers is the only way to answer with an error, so every failure
reaches the agent in Google's shape and never as a stack trace.
"""

from __future__ import annotations

import json
from typing import Any

_STATUS_BY_CODE = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",  # not a google.rpc code; only for wrong HTTP verbs on a known path
    409: "ALREADY_EXISTS",
    408: "DEADLINE_EXCEEDED",
    413: "INVALID_ARGUMENT",
    414: "INVALID_ARGUMENT",
    431: "INVALID_ARGUMENT",
    500: "INTERNAL",
    501: "UNIMPLEMENTED",
}

_DRIVE_REASON_BY_CODE = {
    400: "invalid",
    401: "authError",
    403: "forbidden",
    404: "notFound",
    500: "internalError",
    501: "notImplemented",
}


class ApiError(Exception):
    """A request the API refuses. ``status`` is the google.rpc status name for ``code``."""

    def __init__(
        self,
        code: int,
        message: str,
        status: str | None = None,
        *,
        location: str | None = None,
        drive: bool = False,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or _STATUS_BY_CODE.get(code, "UNKNOWN")
        self.location = location
        self.drive = drive
        self.reason = reason  # Drive's ``errors[].reason`` when it is not the code's usual one

    def to_json(self) -> dict[str, Any]:
        """The error body. Drive v3 answers also carry the legacy ``errors`` list its clients read."""
        body: dict[str, Any] = {"code": self.code, "message": self.message, "status": self.status}
        if self.drive:
            detail: dict[str, Any] = {
                "message": self.message,
                "domain": "global",
                "reason": self.reason or _DRIVE_REASON_BY_CODE.get(self.code, "error"),
            }
            if self.location:
                detail.update(location=self.location, locationType="parameter")
            body["errors"] = [detail]
        return {"error": body}


def google_error_body(status: int, message: str) -> tuple[str, bytes]:
    """Google's error document for a refusal made below the API (HTTP framing, head size, timeouts),
    so that even a request uvicorn cannot parse is answered in the shape every Google client reads."""
    return "application/json; charset=UTF-8", json.dumps(ApiError(status, message).to_json()).encode("utf-8")


def invalid(message: str, **kw: Any) -> ApiError:
    return ApiError(400, message, **kw)


def not_found(message: str = "Requested entity was not found.", **kw: Any) -> ApiError:
    return ApiError(404, message, **kw)


def unimplemented(message: str, **kw: Any) -> ApiError:
    return ApiError(501, message, **kw)
