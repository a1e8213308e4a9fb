"""Agents: the protocol and the built-in adapters (reference, noop, command)."""

from .base import Agent, AgentError, AgentSession, AgentView, ToolCall, TurnTrace
from .registry import available, make_agent

__all__ = ["Agent", "AgentError", "AgentSession", "AgentView", "ToolCall", "TurnTrace", "available", "make_agent"]
