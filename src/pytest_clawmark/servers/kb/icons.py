"""Icons and covers: Notion's emoji and external file objects, validated and normalised.

Why strict: an icon is stored and echoed on every read of its page, database or callout block;
an arbitrary object stored there (any size, any number inside) used to be kept as it came. Only
the two shapes an agent can create are taken (file uploads are not supported here), and only
their own fields are kept.
"""

from __future__ import annotations

from typing import Any

from . import limits
from .errors import invalid

__all__ = ["parse_icon"]


def parse_icon(raw: Any, where: str) -> dict[str, Any] | None:
    """``{"type": "emoji", "emoji": ...}``, ``{"type": "external", "external": {"url": ...}}`` or None."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise invalid(f"{where} should be an object or null.")
    kind = raw.get("type") or next((k for k in ("emoji", "external") if k in raw), None)
    emoji = raw.get("emoji")
    if kind == "emoji" and isinstance(emoji, str) and 0 < len(emoji) <= limits.MAX_EMOJI:
        return {"type": "emoji", "emoji": emoji}
    external = raw.get("external")
    if kind == "external" and isinstance(external, dict) and isinstance(external.get("url"), str):
        url = external["url"]
        if not url or len(url) > limits.MAX_URL:
            raise invalid(f"{where}.external.url should be a URL of at most {limits.MAX_URL} characters.")
        return {"type": "external", "external": {"url": url}}
    raise invalid(
        f'{where} should be {{"type": "emoji", "emoji": "..."}} or '
        '{"type": "external", "external": {"url": "..."}}.'
    )
