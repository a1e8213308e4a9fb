"""Glue that hosts real mail servers in a world: pymap (IMAP) and aiosmtpd (SMTP).

One concept per module: :mod:`.store` (mailboxes on pymap's maildir backend), :mod:`.imap`
(pymap's server with one-write responses and audit), :mod:`.smtp` (submission policy),
:mod:`.delivery` (who gets which copy), :mod:`.message` (building and reading messages).
Nothing here knows about pytest or the World; :mod:`pytest_clawmark.world.mail` wires it up.
"""
