"""Every limit of the mail servers (SMTP submission and IMAP), in one place.

Why limits at all: the agent under test is untrusted code, and every byte it gets into the mail
store is parsed again by IMAP (pymap), by checkers and by the per-turn snapshot, where no turn time
limit applies. Every parser involved (the stdlib ``email`` package, pymap's MIME parser, aiosmtpd's
DATA reader) works line by line and pass by pass: parsing cost grows with lines x MIME depth, not
with bytes. So the limits bound the *structure* of one message (lines, depth, parts, header fields)
as well as its size, and a world-wide quota bounds how much mail a snapshot must read
(``python benchmarks/hostile_mail.py`` measures a store filled to these limits).

Real services are cited where they document an equivalent. What an agent gets when over a limit:

* SMTP: a 5xx reply at DATA (``554 5.6.0`` for structure, ``552 5.3.4`` for size, ``552 5.3.1``
  for the quota), the session goes on; nothing is stored or delivered.
* IMAP: ``NO [LIMIT]`` / ``NO [OVERQUOTA]`` (RFC 5530) for content and quota, ``BAD [TOOBIG]`` /
  ``BAD`` for commands the server will not parse; the connection stays usable.
"""

from __future__ import annotations

KIB = 1024
MIB = 1024 * KIB

# -- one message (SMTP DATA and IMAP APPEND) -----------------------------------------------------
MAX_MESSAGE_BYTES = 10 * MIB
"""Largest message, as sent (SMTP ``SIZE``, IMAP ``APPENDLIMIT``). Exchange Server's default
send/receive limit is 10 MB (Gmail: 25 MB, Exchange Online: 35 MB); a 7 MB attachment fits after
base64. Over it: ``552`` at DATA (aiosmtpd's own ``552 Error: Too much mail data``, and ``552`` to
``MAIL FROM ... SIZE=``), ``BAD [TOOBIG]`` to APPEND."""

MAX_MESSAGE_LINES = 150_000
"""Lines in one message. No service documents one; it is here because every parser costs per line
(pymap ~1.4 µs per line per MIME level, stdlib ~2 µs per line): a 10 MiB message of empty lines is
5 million lines. A 10 MiB message of base64 attachments (76-character lines) has ~138,000."""

MAX_MIME_DEPTH = 10
"""Deepest nesting of multipart / message/rfc822 parts (the top level is depth 1). Postfix
(``mime_nesting_limit``) and Dovecot allow 100; ours is lower because each level costs the
parsers another pass over every line below it (pymap ~1.4 µs a line a level). The deepest
structures mail clients produce (a forwarded message with attachments in a signed wrapper) nest
about 6 levels."""

MAX_MIME_PARTS = 500
"""Parts in one message, containers included. Exchange Online allows 250 attachments a message;
Dovecot stops parsing at 10,000 parts."""

MAX_HEADER_FIELDS = 250
"""Header fields in one header section (the message's or one part's). Mail relayed across many
hops carries 50-100 (Exim stops a message at 30 ``Received:`` fields, Postfix at 50); 20,000
fields made every later mail read take seconds. Each top-level field costs every read ~7 µs and
the snapshot ~60 bytes of JSON."""

MAX_HEADER_SECTION_BYTES = 256 * KIB
"""Bytes in one header section. Exchange Online's message header size limit is 256 KB
(sendmail's ``MaxHeadersLength`` default is 32 KB)."""

MAX_HEADER_LINE_BYTES = 998
"""Longest header line without its CRLF (RFC 5322 §2.1.1). SMTP already refuses any line over
1,000 octets (RFC 5321 §4.5.3.1.6, ``500``); this applies the header rule to IMAP APPEND too."""

# -- SMTP session ----------------------------------------------------------------------------------
MAX_RECIPIENTS = 100
"""Recipients of one message (``452 4.5.3`` for the 101st). Google Workspace allows 100
recipients a message sent over SMTP."""

SMTP_COMMAND_LINE_BYTES = 512
"""Longest SMTP command line (RFC 5321 §4.5.3.1.4; aiosmtpd's default, ``500`` above)."""

SMTP_TEXT_LINE_BYTES = 1_001
"""Longest DATA line with its CRLF plus the dot-stuffing octet (RFC 5321 §4.5.3.1.6; aiosmtpd's
default, ``500 Line too long`` after the data)."""

MAX_SMTP_CONNECTIONS = 32
"""SMTP sessions open at once (the next one gets ``421 4.7.0`` as its greeting and is closed).
Postfix allows 50 per client (``smtpd_client_connection_count_limit``); each open session holds
a coroutine and a file descriptor of the harness's own process."""

SMTP_IDLE_TIMEOUT_S = 300
"""Seconds of client silence before the server closes a session (RFC 5321 §4.5.3.2.7: 5 minutes)."""

