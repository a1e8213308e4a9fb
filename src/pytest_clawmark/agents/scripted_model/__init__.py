"""An offline, deterministic model server that replays a script of assistant turns.

It speaks the OpenAI Chat Completions and the Anthropic Messages APIs (JSON and streaming), so a
real agent framework (OpenClaw...) can run a task end to end with no API key and no network:
the script's tool calls are, for example, the shell commands of a task's reference solution.
See docs/agents.md ("The scripted model") for the script format.
"""

from .replay import Reply, choose
from .script import Script, ScriptError, load_script, parse_script
from .server import ScriptedModelServer, serve_forever

__all__ = [
    "Reply",
    "Script",
    "ScriptError",
    "ScriptedModelServer",
    "choose",
    "load_script",
    "parse_script",
    "serve_forever",
]
