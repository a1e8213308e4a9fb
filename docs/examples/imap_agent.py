#!/usr/bin/env python3
"""A minimal command agent: file the day's new mail into the workspace. Standard library only.

    pytest tasks/... --agent=command --agent-option cmd="python3 /abs/path/to/imap_agent.py"

Each day it logs in over IMAP with the world's ``CLAWMARK_*`` variables, reads the messages that
arrived since its last wake (it remembers the last UID in ``$HOME``, which persists across the days
of a trial), and writes into the workspace:

- ``mail/inbox.csv``: one row per message (uid, date, from, subject, attachments), appended daily;
- ``mail/day<N>.json``: that day's messages with their plain-text bodies;
- ``mail/attachments/<uid>/<name>``: every attachment, as sent.

It does not decide anything: it shows the plumbing a real agent needs (message in, mail over IMAP,
deliverables in the workspace) and reports its trajectory as JSON trace lines in
``$CLAWMARK_TRACE_FILE`` (schema in docs/agents.md). It reads messages with ``BODY.PEEK[]``, so it
leaves their ``\\Seen`` flags alone.
"""

from __future__ import annotations

import contextlib
import csv
import email
import email.policy
import imaplib
import json
import os
import re
import sys
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ENV = os.environ


def trace(event: dict[str, Any]) -> None:
    """Append one JSON trace line (ignored when the harness gave no trace file)."""
    path = ENV.get("CLAWMARK_TRACE_FILE")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(event) + "\n")


def call(name: str, arguments: str, fn: Any, *args: Any, ok: str = "OK") -> Any:
    """Run one IMAP command and record it as a tool call with its status."""
    try:
        typ, data = fn(*args)
    except imaplib.IMAP4.error as exc:
        trace({"type": "tool_call", "name": name, "arguments": arguments, "status": f"error: {exc}"})
        raise
    trace({"type": "tool_call", "name": name, "arguments": arguments, "status": "ok" if typ == ok else typ.lower()})
    if typ != ok:
        raise RuntimeError(f"{name} {arguments}: {typ} {data!r}")
    return data


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "attachment"


def plain_text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""


def main() -> int:
    day = ENV.get("CLAWMARK_DAY", "0")
    message = sys.stdin.read()  # the same text is in $CLAWMARK_MESSAGE_FILE
    workspace = Path(ENV.get("CLAWMARK_WORKSPACE", "."))
    state_file = Path(ENV["HOME"]) / "imap_agent.json"
    state = json.loads(state_file.read_text()) if state_file.exists() else {"last_uid": 0}
    out = workspace / "mail"
    (out / "attachments").mkdir(parents=True, exist_ok=True)

    imap = imaplib.IMAP4(ENV["CLAWMARK_IMAP_HOST"], int(ENV["CLAWMARK_IMAP_PORT"]))
    try:
        call(
            "imap.login",
            ENV["CLAWMARK_MAIL_USER"],
            imap.login,
            ENV["CLAWMARK_MAIL_USER"],
            ENV["CLAWMARK_MAIL_PASSWORD"],
        )
        call("imap.select", "INBOX", imap.select, "INBOX", True)  # read-only
        query = f"UID {state['last_uid'] + 1}:*"
        uids = [int(u) for u in call("imap.search", query, imap.uid, "SEARCH", None, query)[0].split()]
        uids = [u for u in uids if u > state["last_uid"]]  # "n:*" always matches the last message
        rows: list[dict[str, Any]] = []
        for uid in uids:
            data = call("imap.fetch", f"UID {uid} BODY.PEEK[]", imap.uid, "FETCH", str(uid), "(BODY.PEEK[])")
            raw = next(part[1] for part in data if isinstance(part, tuple))
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            saved = []
            for att in msg.iter_attachments():
                name = safe_name(att.get_filename() or "attachment")
                target = out / "attachments" / str(uid) / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(att.get_payload(decode=True) or b"")
                saved.append(name)
            rows.append(
                {
                    "uid": uid,
                    "date": str(msg["Date"] or ""),
                    "from": str(msg["From"] or ""),
                    "subject": str(msg["Subject"] or ""),
                    "attachments": saved,
                    "text": plain_text(msg),  # type: ignore[arg-type]
                }
            )
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError, RuntimeError):  # keep the first error
            call("imap.logout", "", imap.logout, ok="BYE")  # also closes the connection

    index = out / "inbox.csv"
    new_file = not index.exists()
    with index.open("a", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        if new_file:
            writer.writerow(["uid", "date", "from", "subject", "attachments"])
        for r in rows:
            writer.writerow([r["uid"], r["date"], r["from"], r["subject"], ";".join(r["attachments"])])
    (out / f"day{day}.json").write_text(
        json.dumps({"day": int(day), "instructions": message, "messages": rows}, indent=1), encoding="utf-8"
    )
    trace(
        {
            "type": "tool_call",
            "name": "fs.write",
            "arguments": {"paths": [str(index.relative_to(workspace)), f"mail/day{day}.json"]},
            "status": "ok",
        }
    )
    if rows:
        state["last_uid"] = max(r["uid"] for r in rows)
    state_file.write_text(json.dumps(state))
    trace({"type": "message", "text": f"Filed {len(rows)} new message(s) into mail/inbox.csv."})
    return 0


if __name__ == "__main__":
    sys.exit(main())
