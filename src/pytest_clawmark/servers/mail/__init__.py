"""Glue that hosts real mail servers in a world: pymap (IMAP) and aiosmtpd (SMTP).

One concept per module: :mod:`.store` (mailboxes on pymap's maildir backend, quota usage),
:mod:`.imap` (pymap's server with one-write responses, audit and limits), :mod:`.smtp`
(submission policy), :mod:`.smtpdata` (a DATA phase within the limits), :mod:`.delivery` (who
gets which copy), :mod:`.message` (building and reading messages), :mod:`.limits` (every limit),
:mod:`.screening` (a submitted message against the limits, off the loop), :mod:`.commandguard`
(IMAP commands read and vetted within the limits). pymap fixes installed on import:
:mod:`.rawmaildir` (verbatim bytes, parsing once and off the loop), :mod:`.modutf7` (names that
cannot hang the loop), :mod:`.listpattern` (LIST patterns without backtracking), :mod:`.seqsets`
(sequence sets without repeated work).
Nothing here knows about pytest or the World; :mod:`pytest_clawmark.world.mail` wires it up.
"""
