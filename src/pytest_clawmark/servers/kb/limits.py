"""Every limit of the kb (Notion-compatible) server, in one place.

Why limits: the agent under test is untrusted code; the kb runs on the world's event loop, which
the other services and the harness's admin plane share, and the harness snapshots the whole
workspace after every turn. Each limit bounds one request's cost or the stored state's size.

The values are Notion's documented request limits where Notion documents one
(https://developers.notion.com/reference/request-limits: "payloads have a maximum size of 500KB
and a maximum of 1000 block elements"; rich text 2,000 characters per text object, link URLs
2,000, equations 1,000; arrays 100 elements; URLs 2,000, e-mails 200, phone numbers 200;
multi-select 100 options, people 100 users). Over a limit the agent gets Notion's error shape:
``{"object": "error", "status": 400|413|431|408, "code": "validation_error"|..., "message": ...}``.
"""

from __future__ import annotations

# -- HTTP ------------------------------------------------------------------------------------------
MAX_BODY_BYTES = 500 * 1000
"""Largest agent request body (413, refused as it streams in): Notion's 500 KB payload limit."""

MAX_ADMIN_BODY_BYTES = 64 * 1024 * 1024
"""Largest admin-plane body (restoring a snapshot of a workspace filled to its quota)."""

MAX_HEADER_BYTES = 32 * 1024
"""All request headers together (431). nginx allows 8 KiB a header line by default; uvicorn's
parser (h11) refuses an unfinished request head beyond :data:`MAX_INCOMPLETE_HEAD_BYTES`."""

MAX_INCOMPLETE_HEAD_BYTES = 64 * 1024
"""What the HTTP parser buffers while a request head is incomplete (431 in Notion's shape above)."""

BODY_TIMEOUT_S = 10.0
"""Seconds to wait for the rest of an announced body (408): a client that stops sending would
otherwise hold its request open forever (uvicorn has no body timeout of its own)."""

HEAD_TIMEOUT_S = 10.0
"""Seconds a connection may take to send a complete request head once it started one (408)."""

# -- JSON ------------------------------------------------------------------------------------------
MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects in a body (400). The deepest Notion request (children
nested two levels, each with rich text and links, or a compound filter) nests about 15 levels."""

MAX_INTEGER_DIGITS = 19
"""Longest integer literal (400 ``validation_error``): nothing in the API needs more than 64 bits;
Python's ``int()`` is quadratic in the digits and refuses beyond 4,300 anyway."""

# Non-finite numbers (``1e999999`` parses as infinity) are refused (400 ``validation_error``); the
# ``NaN`` / ``Infinity`` literals are not JSON at all (400 ``invalid_json``). An infinity stored in
# an icon used to make every later read of the page, and every snapshot, fail with 500.

# -- content ---------------------------------------------------------------------------------------
MAX_TEXT_CONTENT = 2000
"""Characters of one rich-text span's ``text.content`` (and of a plain-text value): Notion's limit."""

MAX_LINK_URL = 2000
"""Characters of a rich-text link URL: Notion's limit."""

MAX_EQUATION = 1000
"""Characters of an equation expression: Notion's limit."""

MAX_ARRAY = 100
"""Elements of any array in a request (rich-text spans, block children, options, filter and sort
lists, content updates): Notion's limit."""

MAX_BLOCKS_PER_REQUEST = 1000
"""Block elements one request may create, nested ones and Markdown-made ones included: Notion's limit."""

MAX_NESTING = 3
"""Levels of ``children`` one request may nest (Notion allows two below the top level)."""

MAX_URL = 2000
"""Characters of a ``url`` property value: Notion's limit."""

MAX_EMAIL = 200
"""Characters of an ``email`` property value: Notion's limit."""

MAX_PHONE = 200
"""Characters of a ``phone_number`` property value: Notion's limit."""

MAX_EMOJI = 32
"""Characters of an emoji icon (one emoji, however many code points its sequence takes)."""

MAX_OPTIONS = 100
"""Options of a multi-select value (and of a select/status schema): Notion's limit."""

MAX_PEOPLE = 100
"""Users in a people value: Notion's limit."""

MAX_NAME = 100
"""Characters of a property or option name (Notion does not document one; its UI truncates long names)."""

MAX_PROPERTIES = 200
"""Properties of one data source (Notion recommends keeping schemas under 50 KB)."""

MAX_MARKDOWN_CHARS = 200_000
"""Characters of a page's Markdown after a ``/markdown`` edit."""

MAX_SEARCH_QUERY = 2000
"""Characters of a search query."""

MAX_PAGE_SIZE = 100
"""Results per page of a list: Notion's limit."""

# -- query work ------------------------------------------------------------------------------------
MAX_FILTER_DEPTH = 4
"""Nesting of compound filters (Notion allows two levels; a little slack for agents, but bounded)."""

MAX_FILTER_CONDITIONS = 100
"""Conditions (leaves) in one filter: each is evaluated against every row, on the world's loop."""

MAX_SORTS = 5
"""Sort keys in one query: each is one pass over the rows (Notion's UI allows a handful)."""

# -- stored state ----------------------------------------------------------------------------------
WORKSPACE_QUOTA_BYTES = 8 * 1024 * 1024
"""Stored size of the workspace (its snapshot's JSON size). As in Notion's workspace block limit,
the write that first crosses it succeeds; after that, writes that add or change content are
refused (400) while reads, trashing and restoring stay available, and trashing does not give
space back. Bounds the snapshot the harness stores after every turn."""
