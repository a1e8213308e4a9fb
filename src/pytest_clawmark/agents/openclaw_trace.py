"""Reading what OpenClaw did: its session transcript, digested into one day's trace.

Why the transcript and not only ``--json``: the JSON result is printed only when a run ends
normally; a killed or crashed run leaves none, while the session transcript has every message
written so far. OpenClaw 2026.x keeps transcripts in its per-agent SQLite database
(``agents/<id>/agent/openclaw-agent.sqlite``, table ``transcript_events``), one JSON event per
row — the format of its former session JSONL files — stored as text or, for large events, as
a zstd frame. Node ≥ 24 (which OpenClaw needs anyway) has both ``node:sqlite`` and zstd, so a
20-line Node script exports the transcript as JSONL in a few tens of milliseconds, without a
second OpenClaw start-up and without a Python zstd dependency.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..world.untrusted_fs import fresh_file
from .base import TURN_FAILED, TURN_INFRA_ERROR, TURN_OK, TURN_TIMEOUT, ToolCall

MESSAGE_CHARS = 2000
ARGUMENT_CHARS = 160

EXPORT_JS = r"""
import { DatabaseSync } from "node:sqlite";
import { zstdDecompressSync } from "node:zlib";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
const [stateDir, sessionKey, sessionId] = process.argv.slice(1);
const agentsDir = join(stateDir, "agents");
const dbs = existsSync(agentsDir)
  ? readdirSync(agentsDir).sort().map((a) => join(agentsDir, a, "agent", "openclaw-agent.sqlite")).filter(existsSync)
  : [];
for (const path of dbs) {
  const db = new DatabaseSync(path, { readOnly: true });
  let ids = [];
  try {
    ids = db.prepare("SELECT session_id FROM session_windows WHERE session_key = ? ORDER BY created_at, session_id").all(sessionKey).map((r) => r.session_id);
  } catch {}
  if (!ids.includes(sessionId)) ids.push(sessionId);
  const rows = db.prepare("SELECT event_json, event_zstd FROM transcript_events WHERE session_id = ? ORDER BY seq");
  for (const id of ids) {
    for (const r of rows.iterate(id)) {
      process.stdout.write((r.event_json ?? zstdDecompressSync(r.event_zstd).toString("utf8")) + "\n");
    }
  }
  db.close();
}
"""

PROVIDER_FAILURE = re.compile(
    r"^(401|403|408|429|5\d\d)\b|HTTP (401|403|408|429|5\d\d)|rate.?limit|overloaded|authenticat|unauthori[sz]ed|"
    r"api key|no credentials|network connection error|connection error|ECONNREFUSED|ECONNRESET|ENOTFOUND|fetch failed|"
    r"LLM request failed|provider internal error",
    re.IGNORECASE,
)
"""Messages of model-provider failures (OpenClaw's wording and the HTTP layer's)."""


TRANSCRIPT_MAX = 64 * 1024 * 1024
"""Bytes of a session transcript the adapter exports and reads per day. The agent can write
into its own session store, so what the export prints is the agent's to inflate: past this the
export stops (``RLIMIT_FSIZE``) and the day's trace says ``transcript_truncated``."""


def export_transcript(
    node: Path,
    state_dir: Path,
    session_key: str,
    session_id: str,
    out: Path,
    limit: int = TRANSCRIPT_MAX,
    runner: tuple[list[str], dict[str, str]] | None = None,
) -> list[dict[str, Any]]:
    """Write the session's transcript as JSONL to ``out`` (at most ``limit`` bytes; a fresh file,
    whatever the agent planted at that name is removed first) and return its events ([] if none).
    ``runner``: the command line that runs ``node`` and its environment, when it is not the
    host's (the Node of an agent image, in a container: ``ContainerSandbox.helper``)."""
    fd = fresh_file(out)

    def cap_output() -> None:  # between fork and exec: the export cannot write more than ``limit``
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    try:
        argv, env = runner if runner is not None else ([str(node)], {"PATH": str(node.parent)})
        subprocess.run(
            [*argv, "--no-warnings", "--input-type=module", "-e", EXPORT_JS, str(state_dir), session_key, session_id],
            stdin=subprocess.DEVNULL,
            stdout=fd,
            stderr=subprocess.DEVNULL,
            timeout=120,
            check=False,
            env=env,
            preexec_fn=cap_output,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    finally:
        os.close(fd)
    events = []
    with open(out, "rb") as fh:
        for raw in fh:
            try:
                events.append(json.loads(raw.decode("utf-8", errors="replace")))
            except ValueError:
                continue
    return events


def transcript_truncated(out: Path, limit: int = TRANSCRIPT_MAX) -> bool:
    """Whether the export of ``out`` stopped at ``limit``."""
    try:
        return out.stat().st_size >= limit
    except OSError:
        return False


@dataclass
class DayDigest:
    """One day's slice of the transcript, reduced to what a :class:`TurnTrace` reports."""

    tool_calls: list[ToolCall] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=lambda: {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0})
    model_errors: list[str] = field(default_factory=list)  # failed model requests ("503 outage", "Connection error.")
    assistant_turns: int = 0
    events: int = 0


