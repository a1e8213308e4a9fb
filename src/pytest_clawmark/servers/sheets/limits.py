"""Every limit of the Sheets server, in one place, each with its reason and Google's own figure.

Why limits at all: the agent under test is untrusted, and everything it writes is read back by
the harness afterwards (snapshots, checkers) where no turn time limit applies. A limit here is
what keeps one request, one recalculation and one world's snapshot bounded in time and memory.

How they are enforced (docs/world.md has the table an agent author reads):

* **refused requests** (400 ``INVALID_ARGUMENT`` in Google's error shape, nothing changes):
  body size, JSON depth, URL length, cell and formula size, formula complexity, grid size,
  sheets per spreadsheet, the work one request may do;
* **Drive storage quota** (403, ``storageQuotaExceeded`` as Drive says it): spreadsheets, filled
  cells and characters of one world — the analogue of a Google account's storage quota, sized
  so that a snapshot of a world filled to the quota stays bounded;
* **recalculation budget** (the affected cells show ``#ERROR!`` / ``#VALUE!``, as Google shows a
  calculation that hit a limit): steps, array cells and text produced per recalculation, a
  text result's length, and a wall-clock backstop.

Every budget that decides a *value* is counted in deterministic units (tokens, cells,
characters), so the same world and the same edits always give the same values. The only
wall-clock limits are backstops sized far above what the deterministic budgets allow on the
slowest machine we run on (:data:`RECALC_DEADLINE_S`, :data:`REGEX_TIMEOUT_S`): they decide a
value only for a world that is pathological anyway, and they are documented as such.
"""

from __future__ import annotations

# -- HTTP ----------------------------------------------------------------------------------------
MAX_BODY_BYTES = 2 * 1024 * 1024
"""Largest agent request body. Google recommends payloads of at most 2 MB for the Sheets API and
refuses bodies over 10 MiB ("Request payload size exceeds the limit: 10485760 bytes.", 400)."""

MAX_ADMIN_BODY_BYTES = 1024 * 1024 * 1024
"""Largest admin-plane body (the harness restores snapshots of whole worlds)."""

MAX_URL_CHARS = 16 * 1024
"""Longest request target (path and query). Google's front end refuses URLs over about 16 KB
(414); a range list in ``batchGet`` longer than this belongs in several calls."""

MAX_HEADER_BYTES = 32 * 1024
"""Largest total of request header names and values (431 above). Google's front end refuses
request heads over about 16 KB ("Request Header Or Cookie Too Large"); a client never needs more
than a token and a few standard headers. A head still incomplete beyond 64 KiB is refused by the
HTTP parser itself (servers/asgi.py), in the same error shape."""

MAX_JSON_DEPTH = 100
"""Deepest JSON nesting of a request body. Protocol-buffer JSON parsers (what Google's API front
end is) stop at a recursion depth of 100; a Sheets request needs about 10 levels."""

# -- cells and formulas ------------------------------------------------------------------------
MAX_CELL_CHARS = 50_000
"""Characters one cell may hold (text or formula). Google: "Your input contains more than the
maximum of 50000 characters in a single cell"."""

MAX_TEXT_RESULT_CHARS = 50_000
"""Longest text a formula may produce (REPT, ``&``, CONCATENATE, TEXTJOIN, SUBSTITUTE...).
Google: "Text result of REPT is longer than the limit of 50000 characters" (the cell shows
``#VALUE!``)."""

MAX_FORMULA_TOKENS = 1024
"""Tokens (numbers, strings, references, names, operators, brackets, separators) of one formula.
Google documents no figure; Excel's parsed-formula limit (16 KB of tokens) is of this order. It
bounds what compiling one formula costs: the ``formulas`` library compiles in time quadratic in
the operators (a ``=1+1+...`` of 20,000 terms took minutes), about 0.2 s at this limit."""

MAX_FORMULA_NESTING = 100
"""Deepest bracket nesting of a formula (Excel allows 64 levels of nested functions)."""

# -- spreadsheets --------------------------------------------------------------------------------
MAX_CELLS = 10_000_000
"""Grid cells (filled or not) of one spreadsheet, all sheets together. Google: 10 million."""

MAX_COLUMNS = 18_278
"""Columns of one sheet: column ``ZZZ``, Google's widest sheet."""

MAX_ROWS = 10_000_000
"""Rows of one sheet: no sheet can have more rows than the cells a spreadsheet may hold."""

MAX_SHEETS = 200
"""Sheets (tabs) of one spreadsheet. Google: 200 worksheets per spreadsheet."""

MAX_SHEET_TITLE_CHARS = 100
"""Characters of a sheet name. Google: 100."""

MAX_TITLE_CHARS = 1000
"""Characters of a spreadsheet (Drive file) name."""

MAX_BATCH_REQUESTS = 10_000
"""Requests in one ``batchUpdate`` and ranges in one ``values:batchUpdate``."""

