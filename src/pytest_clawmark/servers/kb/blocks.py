"""Page content: block validation, block updates, and Markdown in and out.

Blocks are validated into :class:`NewBlock` trees before anything is stored, so an append with
one bad child leaves the page as it was. Markdown is supported both ways with a deliberately
small line-based dialect (headings, lists, to-dos, quotes, code fences, dividers): turn setup
writes pages in it, the ``/markdown`` endpoints speak it, and checkers read pages as text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import limits, richtext
from .errors import invalid
from .icons import parse_icon
from .properties import copy_json
from .richtext import type_name

TEXT_TYPES = (
    "paragraph",
    "heading_1",
    "heading_2",
    "heading_3",
    "bulleted_list_item",
    "numbered_list_item",
    "to_do",
    "toggle",
    "quote",
    "callout",
    "code",
)
BLOCK_TYPES = (*TEXT_TYPES, "divider")
MAX_CHILDREN = limits.MAX_ARRAY
"""Notion's limit on blocks in one ``children`` array."""
MAX_NESTING = limits.MAX_NESTING
"""Levels of ``children`` one request may nest (Notion allows two; bounded for safety)."""


def count_blocks(blocks: list[NewBlock]) -> int:
    """Blocks in a tree, nested ones included."""
    total = 0
    stack = list(blocks)
    while stack:
        block = stack.pop()
        total += 1
        stack.extend(block.children)
    return total


def check_block_count(blocks: list[NewBlock], where: str) -> list[NewBlock]:
    """``blocks``, unless they are more than one request may create (Notion: 1,000 block elements)."""
    count = count_blocks(blocks)
    if count > limits.MAX_BLOCKS_PER_REQUEST:
        raise invalid(
            f"{where} would create {count} blocks; one request may create at most {limits.MAX_BLOCKS_PER_REQUEST}."
        )
    return blocks


@dataclass
class NewBlock:
    """A validated block from a request, not yet stored."""

    type: str
    data: dict[str, Any]
    children: list[NewBlock] = field(default_factory=list)


def parse_children(raw: Any, where: str, depth: int = 0) -> list[NewBlock]:
    """Validate a ``children`` array."""
    if isinstance(raw, str):
        raw = _maybe_json(raw)
    if not isinstance(raw, list):
        raise invalid(f"{where} should be an array of block objects, instead was {type_name(raw)}.")
    if len(raw) > MAX_CHILDREN:
        raise invalid(f"{where}.length should be ≤ {MAX_CHILDREN}, instead was {len(raw)}.")
    return [parse_block(item, f"{where}[{i}]", depth) for i, item in enumerate(raw)]


def parse_block(raw: Any, where: str, depth: int = 0) -> NewBlock:
    if isinstance(raw, str):
        parsed = _maybe_json(raw)
        # Lenient: some MCP tool schemas declare children as strings; plain text is a paragraph.
        raw = (
            parsed
            if isinstance(parsed, dict)
            else {"paragraph": {"rich_text": richtext.from_plain(raw[: richtext.MAX_CONTENT * 100])}}
        )
    if not isinstance(raw, dict):
        raise invalid(f"{where} should be a block object, instead was {type_name(raw)}.")
    kind = raw.get("type")
    if kind is None:
        present = [k for k in raw if k in BLOCK_TYPES]
        kind = present[0] if len(present) == 1 else None
        if kind is None:
            raise invalid(f"{where} should have a block type, one of: {', '.join(BLOCK_TYPES)}.")
    if kind not in BLOCK_TYPES:
        raise invalid(f"{where}.type {kind!r} is not supported by this server (supported: {', '.join(BLOCK_TYPES)}).")
    inner = raw.get(kind, {})
    if inner is None:
        inner = {}
    if not isinstance(inner, dict):
        raise invalid(f"{where}.{kind} should be an object, instead was {type_name(inner)}.")
    data = _content(kind, inner, {}, f"{where}.{kind}")
    children_raw = inner.get("children", raw.get("children"))
    children: list[NewBlock] = []
    if children_raw is not None:
        if kind == "divider":
            raise invalid(f"{where}: divider blocks cannot have children.")
        if depth + 1 >= MAX_NESTING:
            raise invalid(f"{where}.children nests blocks deeper than {MAX_NESTING} levels in one request.")
        children = parse_children(children_raw, f"{where}.{kind}.children", depth + 1)
    return NewBlock(kind, data, children)


