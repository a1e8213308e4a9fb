"""The world's mail in a container: Dovecot and Postfix for the agent, our submission filter behind.

    python -m pytest_clawmark.servers.standalone mail      (the ``clawmark/mail`` image's command)

Why production servers: on the docker backend the agent talks to the IMAP and SMTP servers real
deployments run (Debian's Dovecot and Postfix), with their quirks and their wording. Why our code
behind them still: what makes the world a benchmark must not change with the backend —

- **Dovecot** serves IMAP straight from the world's maildir (mounted at ``/data``: the very files
  the harness's admin plane seeds and its checkers read with pymap; both keep Maildir++ folders and
  ``dovecot-uidlist``, so UIDs, flags and keywords are the same for both). Dovecot's own indexes
  stay inside the container.
- **Postfix** speaks SMTP submission on port 587: SASL login through Dovecot (the same passwords),
  the envelope sender must be the login's own address, recipient and size limits; it then hands
  the transaction to the **submission filter** (``smtpd_proxy_filter``, before-queue): our
  :class:`~.smtp.SubmissionHandler` — the same checks of ``From:``/``Sender:``, the same screening,
  quota, sent ledger, ``Sent`` folder, catch-all and in-universe stamps as the embedded server.
  Its answer is the client's answer, and a mail is delivered when the client hears ``250``: no
  queue, nothing a checker could read too early.

Files in ``/data`` belong to one uid (``CLAWMARK_MAIL_UID``: the harness's own, or, when the
harness runs as root, an unprivileged one Dovecot accepts); the harness hands files it wrote back
to that uid before the agent's turn (``MailService.before_agent``). The agent's requests reach the
world's audit log through the control plane: the filter's own records (as embedded), plus
Dovecot's log of logins and of every change to a mailbox (``mail_log``) and Postfix's refusals.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session

from . import limits
from .delivery import OUTSIDE, SENT_LEDGER, Directory, Postmaster, sent_on_disk
from .smtp import HOSTNAME, SubmissionHandler
from .smtpdata import BoundedSMTP
from .store import MailStore, _home_dir

IMAP_PORT = 143
SMTP_PORT = 587
FILTER_PORT = 10025
LOG_DIR = Path("/var/log/clawmark")
DOVECOT_USERS = Path("/etc/dovecot/clawmark-users")
DOVECOT_LIMITS = Path("/etc/dovecot/clawmark-limits.conf")
POSTFIX_SENDERS = Path("/etc/postfix/clawmark-senders")
INDEX_DIR = Path("/var/lib/clawmark-index")
AUTH_SOCKET = Path("/var/spool/postfix/private/auth")
POSTFIX_MASTER = "/usr/lib/postfix/sbin/master"
READY_TIMEOUT_S = 20.0

_OUR_RECEIVED = re.compile(rb"\AReceived: [^\r\n]*(?:\r?\n[ \t][^\r\n]*)*\r?\n")


def without_our_received(raw: bytes) -> bytes:
    """The message as the client sent it: Postfix prepends one ``Received:`` field (with the wall
    clock and a queue id) before passing it to the filter; stored mail must hold neither."""
    match = _OUR_RECEIVED.match(raw)
    if match and b"(Postfix)" in match.group(0) and HOSTNAME.encode() in match.group(0):
        return raw[match.end() :]
    return raw


class FilterHandler(SubmissionHandler):
    """The embedded submission policy, behind Postfix: Postfix has authenticated the client and
    made sure the envelope sender is the login's address, so the login *is* the envelope sender
    (an empty one, the null sender, is refused as "not owned", as embedded)."""

    async def handle_MAIL(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, mail_options: list[str]
    ) -> str:
        account = self.passwords.get(address.lower())
        if account is None:
            self.audit("SMTP MAIL", address, "sender not owned", "553")
            return f"553 5.7.1 <{address}>: Sender address not owned by user"
        session.auth_data, session.authenticated = account[0], True
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        envelope.original_content = without_our_received(envelope.original_content or b"")
        return await super().handle_DATA(server, session, envelope)


class LogTail:
    """New lines of a daemon's log file since the last read, turned into audit entries."""

    def __init__(self, path: Path, parse: Callable[[str], tuple[str, str, str, str] | None]) -> None:
        self.path, self.parse, self.offset = path, parse, 0

    def pull(self, record: Callable[..., None]) -> None:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read(4 * limits.MIB)
        except OSError:
            return
        complete = data[: data.rfind(b"\n") + 1]
        self.offset += len(complete)
        for line in complete.decode("utf-8", "replace").splitlines():
            entry = self.parse(line)
            if entry is not None:
                record(*entry)


_DOVECOT_LOGIN = re.compile(r"imap-login: Info: Login: user=<([^>]*)>")
_DOVECOT_FAILED = re.compile(
    r"imap-login: Info: (?:Disconnected|Aborted login)[^(]*\((auth failed[^)]*)\): user=<([^>]*)>"
)
_DOVECOT_CHANGE = re.compile(r"imap\(([^)]*)\).*?: Info: (\w[\w ]*?): (.*)$")


