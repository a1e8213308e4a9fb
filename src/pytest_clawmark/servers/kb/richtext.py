"""Rich text: Notion's list-of-spans representation of formatted text.

Input is validated and expanded to the full span shape Notion returns (``type``, ``text``,
``annotations``, ``plain_text``, ``href``). Lenient where it costs nothing: a bare string is taken
as one plain span, since agents (and MCP tools that stringify arguments) often send one.
"""

from __future__ import annotations

from typing import Any

from . import limits
from .errors import invalid

MAX_CONTENT = limits.MAX_TEXT_CONTENT
"""Notion's limit on the characters of one text span."""
MAX_SPANS = limits.MAX_ARRAY
"""Notion's limit on spans in one rich-text array."""

COLORS = frozenset(
    ["default", "gray", "brown", "orange", "yellow", "green", "blue", "purple", "pink", "red"]
    + [f"{c}_background" for c in ("gray", "brown", "orange", "yellow", "green", "blue", "purple", "pink", "red")]
)


def is_color(value: Any, *, background: bool = True) -> bool:
    """Whether ``value`` names a Notion color (checked by type first: JSON may send anything)."""
    return isinstance(value, str) and value in COLORS and (background or not value.endswith("_background"))


_FLAGS = ("bold", "italic", "strikethrough", "underline", "code")


def default_annotations() -> dict[str, Any]:
    return {
        "bold": False,
        "italic": False,
        "strikethrough": False,
        "underline": False,
        "code": False,
        "color": "default",
    }


def span(content: str, link: str | None = None, annotations: dict[str, Any] | None = None) -> dict[str, Any]:
    """One full text span."""
    return {
        "type": "text",
        "text": {"content": content, "link": {"url": link} if link else None},
        "annotations": annotations or default_annotations(),
        "plain_text": content,
        "href": link,
    }


def from_plain(text: str) -> list[dict[str, Any]]:
    """Plain text as rich text, split into spans of at most :data:`MAX_CONTENT` characters."""
    return [span(text[i : i + MAX_CONTENT]) for i in range(0, len(text), MAX_CONTENT)]


def plain_text(rich: list[dict[str, Any]] | None) -> str:
    return "".join(s.get("plain_text", "") for s in rich or ())


def parse(value: Any, where: str) -> list[dict[str, Any]]:
    """Validate a rich-text array from a request and return it in full span shape."""
    if isinstance(value, str):
        if len(value) > MAX_CONTENT * MAX_SPANS:
            raise invalid(f"{where} is longer than {MAX_CONTENT * MAX_SPANS} characters.")
        return from_plain(value)
    if not isinstance(value, list):
        raise invalid(f"{where} should be an array of rich text objects, instead was {type_name(value)}.")
    if len(value) > MAX_SPANS:
        raise invalid(f"{where} should have at most {MAX_SPANS} items, instead had {len(value)}.")
    return [_parse_span(item, f"{where}[{i}]") for i, item in enumerate(value)]


def _parse_span(item: Any, where: str) -> dict[str, Any]:
    if isinstance(item, str):
        item = {"text": {"content": item}}
    if not isinstance(item, dict):
        raise invalid(f"{where} should be an object, instead was {type_name(item)}.")
    kind = item.get("type") or next((k for k in ("text", "mention", "equation") if k in item), None)
    annotations = _parse_annotations(item.get("annotations"), f"{where}.annotations")
    if kind == "text":
        text = item.get("text")
        if not isinstance(text, dict) or not isinstance(text.get("content"), str):
            raise invalid(f"{where}.text.content should be a string.")
        content = text["content"]
        if len(content) > MAX_CONTENT:
            raise invalid(f"{where}.text.content.length should be ≤ {MAX_CONTENT}, instead was {len(content)}.")
        link = text.get("link")
        url: str | None = None
        if link is not None:
            if not isinstance(link, dict) or not isinstance(link.get("url"), str):
                raise invalid(f"{where}.text.link should be an object with a url string, or null.")
            url = link["url"]
            if len(url) > limits.MAX_LINK_URL:
                limit = limits.MAX_LINK_URL
                raise invalid(f"{where}.text.link.url.length should be ≤ {limit}, instead was {len(url)}.")
        return span(content, url, annotations)
    if kind == "equation":
        eq = item.get("equation")
        if not isinstance(eq, dict) or not isinstance(eq.get("expression"), str):
            raise invalid(f"{where}.equation.expression should be a string.")
        expr = eq["expression"]
        if len(expr) > limits.MAX_EQUATION:
            limit = limits.MAX_EQUATION
            raise invalid(f"{where}.equation.expression.length should be ≤ {limit}, instead was {len(expr)}.")
        return {
            "type": "equation",
            "equation": {"expression": expr},
            "annotations": annotations,
            "plain_text": expr,
            "href": None,
        }
    if kind == "mention":
        mention = item.get("mention")
        if not isinstance(mention, dict) or not isinstance(mention.get("type", next(iter(mention), None)), str):
            raise invalid(f"{where}.mention should be an object.")
        plain = item.get("plain_text")
        if not isinstance(plain, str):
            plain = _mention_text(mention)
        return {
            "type": "mention",
            "mention": _json_copy(mention, 4),
            "annotations": annotations,
            "plain_text": plain[:MAX_CONTENT],
            "href": None,
        }
    raise invalid(f"{where}.type should be one of text, mention, equation.")


def _mention_text(mention: dict[str, Any]) -> str:
    kind = mention.get("type") or next(iter(mention), "")
    inner = mention.get(kind)
    if isinstance(inner, dict):
        for key in ("name", "start", "id", "url"):
            if isinstance(inner.get(key), str):
                return "@" + inner[key] if kind == "user" else inner[key]
    return ""


def _parse_annotations(value: Any, where: str) -> dict[str, Any]:
    out = default_annotations()
    if value is None:
        return out
    if not isinstance(value, dict):
        raise invalid(f"{where} should be an object.")
    for key, v in value.items():
        if key in _FLAGS:
            if not isinstance(v, bool):
                raise invalid(f"{where}.{key} should be a boolean.")
            out[key] = v
        elif key == "color":
            if not is_color(v):
                raise invalid(f"{where}.color should be a Notion color.")
            out[key] = v
        else:
            raise invalid(f"{where}.{key} is not a valid annotation.")
    return out


def _json_copy(value: Any, depth: int) -> Any:
    """A bounded deep copy of plain JSON (mention payloads are echoed back, never interpreted)."""
    if depth <= 0:
        return None
    if isinstance(value, dict):
        return {str(k): _json_copy(v, depth - 1) for k, v in list(value.items())[:20]}
    if isinstance(value, list):
        return [_json_copy(v, depth - 1) for v in value[:20]]
    if isinstance(value, str):
        return value[:MAX_CONTENT]
    return value


def type_name(value: Any) -> str:
    """The JSON type name of ``value``, for messages like Notion's ("instead was string")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