def update_content(kind: str, current: dict[str, Any], patch: Any, where: str) -> dict[str, Any]:
    """New block content after a ``PATCH /v1/blocks/{id}`` with ``{kind: patch}``."""
    if not isinstance(patch, dict):
        raise invalid(f"{where} should be an object, instead was {type_name(patch)}.")
    if "children" in patch:
        raise invalid(f"{where}.children cannot be updated here; use PATCH /v1/blocks/{{id}}/children.")
    return _content(kind, patch, current, where)


def _content(kind: str, inner: dict[str, Any], current: dict[str, Any], where: str) -> dict[str, Any]:
    unknown = sorted(set(inner) - _FIELDS.get(kind, set()) - {"children"})
    if unknown:
        raise invalid(f"{where}.{unknown[0]} is not a field of {kind} blocks.")
    if kind == "divider":
        return {}
    data = copy_json(current) if current else {"rich_text": [], "color": "default"}
    if "rich_text" in inner or "text" in inner:
        data["rich_text"] = richtext.parse(inner.get("rich_text", inner.get("text")), f"{where}.rich_text")
    if "color" in inner:
        if not richtext.is_color(inner["color"]):
            raise invalid(f"{where}.color should be a Notion color.")
        data["color"] = inner["color"]
    if kind == "to_do":
        checked = inner.get("checked", data.get("checked", False))
        if not isinstance(checked, bool):
            raise invalid(f"{where}.checked should be a boolean.")
        data["checked"] = checked
    if kind.startswith("heading_"):
        toggle = inner.get("is_toggleable", data.get("is_toggleable", False))
        if not isinstance(toggle, bool):
            raise invalid(f"{where}.is_toggleable should be a boolean.")
        data["is_toggleable"] = toggle
    if kind == "code":
        language = inner.get("language", data.get("language", "plain text"))
        if not isinstance(language, str) or len(language) > 40:
            raise invalid(f"{where}.language should be a language name.")
        data["language"] = language
        data["caption"] = (
            richtext.parse(inner["caption"], f"{where}.caption") if "caption" in inner else data.get("caption", [])
        )
    if kind == "callout":
        if "icon" in inner:
            data["icon"] = parse_icon(inner["icon"], f"{where}.icon")
        elif "icon" not in data:
            data["icon"] = {"type": "emoji", "emoji": "💡"}
    return data


_COMMON = {"rich_text", "text", "color"}
_FIELDS: dict[str, set[str]] = {kind: set(_COMMON) for kind in TEXT_TYPES}
_FIELDS["to_do"] |= {"checked"}
_FIELDS["code"] |= {"language", "caption"}
_FIELDS["callout"] |= {"icon"}
for _level in (1, 2, 3):
    _FIELDS[f"heading_{_level}"] |= {"is_toggleable"}
_FIELDS["divider"] = set()


def _maybe_json(text: str) -> Any:
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            return json.loads(stripped)
        except ValueError:
            return text
    return text


# -- Markdown in -----------------------------------------------------------------------------
_NUMBERED = re.compile(r"^(\d{1,9})[.)]\s+(.*)$")
_TODO = re.compile(r"^[-*+]?\s*\[( |x|X)\]\s+(.*)$")


def from_markdown(text: str) -> list[NewBlock]:
    """Blocks from the small Markdown dialect (one block per line; indented list items nest)."""
    top: list[NewBlock] = []
    stack: list[tuple[int, NewBlock]] = []  # (indent, list block) of the current list nesting
    lines = text.replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip():
            stack.clear()
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        body = line.strip()
        if body.startswith("```"):
            language = body[3:].strip() or "plain text"
            code: list[str] = []
            while i < len(lines) and not lines[i].strip().startswith("```"):
                code.append(lines[i])
                i += 1
            i += 1
            _place(top, stack, indent, _text_block("code", "\n".join(code), language=language), is_list=False)
            continue
        block, is_list = _line_block(body)
        _place(top, stack, indent, block, is_list)
    return top