def dovecot_entry(line: str) -> tuple[str, str, str, str] | None:
    """One audit entry of a Dovecot log line (logins, failed logins, mailbox changes), or None."""
    if m := _DOVECOT_LOGIN.search(line):
        return ("IMAP LOGIN", m.group(1), "", "OK")
    if m := _DOVECOT_FAILED.search(line):
        return ("IMAP LOGIN", m.group(2), m.group(1), "NO")
    if (m := _DOVECOT_CHANGE.search(line)) and "Disconnected" not in m.group(2) and "Logged out" not in m.group(3):
        return (f"IMAP {m.group(2).upper()}", m.group(1), m.group(3)[:300], "OK")
    return None


_POSTFIX_REJECT = re.compile(r"NOQUEUE: reject: (\w+) from [^:]*: (\d{3}) (.*?);(.*)$")
_POSTFIX_AUTH = re.compile(r"warning: [^:]*: SASL (\w+) authentication failed")


def postfix_entry(line: str) -> tuple[str, str, str, str] | None:
    """One audit entry of a Postfix log line (its refusals; accepted mail is the filter's), or None."""
    if m := _POSTFIX_REJECT.search(line):
        return (f"SMTP {m.group(1)}", m.group(4).strip()[:200], m.group(3)[:300], m.group(2))
    if m := _POSTFIX_AUTH.search(line):
        return ("SMTP AUTH", "", f"{m.group(1)} authentication failed", "535")
    return None


def _check_login(login: str) -> None:
    if not login or any(c in login for c in ":\n\r\t ") or "@" not in login:
        raise ValueError(f"{login!r} cannot be a mail login (an address without ':' or spaces)")


def problem(passwords: dict[str, str], uid_text: str, gid_text: str) -> str:
    """Why this process cannot serve the world's mail ('' when it can): checked before anything
    is written, so a bad start is one line, not a traceback."""
    if not passwords:
        return "set CLAWMARK_PASSWORDS: the mail accounts, {login: password}"
    for login, password in passwords.items():
        try:
            _check_login(login)
        except ValueError as exc:
            return str(exc)
        if any(c in password for c in ":\n\r"):
            return f"the password of {login} cannot hold ':' or line breaks"
    if not (uid_text.isdigit() and gid_text.isdigit()):
        return "CLAWMARK_MAIL_UID and CLAWMARK_MAIL_GID must be numbers"
    if not (shutil.which("dovecot") and Path(POSTFIX_MASTER).exists()):
        return "Dovecot and Postfix are not installed here: the mail service runs in the clawmark/mail image (clawmark images build)"
    if os.geteuid() != 0:
        return "the mail container starts as root (Dovecot and Postfix drop their privileges)"
    return ""


def configure(passwords: dict[str, str], data: Path, uid: int, gid: int) -> None:
    """Write Dovecot's users, Postfix's sender map and limits for this world (runs as root)."""
    for login in passwords:
        _check_login(login)
    DOVECOT_USERS.write_text("".join(
        f"{login.lower()}:{{PLAIN}}{password}:{uid}:{gid}::{data / _home_dir(login)}::\n" for login, password in passwords.items()
    ))  # fmt: skip
    DOVECOT_USERS.chmod(0o640)
    os.chown(DOVECOT_USERS, 0, _group_of("dovecot"))
    POSTFIX_SENDERS.write_text("".join(f"{login.lower()} {login.lower()}\n" for login in passwords))
    _settled(POSTFIX_SENDERS)
    set_postfix_parameters(
        {
            "message_size_limit": limits.MAX_MESSAGE_BYTES + 64 * limits.KIB,  # the filter holds the exact limit
            "smtpd_recipient_limit": limits.MAX_RECIPIENTS,
            "smtpd_client_connection_count_limit": limits.MAX_SMTP_CONNECTIONS,
        }
    )
    # what the agent may APPEND over IMAP: the embedded server's limits, per account
    DOVECOT_LIMITS.write_text(
        "plugin {\n"
        f"  quota_rule = *:storage={limits.STORE_QUOTA_BYTES // limits.KIB}k:messages={limits.STORE_QUOTA_MESSAGES}\n"
        f"  quota_max_mail_size = {limits.MAX_MESSAGE_BYTES // limits.KIB}k\n"
        "}\n"
        f"mail_max_userip_connections = {limits.MAX_IMAP_CONNECTIONS}\n"
    )
    for folder in (LOG_DIR, INDEX_DIR):
        folder.mkdir(parents=True, exist_ok=True)
    os.chown(INDEX_DIR, uid, gid)
    for name in ("dovecot.log", "postfix.log"):
        (LOG_DIR / name).touch()
        (LOG_DIR / name).chmod(0o644)


