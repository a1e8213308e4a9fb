"""Which of an upstream task's mail users is the agent.

Why a rule is needed: upstream's ``env_config.email.users`` lists logical users (the agent's own
mailbox among colleagues and outsiders) without saying which one the agent logs into; upstream's
runner leaves that to the persona files. Our world needs to know: the agent acts with the world
user's accounts, so that user must be the agent's mailbox.

The rule, in order (each step measured on the published release, see docs/upstream.md):

1. ``METADATA["env_config"]["email"]["agent"]`` names the logical user (our extension, for
   authors of upstream-format tasks who want to say it);
2. the user that the task's own code sends mail *to* most often (literal ``to="..."`` in
   ``task.py``): colleagues write to the agent (97 of the 100 published tasks decide here);
3. the user whose key is ``assistant`` (1);
4. the first user declared (2).

On the published release every step agrees with "the first user declared".
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Mapping
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from ..world.service import Person


def agent_user(metadata: Mapping[str, Any], users: Mapping[str, Person], source: Path | None = None) -> tuple[str, str]:
    """``(logical user, which rule chose it)``; ``("", why)`` for a task without mail users."""
    if not users:
        return "", "the task declares no mail users"
    named = ((metadata.get("env_config") or {}).get("email") or {}).get("agent")
    if named:
        if named not in users:
            raise ValueError(f"env_config.email.agent names {named!r}, which env_config.email.users does not define")
        return str(named), "env_config.email.agent"
    by_address = {p.email.lower(): key for key, p in users.items()}
    if source is not None:
        counts = Counter(by_address[a] for a in _literal_recipients(source) if a in by_address)
        if counts:
            ranked = counts.most_common()
            if len(ranked) == 1 or ranked[0][1] > ranked[1][1]:
                return ranked[0][0], f"most mail in task.py is sent to it ({ranked[0][1]}x)"
    if "assistant" in users:
        return "assistant", "its key is 'assistant'"
    first = next(iter(users))
    return first, "the first user declared"


def _literal_recipients(source: Path) -> list[str]:
    """Lower-cased addresses of every literal ``to=`` keyword argument in ``source``."""
    try:
        tree = ast.parse(source.read_text(encoding="utf-8", errors="replace"))
    except SyntaxError:
        return []
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for kw in node.keywords:
            if kw.arg == "to" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                found += [a.lower() for _, a in getaddresses([kw.value.value]) if a]
    return found