def digest_day(events: list[dict[str, Any]]) -> DayDigest:
    d = DayDigest(events=len(events))
    by_id: dict[str, ToolCall] = {}
    for event in events:
        msg = event.get("message") if event.get("type") == "message" else None
        if not isinstance(msg, dict):
            continue
        role = msg.get("role")
        if role == "assistant":
            if msg.get("stopReason") == "error":
                d.model_errors.append(str(msg.get("errorMessage") or "model request failed"))
                continue
            d.assistant_turns += 1
            usage = msg.get("usage") or {}
            for ours, theirs in (
                ("input", "input"),
                ("output", "output"),
                ("cache_read", "cacheRead"),
                ("cache_write", "cacheWrite"),
            ):
                d.tokens[ours] += int(usage.get(theirs) or 0)
            for block in msg.get("content") or []:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "text" and str(block.get("text", "")).strip():
                    d.messages.append(_truncate(str(block["text"]), MESSAGE_CHARS))
                elif block.get("type") == "toolCall":
                    call = ToolCall(
                        str(block.get("name", "?")), summarize_arguments(block.get("arguments")), "no-result"
                    )
                    d.tool_calls.append(call)
                    by_id[str(block.get("id"))] = call
        elif role == "toolResult":
            call = by_id.get(str(msg.get("toolCallId")))
            if call is not None:
                call.status = "error" if msg.get("isError") else "ok"
    return d


def summarize_arguments(arguments: Any) -> str:
    """The telling part of a call's arguments (a command, a path), on one line, truncated.

    File contents and other long values are left out on purpose: a summary is for reading a
    trajectory at a glance, the raw transcript has the rest.
    """
    if isinstance(arguments, dict):
        for key in ("command", "path", "file_path", "query", "url", "action"):
            if isinstance(arguments.get(key), str):
                return _truncate(" ".join(arguments[key].split()), ARGUMENT_CHARS)
        text = json.dumps(arguments, sort_keys=True, ensure_ascii=False)
    else:
        text = str(arguments)
    return _truncate(" ".join(text.split()), ARGUMENT_CHARS)


def parse_result(stdout: bytes) -> dict[str, Any]:
    """The JSON object ``openclaw agent --json`` printed ({} if none or not JSON)."""
    text = stdout.decode("utf-8", errors="replace").strip()
    start = text.find("{")
    if start < 0:
        return {}
    try:
        value = json.loads(text[start:])
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


OWN_DEADLINE = re.compile(r"embedded run timeout|run timed out|agent turn timed out", re.IGNORECASE)
"""OpenClaw's log line when its own ``--timeout`` expires (it then still exits 0)."""


def classify(exit_code: int, result: dict[str, Any], digest: DayDigest, stderr: str) -> tuple[str, str]:
    """(status, detail) of a run that ended on its own (time-limit kills are decided earlier).

    OpenClaw's own deadline (``--timeout``, set just inside the day's limit) is a ``timeout``.
    A failure caused by the model provider (5xx, 429, auth, unreachable) or an OpenClaw that
    died before the turn started is an ``infra-error`` — a harness/provider fault, not the
    agent's failure; any other non-zero exit is ``failed``.
    """
    meta = result.get("meta") if isinstance(result.get("meta"), dict) else {}
    status = str(result.get("status") or meta.get("stopReason") or "")
    if status == "timeout" or OWN_DEADLINE.search(stderr):
        return TURN_TIMEOUT, "OpenClaw's own turn deadline expired (--timeout, just inside the day's limit)"
    if exit_code == 0:
        return TURN_OK, ""
    message = _error_message(result) or _last_line(stderr) or f"exit status {exit_code}"
    provider = [e for e in digest.model_errors if PROVIDER_FAILURE.search(e)]
    if provider or PROVIDER_FAILURE.search(message):
        cause = provider[-1] if provider else message
        return TURN_INFRA_ERROR, f"model provider failed: {_truncate(cause, 300)} (openclaw: {_truncate(message, 300)})"
    if digest.events == 0:
        return (
            TURN_INFRA_ERROR,
            f"openclaw exited with status {exit_code} before the turn started: {_truncate(message, 400)}",
        )
    return TURN_FAILED, f"openclaw exited with status {exit_code}: {_truncate(message, 400)}"


def _error_message(result: dict[str, Any]) -> str:
    err = result.get("error")
    if isinstance(err, dict) and err.get("message"):
        return str(err["message"])
    meta = result.get("meta")
    if isinstance(meta, dict) and isinstance(meta.get("error"), dict):
        return str(meta["error"].get("message", ""))
    return ""


def _last_line(text: str) -> str:
    lines = [
        ln.strip()
        for ln in text.splitlines()
        if ln.strip() and not ln.startswith("[openclaw] Help") and "Try: openclaw" not in ln
    ]
    return lines[-1] if lines else ""


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