def set_postfix_parameters(values: dict[str, object]) -> None:
    """Set main.cf parameters in place (``postconf -e`` would cost a second of the world's start)."""
    path = Path("/etc/postfix/main.cf")
    lines = [line for line in path.read_text().splitlines() if line.split("=", 1)[0].strip() not in values]
    path.write_text("\n".join([*lines, *(f"{key} = {value}" for key, value in values.items())]) + "\n")
    _settled(path)


def _settled(path: Path) -> None:
    """Date a configuration file a minute back: Postfix re-reads one changed within the current
    second every 300 ms until it is older (1.5 s of the world's start, measured)."""
    then = time.time() - 60
    os.utime(path, (then, then))


def _group_of(name: str) -> int:
    import grp

    return grp.getgrnam(name).gr_gid


def start_daemons() -> None:
    """Start Dovecot and Postfix (both put themselves in the background) and wait for their
    greetings; a daemon that does not come up is an error with its log's last lines."""
    subprocess.run(["dovecot"], check=True)
    # Postfix's smtpd asks Dovecot's auth socket for the SASL mechanisms when it starts, and waits a
    # second and more if the socket is not there yet: start Postfix once it is
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not AUTH_SOCKET.exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    # Postfix's master directly, in the foreground of a child: `postfix start` spends over a second
    # on checks done at build time, and `master -w` two more seconds waiting; the port opens in 40 ms
    subprocess.Popen([POSTFIX_MASTER, "-d"], stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + READY_TIMEOUT_S
    for port, greeting, log in ((IMAP_PORT, b"* OK", "dovecot.log"), (SMTP_PORT, b"220", "postfix.log")):
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                    if sock.makefile("rb").readline().startswith(greeting):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                tail = (LOG_DIR / log).read_text(errors="replace").splitlines()[-10:]
                raise RuntimeError(
                    f"port {port} did not answer in {READY_TIMEOUT_S:g} s; {log} ends:\n" + "\n".join(tail)
                )
            time.sleep(0.02)


def daemons_problem() -> str:
    """'' while Dovecot and Postfix accept connections, else which one does not."""
    for port, name in ((IMAP_PORT, "Dovecot (IMAP)"), (SMTP_PORT, "Postfix (SMTP)")):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        except OSError as exc:
            return f"{name} does not accept connections on port {port}: {exc}"
    return ""


def drop_privileges(uid: int, gid: int) -> None:
    """The filter and the control plane run as the mail files' owner, never as root."""
    if os.getuid() == 0 and uid != 0:
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)


async def serve_mail(conf: dict[str, Any], control: Any, start_control: Callable[[], Any]) -> None:
    """Configure and start the daemons, then serve the filter and the control plane until
    cancelled. ``conf`` is :func:`..standalone.settings`; ``control`` its :class:`~..standalone.Control`."""
    data: Path = conf["data"]
    uid, gid = int(os.environ.get("CLAWMARK_MAIL_UID", "5000")), int(os.environ.get("CLAWMARK_MAIL_GID", "5000"))
    passwords: dict[str, str] = conf["passwords"]
    started = time.monotonic()
    configure(passwords, data, uid, gid)
    start_daemons()
    print(f"clawmark mail: Dovecot and Postfix answer after {time.monotonic() - started:.2f} s", flush=True)
    drop_privileges(uid, gid)
    os.environ["TMPDIR"] = str(data / ".tmp")  # pymap renames its index files into place from there
    import tempfile

    tempfile.tempdir = None
    store = MailStore(data, {**passwords, OUTSIDE: None, SENT_LEDGER: None})
    postmaster = Postmaster(store, Directory.of(passwords))
    domain = conf["user"][1].rpartition("@")[2] or "clawmark.local"
    dovecot, postfix = LogTail(LOG_DIR / "dovecot.log", dovecot_entry), LogTail(LOG_DIR / "postfix.log", postfix_entry)

    def pull_logs() -> None:
        dovecot.pull(control.record)
        postfix.pull(control.record)

    def audit(*entry: str) -> None:  # the daemons' earlier lines first: the log keeps its order
        pull_logs()
        control.record(*entry)

    handler = FilterHandler(postmaster, passwords, clock=control.clock, audit=audit, domain=domain)
    control.before_read = pull_logs
    control.health = daemons_problem

    class Filter(BoundedSMTP):
        async def smtp_DATA(self, arg: str) -> None:
            # the Message-IDs the filter gives unnamed mail count the ledger's messages, as embedded
            postmaster.submissions = sent_on_disk(data)
            await super().smtp_DATA(arg)

    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: Filter(handler, hostname=HOSTNAME, ident="clawmark submission filter", data_size_limit=limits.MAX_MESSAGE_BYTES,
                       enable_SMTPUTF8=True, timeout=limits.SMTP_IDLE_TIMEOUT_S, loop=loop),
        host="127.0.0.1", port=FILTER_PORT,
    )  # fmt: skip
    control_server = await start_control()
    try:
        await control_server.task
    finally:
        server.close()