MAX_REQUEST_WORK = 4_000_000
"""Work units (about a microsecond each here) one agent request may spend: cells written, moved,
cleared, scanned or read back, formulas parsed or re-parsed when rows move. A request over it is
refused before it changes anything. Google documents a 180-second processing limit per request;
this is a deterministic analogue of about 4 s of work."""

WORK_CELL_WRITE = 8
"""Units per cell written (typed input parsed, cell stored)."""

WORK_CELL_READ = 5
"""Units per cell rendered into an answer."""

WORK_CELL_MOVE = 2
"""Units per cell moved (rows or columns inserted or deleted, a sheet resized or duplicated)."""

WORK_FORMULA_TOKEN = 100
"""Units per formula token parsed (written, or re-parsed when rows, columns or sheets move):
the library's tokenizer costs about 100 µs a token."""

# -- the world's Drive storage quota -------------------------------------------------------------
MAX_SPREADSHEETS = 100
"""Spreadsheets (Drive files) one world may hold, the trashed ones included."""

MAX_WORLD_CELLS = 500_000
"""Filled cells of all spreadsheets of a world. Sized so that the snapshot of a world filled to
its quota stays within seconds and a few hundred MB (measured: 3.3 s, +314 MB, 32 MB of JSON;
benchmarks/hostile_sheets.py)."""

MAX_WORLD_CHARS = 25_000_000
"""Characters of all cells of a world: text, formulas and the text results of formulas. Google
counts a spreadsheet against the owner's 15 GB storage; this world's quota is what keeps a
snapshot bounded (every character here is a character of the snapshot)."""

# -- the recalculation budget (per spreadsheet version) ------------------------------------------
RECALC_STEPS = 40_000
"""Steps of one recalculation: each formula costs :func:`~.complexity.formula_steps` (its tokens,
plus their square over :data:`FORMULA_STEPS_QUADRATIC`, plus :data:`FORMULA_STEPS`), each call of
a spreadsheet function one more (a LAMBDA loop spends them too). A step is about 0.15 ms when
nothing is compiled yet, so a recalculation stays within about 6 s here; a 2,000-row running
balance takes about 20,000 steps."""

FORMULA_STEPS = 6
"""Steps a formula costs besides its tokens (compiling and calling it has a fixed cost)."""

FORMULA_STEPS_QUADRATIC = 600
"""The library compiles in time quadratic in a formula's operators: a formula of n tokens costs
n²/600 steps more (a formula at the token limit: about 2,800 steps, 0.4 s)."""

RECALC_CELLS = 5_000_000
"""Array cells one recalculation may touch: the filled cells read into each input range (twice:
reading them costs about a microsecond), each array a function is given or produces. Ranges read
by several formulas are built once. The library handles a cell in 0.3 to 3 µs, so this keeps a
recalculation within a few seconds here; summing a 100,000-row column costs about 300,000."""

RECALC_CHARS = 20_000_000
"""Characters of text one recalculation may produce, intermediate results included."""

MAX_ARRAY_RESULT_CELLS = 250_000
"""Largest array a function may produce beyond the size of its largest input (MUNIT, EXPAND,
MAKEARRAY, a column times a row...). Bigger ones are a calculation limit (``#ERROR!``). Some of
the library's array functions cost 10 µs a cell, so this keeps one such call within seconds."""

FORMULA_CACHE_UNITS = 60_000
"""Size of the process-wide cache of compiled formulas, in units of about 5 KB (a formula costs
its tokens plus 8): at most about 300 MB whatever the agents write. A compiled formula is
large (30 KB for ``=B2*C2``, 4 MB for 800 tokens), so the cache is bounded by that estimate,
not by a count of formulas."""

RECALC_DEADLINE_S = 30.0
"""Wall-clock backstop of one recalculation. The deterministic budgets above end any
recalculation well before it on this hardware; it exists for a cost they failed to foresee."""

FORMULA_DEADLINE_S = 3.0
"""Wall-clock backstop of one formula (compiling it, or one evaluation of it). A formula of this
server takes milliseconds; one that runs for seconds is a pathological use of a slow library
function the deterministic budgets did not price, and shows ``#ERROR!``."""

REGEX_TIMEOUT_S = 1.0
"""Wall-clock limit of one regular-expression match (REGEXEXTRACT, REGEXREPLACE, REGEXTEST).
Google evaluates them with RE2, which runs in linear time; Python's engines backtrack, and a
pattern such as ``(a|aa)+$`` takes exponential time. A match over the limit shows ``#VALUE!``."""

MAX_REGEX_PATTERN_CHARS = 1000
"""Longest regular expression a formula may use."""

# -- reading -------------------------------------------------------------------------------------
MAX_FORMULA_INPUT_CELLS = 1_000_000
"""A bounded range bigger than this is read only over the sheet's filled rectangle (a guard, not
a semantic: the cells beyond are empty)."""
