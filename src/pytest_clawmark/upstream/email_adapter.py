"""``ctx.email`` of upstream tasks, over our mail service's admin plane (``world.mail``).

Why the admin plane: upstream's stage setup "sends" mail as colleagues by logging into their
accounts; ours delivers as them directly (same headers, same folders, the in-universe clock, no
credentials shared with the agent). Reads return upstream's dict shape (``subject``, ``from`` as
the raw ``Name <addr>`` header, ``to``, ``cc``, ``date``, ``body`` preferring text over HTML), so
upstream checkers parse them unchanged.

Logical users are the keys of ``METADATA["env_config"]["email"]["users"]``; their display name is
the entry's ``name``, else the address (what upstream's client uses).
"""

from __future__ import annotations

from collections.abc import Mapping
from email.utils import format_datetime, formataddr, getaddresses
from typing import Any

from ..world.service import Person


class UnknownMailUser(ValueError):
    """A logical user the task's ``env_config`` does not define."""


def mail_users(metadata: Mapping[str, Any]) -> dict[str, Person]:
    """Logical user → :class:`Person`, from ``env_config.email.users`` (in declaration order)."""
    users = ((metadata.get("env_config") or {}).get("email") or {}).get("users") or {}
    out: dict[str, Person] = {}
    for key, info in users.items():
        if not isinstance(info, Mapping) or not info.get("email"):
            raise UnknownMailUser(f"env_config.email.users[{key!r}] needs an 'email'")
        address = str(info["email"]).strip()
        out[str(key)] = Person(str(info.get("name") or address), address)
    return out


class UpstreamEmail:
    """The methods upstream's ``EmailStateManager`` offers tasks, with its return shapes."""

    def __init__(self, world: Any, users: Mapping[str, Person]) -> None:
        self._world = world
        self._users = dict(users)

    def _user(self, name: str) -> Person:
        try:
            return self._users[name]
        except KeyError:
            known = ", ".join(sorted(self._users)) or "none"
            raise UnknownMailUser(f"unknown mail user {name!r} (env_config.email.users defines: {known})") from None

    async def send_email(
        self,
        from_user: str,
        to: str,
        subject: str,
        body: str,
        content_type: str = "plain",
        sender_name: str | None = None,
    ) -> bool:
        """Deliver as ``from_user`` to the comma-separated ``to``; ``True`` once delivered."""
        who = self._user(from_user)
        recipients = [formataddr((n, a)) if n else a for n, a in getaddresses([to]) if a]
        if not recipients:
            raise ValueError(f"send_email: no recipient address in {to!r}")
        sender = formataddr((sender_name or who.name, who.email))
        if content_type == "html":
            self._world.mail.deliver(sender, recipients, subject, "", html=body)
        else:
            self._world.mail.deliver(sender, recipients, subject, body)
        return True

    async def get_emails(self, user: str, folder: str = "INBOX") -> list[dict[str, Any]]:
        """``user``'s folder in delivery order, as upstream's dicts."""
        person = self._user(user)
        return [_as_dict(m) for m in self._world.mail.inbox(person, folder=folder)]

    async def find_emails(
        self, user: str, *, sender: str | None = None, subject: str | None = None
    ) -> list[dict[str, Any]]:
        """Case-insensitive substring filters on ``from`` and ``subject``, as upstream's."""
        found = []
        for mail in await self.get_emails(user):
            if sender and sender.lower() not in mail["from"].lower():
                continue
            if subject and subject.lower() not in mail["subject"].lower():
                continue
            found.append(mail)
        return found


def _as_dict(message: Any) -> dict[str, Any]:
    return {
        "subject": message.subject,
        "from": formataddr((message.sender_name, message.sender)) if message.sender_name else message.sender,
        "to": ", ".join(message.to),
        "cc": ", ".join(message.cc),
        "date": format_datetime(message.date) if message.date is not None else "",
        "body": message.text
        if message.text.strip()
        else message.html,  # an HTML-only mail: upstream falls back to the HTML
    }