# -- IMAP commands ---------------------------------------------------------------------------------
MAX_IMAP_CONNECTIONS = 10
"""IMAP connections open at once (the next one gets ``* BYE [UNAVAILABLE]`` as its greeting).
Dovecot's ``mail_max_userip_connections`` is 10, Gmail allows 15 per account. Each connection in
IDLE re-lists its folder every second on the event loop (~30 ms for 2,000 messages)."""

MAX_COMMAND_LINE_BYTES = 64 * KIB
"""Longest IMAP command line (Dovecot's ``imap_max_line_length`` is 64 KiB). A list of 5,000 UIDs
fits. Over it: ``BAD [TOOBIG]``; the line is read to its end and dropped."""

MAX_COMMAND_BYTES = 64 * KIB
"""Lines and literals of one command other than APPEND, together (``BAD [TOOBIG]`` above)."""

MAX_APPEND_COMMAND_BYTES = MAX_MESSAGE_BYTES + MAX_COMMAND_BYTES
"""Lines and literals of one APPEND (MULTIAPPEND included), together."""

MAX_LITERALS_PER_COMMAND = 64
"""Literals in one command: pymap re-parses the whole command after each one (``BAD`` above)."""

MAX_PAREN_DEPTH = 16
"""Deepest parenthesis nesting in a command (``BAD`` above). pymap's parser recurses per level
(3,000 levels ended the connection with ``BYE [SERVERBUG]``); the deepest legitimate commands
(SEARCH with grouped keys, FETCH ``BODY[HEADER.FIELDS (...)]``) nest 2-4 levels."""

MAX_SEARCH_KEYS = 64
"""Search keys in one SEARCH, counted through OR, NOT and parentheses (``BAD [LIMIT]`` above).
Each key is evaluated against every message of the folder on the server's event loop."""

MAX_FETCH_ITEMS = 32
"""Data items in one FETCH (``BAD [LIMIT]`` above)."""

MAX_FETCH_SECTIONS = 8
"""Body sections (``BODY[...]``, ``BINARY[...]``, ``RFC822``, ``RFC822.TEXT``...) in one FETCH:
each copies message content into the response (``BAD [LIMIT]`` above)."""

# -- mailboxes -------------------------------------------------------------------------------------
MAX_MAILBOX_NAME_BYTES = 200
"""Longest mailbox name in UTF-8 (``NO [CANNOT]``): the maildir++ layout stores all levels in one
directory name (255 bytes on Linux file systems)."""

MAX_FOLDERS_PER_ACCOUNT = 200
"""Folders of one account (``NO [LIMIT]`` to CREATE). Exchange Online warns above 10,000 folders a
mailbox; every folder costs the snapshot a session and a listing."""

# -- the world's mail store (quota, RFC 9208 resources STORAGE and MESSAGE) -------------------------
STORE_QUOTA_BYTES = 100 * MIB
"""Bytes of mail in the whole world (every account and folder, every copy: a message to three
colleagues is stored five times: three inboxes, the sender's Sent folder and the sent ledger).
Real mailboxes hold gigabytes (Gmail 15 GB, Exchange Online 50 GB); a benchmark world needs a
few MiB, and every snapshot reads all of it. Over it: ``552 5.3.1`` at DATA, ``NO [OVERQUOTA]``
to APPEND/COPY. The task's own mail (admin-plane deliveries, which are never refused) does not
count: a task may seed a realistic mailbox of thousands, and the quota bounds what the agent adds."""

STORE_QUOTA_MESSAGES = 2_000
"""Messages the agent adds to the world, every copy counted (same answers as
:data:`STORE_QUOTA_BYTES`). Every message costs each IMAP command on its folder ~25 µs on the
world's loop (pymap builds an object per message per command, ``benchmarks/world_scale.py``) and
each snapshot a parse: 2,000 more than the task seeded keeps both bounded."""

STORE_QUOTA_LINES = 1_000_000
"""Lines in the whole world, every copy counted (same answers as :data:`STORE_QUOTA_BYTES`). Not
a resource real servers meter; it is what parsing costs (the stdlib ~1-3 µs a line, by depth):
100 MiB of empty lines would be 50 million lines, minutes for the first snapshot to parse; a
million parse in a few seconds (``benchmarks/hostile_mail.py``). 75 MiB of base64 attachments
is ~1 million lines."""

STORE_QUOTA_DELIMITERS = 10_000
"""Lines beginning with ``--`` in the whole world, every copy counted (same answers as
:data:`STORE_QUOTA_BYTES`): an upper bound on the MIME parts stored, counted without parsing.
Reading an attachment part costs ~0.25 ms whatever its size (its headers are parsed); a world of
100 messages with two attachments each has ~400."""
