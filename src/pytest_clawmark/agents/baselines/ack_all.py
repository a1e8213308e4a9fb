"""``baseline:ack-all`` — acknowledges every mail in the user's INBOX, quoting it.

The shortcut it imitates: an agent that keeps every correspondent happy with a polite reply and
does no work — "Thanks, received, we're on it", a proper reply (``Re:`` subject, ``In-Reply-To``
and ``References`` set, to the sender or its Reply-To) with the original quoted below. Each mail
is acknowledged once, on the day it is first seen.

Why it exists: a mail checker that looks only at the recipient and the subject ("a mail to the
prescriber about P-2189", "a reply to the general counsel") is satisfied by this agent. The corpus
gate requires it to score at most 10% on every task, so mail checkers must check content — an id,
a figure, an attachment, the right thread.
"""

from __future__ import annotations

from datetime import datetime

from .agent import BaselineAgent
from .toolkit import MailItem, Toolkit

ACK = "Thanks, received - we're on it and will come back to you shortly."


def quoted(mail: MailItem) -> str:
    head = f"On {mail.message.get('Date', '')}, {mail.message.get('From', '')} wrote:"
    return "\n".join([head, *("> " + line for line in mail.text.splitlines())])


def reply_subject(subject: str) -> str:
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


class AckAllAgent(BaselineAgent):
    name = "baseline:ack-all"

    def __init__(self, options: dict[str, str] | None = None) -> None:
        super().__init__(options)
        self.answered: set[str] = set()

    def act(self, kit: Toolkit, message: str, day: int, clock: datetime) -> None:
        for mail in kit.attempt("imap.fetch_inbox", kit.inbox) or []:
            key = mail.message_id or f"uid:{mail.uid}"
            if key in self.answered or not mail.sender or mail.sender == kit.user:
                continue
            self.answered.add(key)
            kit.attempt(
                "smtp.reply",
                kit.send,
                [mail.sender],
                reply_subject(mail.subject),
                f"{ACK}\n\n{quoted(mail)}\n",
                in_reply_to=mail.message_id,
                summary=f"to {mail.sender}: {mail.subject}",
            )
