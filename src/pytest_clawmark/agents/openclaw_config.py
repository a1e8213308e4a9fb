"""The OpenClaw adapter's settings (from ``--agent-option``) and the config file it generates.

Why a generated, private config per task trial: OpenClaw reads its config and keeps sessions,
memory and locks in a state directory; two trials sharing one would share a conversation and
fight over its lock. So every trial gets its own ``OPENCLAW_STATE_DIR`` with an
``openclaw.json`` that names one custom provider ("clawmark") at the user's endpoint. The API
key is referenced by environment variable name (``${NAME}``), never written down.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from .base import AgentError

PROVIDER_ID = "clawmark"
APIS = {"openai": "openai-completions", "anthropic": "anthropic-messages"}
DEFAULT_BASE_URLS = {"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}
DEFAULT_KEY_ENVS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
THINKING = ("off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max", "ultra")
KNOWN_OPTIONS = frozenset(
    {
        "provider",
        "base_url",
        "model",
        "api_key_env",
        "openclaw_bin",
        "thinking",
        "context_window",
        "max_tokens",
        "script",
        "path",
        "image",
    }
)
NO_KEY = "clawmark-no-key"
"""What a loopback endpoint (the scripted model, a local vLLM) gets when no key is set."""


@dataclass(frozen=True)
class ProviderSettings:
    provider: str  # openai | anthropic (the wire dialect)
    base_url: str
    model: str
    api_key_env: str
    thinking: str = ""
    context_window: int = 0
    max_tokens: int = 0

    @property
    def model_ref(self) -> str:
        return f"{PROVIDER_ID}/{self.model}"


def provider_settings(
    options: Mapping[str, str], *, scripted_url: str | None = None, scripted_model: str | None = None
) -> ProviderSettings:
    """Validate the provider options; ``scripted_url`` is set when the adapter runs its own
    scripted model (``script=``), which then supplies the defaults."""
    unknown = sorted(set(options) - KNOWN_OPTIONS)
    if unknown:
        raise AgentError(f"unknown openclaw option(s) {unknown}; known: {', '.join(sorted(KNOWN_OPTIONS))}")
    provider = options.get("provider", "openai").strip().lower()
    if provider not in APIS:
        raise AgentError(
            f"provider={provider!r}: use provider=openai (OpenAI-compatible) or provider=anthropic (Anthropic-compatible)"
        )
    base_url = options.get("base_url", "").strip().rstrip("/")
    if scripted_url and not base_url:
        base_url = scripted_url + ("/v1" if provider == "openai" else "")
    base_url = base_url or DEFAULT_BASE_URLS[provider]
    if urlparse(base_url).scheme not in ("http", "https"):
        raise AgentError(f"base_url={base_url!r} is not an http(s) URL")
    model = options.get("model", "").strip() or (scripted_model or "")
    if not model:
        raise AgentError("the openclaw agent needs --agent-option model=MODEL_ID (the id your provider serves)")
    thinking = options.get("thinking", "").strip()
    if thinking and thinking not in THINKING:
        raise AgentError(f"thinking={thinking!r}: one of {', '.join(THINKING)}")
    return ProviderSettings(
        provider=provider,
        base_url=base_url,
        model=model,
        api_key_env=options.get("api_key_env", "").strip() or DEFAULT_KEY_ENVS[provider],
        thinking=thinking,
        context_window=_positive_int(options, "context_window"),
        max_tokens=_positive_int(options, "max_tokens"),
    )


def api_key(settings: ProviderSettings, environ: Mapping[str, str] = os.environ) -> str:
    """The key from the named variable; a loopback endpoint may go without one."""
    value = environ.get(settings.api_key_env, "")
    if value:
        return value
    if is_loopback(settings.base_url):
        return NO_KEY
    raise AgentError(
        f"the openclaw agent reads its API key from ${settings.api_key_env}, which is not set (set it, or name another variable with --agent-option api_key_env=NAME)"
    )


def is_loopback(url: str) -> bool:
    return (urlparse(url).hostname or "") in ("127.0.0.1", "localhost", "::1")


def build_config(settings: ProviderSettings, *, agent_workspace: Path, work_dir: Path) -> dict[str, Any]:
    """The ``openclaw.json`` of one trial.

    - ``agents.defaults.workspace`` is a private folder for OpenClaw's own files (AGENTS.md,
      SOUL.md, USER.md, IDENTITY.md, memory); ``cwd`` is the task's workspace, where tools run
      and deliverables go — so persona and memory files never mix with what checkers read.
    - ``skipBootstrap``: no first-run "who am I" ritual; the persona files are written for it.
    - ``tools.exec.mode: full``: a headless run has nobody to approve commands.
    - no session reset, no update checks, no telemetry: a benchmark run talks to the model
      endpoint and to its world, nothing else.
    """
    model: dict[str, Any] = {"id": settings.model, "name": settings.model}
    if settings.context_window:
        model["contextWindow"] = settings.context_window
    if settings.max_tokens:
        model["maxTokens"] = settings.max_tokens
    return {
        "agents": {
            "defaults": {
                "workspace": str(agent_workspace),
                "cwd": str(work_dir),
                "model": {"primary": settings.model_ref},
                "skipBootstrap": True,
            }
        },
        "models": {
            "mode": "merge",
            "providers": {
                PROVIDER_ID: {
                    "baseUrl": settings.base_url,
                    "apiKey": "${" + settings.api_key_env + "}",
                    "api": APIS[settings.provider],
                    "models": [model],
                }
            },
        },
        "tools": {"exec": {"mode": "full"}},
        "session": {"reset": {"mode": "none"}},
        "update": {"checkOnStart": False},
        "telemetry": {"enabled": False},
    }


def _positive_int(options: Mapping[str, str], key: str) -> int:
    raw = options.get(key, "").strip()
    if not raw:
        return 0
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value <= 0:
        raise AgentError(f"{key}={raw!r} must be a positive integer")
    return value