def _line_block(body: str) -> tuple[NewBlock, bool]:
    for level in (3, 2, 1):
        prefix = "#" * level + " "
        if body.startswith(prefix):
            return _text_block(f"heading_{level}", body[len(prefix) :].strip()), False
    if body in ("---", "***", "___"):
        return NewBlock("divider", {}), False
    todo = _TODO.match(body)
    if todo and (body[0] in "-*+["):
        return _text_block("to_do", todo.group(2), checked=todo.group(1) != " "), True
    if body[:2] in ("- ", "* ", "+ "):
        return _text_block("bulleted_list_item", body[2:].strip()), True
    numbered = _NUMBERED.match(body)
    if numbered:
        return _text_block("numbered_list_item", numbered.group(2)), True
    if body.startswith(">"):
        return _text_block("quote", body[1:].strip()), False
    return _text_block("paragraph", body), False


def _place(top: list[NewBlock], stack: list[tuple[int, NewBlock]], indent: int, block: NewBlock, is_list: bool) -> None:
    while stack and stack[-1][0] >= indent:
        stack.pop()
    if stack and len(stack) < MAX_NESTING:
        stack[-1][1].children.append(block)
    else:
        top.append(block)
    if is_list:
        stack.append((indent, block))


def _text_block(kind: str, text: str, **extra: Any) -> NewBlock:
    data: dict[str, Any] = {"rich_text": richtext.from_plain(text), "color": "default"}
    if kind.startswith("heading_"):
        data["is_toggleable"] = False
    if kind == "to_do":
        data["checked"] = bool(extra.get("checked"))
    if kind == "code":
        data["language"] = extra.get("language", "plain text")
        data["caption"] = []
    return NewBlock(kind, data)


# -- Markdown / text out ---------------------------------------------------------------------
Resolve = Callable[[str], "tuple[str, dict[str, Any], list[str]] | None"]
"""id → (type, content, child ids), or None for ids that are gone or in the trash."""


def to_markdown(child_ids: list[str], resolve: Resolve, *, links: bool = True, depth: int = 0) -> Iterator[str]:
    """Markdown lines of a block tree (children indented two spaces per level)."""
    number = 0
    for block_id in child_ids:
        resolved = resolve(block_id)
        if resolved is None:
            continue
        kind, data, children = resolved
        number = number + 1 if kind == "numbered_list_item" else 0
        pad = "  " * depth
        text = _inline(data.get("rich_text") or [], links)
        if kind == "code":
            yield f"{pad}```{data.get('language', '')}"
            for code_line in richtext.plain_text(data.get("rich_text")).split("\n"):
                yield pad + code_line
            yield f"{pad}```"
        else:
            yield pad + _prefix(kind, data, number, block_id, links) + text
        if children and depth < 16:
            yield from to_markdown(children, resolve, links=links, depth=depth + 1)


def _prefix(kind: str, data: dict[str, Any], number: int, block_id: str, links: bool) -> str:
    if kind.startswith("heading_"):
        return "#" * int(kind[-1]) + " "
    if kind == "bulleted_list_item" or kind == "toggle":
        return "- "
    if kind == "numbered_list_item":
        return f"{number}. "
    if kind == "to_do":
        return "- [x] " if data.get("checked") else "- [ ] "
    if kind == "quote":
        return "> "
    if kind == "callout":
        icon = (data.get("icon") or {}).get("emoji") or ""
        return f"> {icon} " if icon else "> "
    if kind == "divider":
        return "---"
    if kind in ("child_page", "child_database"):
        title = data.get("title", "")
        return f"[{title}](https://www.notion.so/{block_id.replace('-', '')})" if links else title
    return ""


def _inline(spans: list[dict[str, Any]], links: bool) -> str:
    out = []
    for s in spans:
        text = s.get("plain_text", "")
        href = s.get("href")
        out.append(f"[{text}]({href})" if links and href else text)
    return "".join(out)
