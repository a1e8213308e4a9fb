"""The workspace documents OpenClaw injects into every prompt, written from the task.

Why these files: OpenClaw's system prompt is built from the bootstrap files of its agent
workspace — AGENTS.md (operating rules, with a "## Tools" section for local conventions),
SOUL.md (persona), USER.md (who it works for) and IDENTITY.md. A missing file is injected as a
"[MISSING]" marker, so all four are written. The world's TOOLS.md (endpoints and credentials of
each service) becomes the Tools section, refreshed before every day.

A task may bring its own persona files in its workspace (tasks in the upstream ClawMark format
ship AGENTS.md, SOUL.md, USER.md and IDENTITY.md among their assets, written for an OpenClaw
whose workspace *is* the task's workspace): those are used as written — AGENTS.md followed by our
short "how your days work" and the Tools section — instead of the generated ones.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from ..world.untrusted_fs import open_regular, write_replacing
from .base import AgentSession

TOOLS_MD_MAX = 1 << 20

DEFAULT_PERSONA = "You are a careful, thorough professional assistant. You finish the work you are given."


PERSONA_FILES = ("AGENTS.md", "SOUL.md", "USER.md", "IDENTITY.md")


def write_persona_files(folder: Path, session: AgentSession) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tools = _read_tools_md(session.workspace) or "No work systems beyond the working folder."
    own = {name: _read_workspace_file(session.workspace, name) for name in PERSONA_FILES}
    files = {
        "AGENTS.md": _agents_md(session, tools, own["AGENTS.md"]),
        "SOUL.md": f"# SOUL.md\n\n{session.persona.strip() or DEFAULT_PERSONA}\n",
        "USER.md": (
            "# USER.md\n\n"
            f"- Name: {session.user.name}\n- Email: {session.user.email}\n"
            "- You act with their accounts (mail, calendar, knowledge base, spreadsheets).\n"
        ),
        "IDENTITY.md": f"# IDENTITY.md\n\n- Role: {session.role}\n",
    }
    for name, text in own.items():
        if text.strip() and name != "AGENTS.md":
            files[name] = text
    for name, text in files.items():
        write_replacing(folder / name, text)  # the folder is the agent's to edit: never write through its links


def _read_tools_md(workspace: Path) -> str:
    """The world's TOOLS.md as the harness wrote it (a regular file of the workspace, at most
    :data:`TOOLS_MD_MAX` bytes), '' when there is none."""
    return _read_workspace_file(workspace, "TOOLS.md")


def _read_workspace_file(workspace: Path, name: str) -> str:
    """A regular file of the workspace (at most :data:`TOOLS_MD_MAX` bytes); '' for anything else."""
    try:
        fd = open_regular(workspace / name, root=workspace)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as fh:
        return fh.read(TOOLS_MD_MAX).decode("utf-8", errors="replace")


def _agents_md(session: AgentSession, tools: str, own: str = "") -> str:
    head = (
        f"{own.rstrip()}\n"
        if own.strip()
        else f"# AGENTS.md\n\nYou are {session.role}. You work for {session.user.name} <{session.user.email}>.\n"
    )
    return f"""{head}
## How your days work
- Each message you receive starts one working day. It begins with the in-universe date and
  time; trust that over the system clock. `$CLAWMARK_NOW` holds the same moment.
- Nobody is available to answer questions during the day: decide, act, and finish the day's
  work with your tools. Then reply with a short summary of what you did.
- Your working folder is `{session.workspace}`: read inputs there and write every deliverable
  there (relative paths resolve to it). `TOOLS.md` in it describes your work systems.
- Things change between days, sometimes without notice: re-read sources instead of relying on
  what you saw yesterday.

## Tools
{tools.strip()}
"""


def day_header(day: int, clock: datetime) -> str:
    """The first line of each day's message: the in-universe moment (OpenClaw's prompt carries
    the real date, which would contradict the task's calendar)."""
    z = clock.strftime("%z")
    offset = f" {z[:3]}:{z[3:5]}" if z else ""
    return f"[Day {day} — {clock:%A %Y-%m-%d %H:%M}{offset}]"
