"""Shortcut baselines: built-in agents that use the work systems blindly, to keep the corpus honest.

Each imitates one way an agent can look busy without understanding the task, through the agent
plane only (SMTP/IMAP, the Notion REST API, the Sheets/Drive REST API, CalDAV, the workspace) —
never the task module, its facts or its solutions. The corpus gate (tests/test_corpus.py)
requires each to score at most 10% on every task; docs/corpus.md shows their scores.

| agent | module | the shortcut |
|---|---|---|
| ``baseline:status-flip`` | :mod:`.status_flip` | every status/select/checkbox and status-like sheet cell set positive |
| ``baseline:ack-all`` | :mod:`.ack_all` | a quoting "thanks, on it" reply to every mail |
| ``baseline:copy-everything`` | :mod:`.copy_everything` | every mail forwarded to everyone, files copied everywhere, mails pasted into the KB and sheets |
| ``baseline:keyword-stuff`` | :mod:`.keyword_stuff` | every word of the message and mails written into every text field and named deliverable |
| ``baseline:eager`` | :mod:`.eager` | meetings with everyone, "go ahead" mails to everyone mentioned, everything marked decided |

The shared moves are :mod:`.toolkit`; the Agent protocol around a strategy is :mod:`.agent`.
"""

from __future__ import annotations

BASELINES: dict[str, str] = {
    "baseline:status-flip": "pytest_clawmark.agents.baselines.status_flip:StatusFlipAgent",
    "baseline:ack-all": "pytest_clawmark.agents.baselines.ack_all:AckAllAgent",
    "baseline:copy-everything": "pytest_clawmark.agents.baselines.copy_everything:CopyEverythingAgent",
    "baseline:keyword-stuff": "pytest_clawmark.agents.baselines.keyword_stuff:KeywordStuffAgent",
    "baseline:eager": "pytest_clawmark.agents.baselines.eager:EagerAgent",
}
"""Name -> ``module:class`` of every shortcut baseline (registered in the agent registry's BUILTIN)."""

__all__ = ["BASELINES"]
