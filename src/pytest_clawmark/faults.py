"""Seeded fault injection on the agent plane: profiles, the per-world plan, the fault ledger.

Why: real services fail — rate limits, 5xx, slow answers, dropped IMAP connections, SMTP's
temporary refusals — and an agent that gives up (or retries a write blindly) on the first one is
not a coworker anyone can rely on. Claw-Eval found that injected errors leave pass@3 nearly
unchanged but cut pass^3 by up to 24 points: consistency, not peak capability, is what breaks. Here
faults are a reproducible measurement over the real protocols (docs/robustness.md).

Rules the rest of the harness relies on:

* **Only the agent plane** sees faults, and only while the agent works a turn (:meth:`FaultPlan.
  agent_turn`): turn setups, the admin plane, checkers and snapshots never do.
* **All or nothing:** a fault is decided before the request reaches the service, so a faulted
  write is not applied at all (never half-applied); added latency delays a request that then
  runs normally.
* **Deterministic:** whether request *n* of a service's stream on day *d* fails, and how, is a
  pure function of (seed, world key, day, stream, n): the same seed gives the same faults at the
  same requests to a deterministic agent. Streams are counted apart (``kb``, ``sheets``,
  ``calendar``, ``imap``, ``smtp``) so that one service's traffic does not move another's faults.
* **On the record:** every injected fault is appended to the world's audit log (service, the
  operation, ``fault: <kind>``, the status the agent got) and to the plan's ledger, which also
  counts *recoveries*: a later successful request of the same operation on the same stream.
"""

from __future__ import annotations

import hashlib
import json
import threading
import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .world.untrusted_fs import write_replacing

__all__ = [
    "FAULT_KINDS",
    "PROFILES",
    "Fault",
    "FaultGate",
    "FaultPlan",
    "FaultProfile",
    "FaultProfileError",
    "parse_profile",
]

FAULT_KINDS: dict[str, tuple[str, ...]] = {
    "kb": ("rate_limit", "server_error", "unavailable", "latency"),
    "sheets": ("rate_limit", "server_error", "unavailable", "latency"),
    "calendar": ("unavailable", "latency"),
    "imap": ("unavailable", "bye", "drop", "latency"),
    "smtp": ("temporary", "closing", "latency"),
}
"""Per stream, the kinds a profile may give a rate to (in the order a draw tries them):

* ``rate_limit``: HTTP 429 with ``Retry-After`` (Notion's ``rate_limited``, Google's
  ``RESOURCE_EXHAUSTED``); ``server_error``: 500; ``unavailable``: 503 (CalDAV: with
  ``Retry-After``) or, on IMAP, a tagged ``NO [UNAVAILABLE]``;
* ``bye``: IMAP ``* BYE [UNAVAILABLE]`` and the connection closed; ``drop``: the connection closed
  without a word;
* ``temporary``: SMTP ``451 4.3.0`` at DATA; ``closing``: SMTP ``421 4.3.2`` at MAIL FROM (the
  client must reconnect);
* ``latency``: the request waits ``latency_ms`` first, then runs normally (never an error).
"""

STREAMS = {"kb": "kb", "sheets": "sheets", "calendar": "calendar", "imap": "mail", "smtp": "mail"}
"""Fault streams and the world service each belongs to (mail has two protocols, two streams)."""


class FaultProfileError(ValueError):
    """A fault profile that cannot be used, with what was wrong and what is accepted."""


@dataclass(frozen=True)
class FaultProfile:
    """How often each kind of fault hits each stream: probabilities per request."""

    name: str
    rates: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    latency_ms: int = 200
    retry_after: int = 1

    @property
    def active(self) -> bool:
        return any(r > 0 for kinds in self.rates.values() for r in kinds.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rates": {s: dict(sorted(k.items())) for s, k in sorted(self.rates.items()) if k},
            "latency_ms": self.latency_ms,
            "retry_after": self.retry_after,
        }


PROFILES: dict[str, FaultProfile] = {
    "none": FaultProfile("none"),
    "light": FaultProfile(
        "light",
        {
            "kb": {"rate_limit": 0.03, "server_error": 0.01, "latency": 0.03},
            "sheets": {"rate_limit": 0.03, "server_error": 0.01, "latency": 0.03},
            "calendar": {"unavailable": 0.03, "latency": 0.03},
            "imap": {"unavailable": 0.02, "bye": 0.01, "latency": 0.02},
            "smtp": {"temporary": 0.03, "closing": 0.01},
        },
    ),
    "heavy": FaultProfile(
        "heavy",
        {
            "kb": {"rate_limit": 0.10, "server_error": 0.04, "unavailable": 0.03, "latency": 0.10},
            "sheets": {"rate_limit": 0.10, "server_error": 0.04, "unavailable": 0.03, "latency": 0.10},
            "calendar": {"unavailable": 0.12, "latency": 0.10},
            "imap": {"unavailable": 0.06, "bye": 0.04, "drop": 0.02, "latency": 0.06},
            "smtp": {"temporary": 0.08, "closing": 0.04},
        },
    ),
}
"""The named profiles. ``light``: what a busy SaaS day looks like (a few percent of requests);
``heavy``: an outage-prone day (about a fifth of requests fail or stall)."""

_SETTINGS = ("latency_ms", "retry_after")


def _custom(name: str, pairs: Iterator[tuple[str, Any]], base: FaultProfile) -> FaultProfile:
    rates: dict[str, dict[str, float]] = {s: dict(k) for s, k in base.rates.items()}
    settings = {"latency_ms": base.latency_ms, "retry_after": base.retry_after}
    for key, raw in pairs:
        if key in _SETTINGS:
            try:
                value = int(raw)
            except (TypeError, ValueError):
                raise FaultProfileError(f"fault profile {name!r}: {key} must be a whole number, not {raw!r}") from None
            low, high = (0, 10_000) if key == "latency_ms" else (1, 60)  # Retry-After: whole seconds, 1 at least
            if not low <= value <= high:
                raise FaultProfileError(f"fault profile {name!r}: {key}={value} is out of range ({low}-{high})")
            settings[key] = value
            continue
        stream, _, kind = key.partition(".")
        if stream not in FAULT_KINDS or kind not in FAULT_KINDS[stream]:
            known = "; ".join(f"{s}.{{{','.join(k)}}}" for s, k in FAULT_KINDS.items())
            raise FaultProfileError(
                f"fault profile {name!r}: unknown rate {key!r} (known: {known}; settings: {', '.join(_SETTINGS)})"
            )
        try:
            rate = float(raw)
        except (TypeError, ValueError):
            raise FaultProfileError(f"fault profile {name!r}: {key} must be a probability, not {raw!r}") from None
        if not 0.0 <= rate <= 1.0:
            raise FaultProfileError(f"fault profile {name!r}: {key}={rate} is not a probability in [0, 1]")
        rates.setdefault(stream, {})[kind] = rate
    for stream, kinds in rates.items():
        if sum(kinds.values()) > 1.0 + 1e-9:
            raise FaultProfileError(f"fault profile {name!r}: the rates of {stream} add up to more than 1")
    return FaultProfile(name, rates, settings["latency_ms"], settings["retry_after"])


def parse_profile(text: str) -> FaultProfile:
    """A profile from what a user types: a name (``none``, ``light``, ``heavy``), an inline list
    (``light,kb.rate_limit=0.2,latency_ms=500`` — an optional named base first, then
    ``stream.kind=rate`` and settings), or the path of a TOML file (tables per stream, optional
    ``base = "light"`` and settings at the top)."""
    spec = text.strip()
    if not spec:
        return PROFILES["none"]
    if spec in PROFILES:
        return PROFILES[spec]
    if spec.endswith(".toml") or Path(spec).is_file():
        path = Path(spec)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise FaultProfileError(f"fault profile file {spec!r}: {exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise FaultProfileError(f"fault profile file {spec!r} is not valid TOML: {exc}") from None
        base = PROFILES.get(str(data.pop("base", "none")))
        if base is None:
            raise FaultProfileError(f"fault profile file {spec!r}: base must be one of {', '.join(PROFILES)}")

        def pairs() -> Iterator[tuple[str, Any]]:
            for key, value in data.items():
                if isinstance(value, dict):
                    for kind, rate in value.items():
                        yield f"{key}.{kind}", rate
                else:
                    yield key, value

        return _custom(path.stem, pairs(), base)
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    base = PROFILES["none"]
    if parts and "=" not in parts[0]:
        if parts[0] not in PROFILES:
            raise FaultProfileError(
                f"unknown fault profile {parts[0]!r} (known: {', '.join(PROFILES)}; or stream.kind=rate pairs, "
                "or a .toml file; see docs/robustness.md)"
            )
        base = PROFILES[parts.pop(0)]
    for p in parts:
        if "=" not in p:
            raise FaultProfileError(f"fault profile {spec!r}: {p!r} is not a stream.kind=rate pair")
    return _custom("custom", ((k.strip(), v.strip()) for k, v in (p.split("=", 1) for p in parts)), base)


def draw(seed: int, world: str, day: int, stream: str, n: int) -> float:
    """A uniform number in [0, 1) for request ``n`` of ``stream`` on ``day`` (pure: no state)."""
    digest = hashlib.sha256(f"{seed}\0{world}\0{day}\0{stream}\0{n}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


@dataclass
class Fault:
    """One injected fault, as the evidence and the robustness figures count it."""

    day: int
    stream: str
    n: int  # the request's number in its stream that day
    kind: str
    operation: str
    status: str  # what the agent got: "429", "NO", "BYE", "451"...
    recovered: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "service": STREAMS[self.stream],
            "stream": self.stream,
            "request": self.n,
            "kind": self.kind,
            "operation": self.operation,
            "status": self.status,
            "recovered": self.recovered,
        }


AuditSink = Callable[[str, str, str, str, str], None]
"""``(service, operation, target, summary, status)``: the world's audit log."""


class FaultPlan:
    """The faults of one world (one trial of one task): decided per request, recorded, counted."""

    def __init__(self, profile: FaultProfile, seed: int, world: str) -> None:
        self.profile = profile
        self.seed = seed
        self.world = world
        self.day = 0
        self.ledger: list[Fault] = []
        self._unrecovered: dict[tuple[str, str], list[Fault]] = {}  # by (stream, operation)
        self._active = False
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()
        self._audit: AuditSink | None = None

    def attach(self, audit: AuditSink) -> None:
        self._audit = audit

    def gate(self, stream: str) -> FaultGate:
        if stream not in FAULT_KINDS:
            raise ValueError(f"unknown fault stream {stream!r}")
        return FaultGate(self, stream)

    @contextmanager
    def agent_turn(self, day: int) -> Iterator[None]:
        """Faults apply while the agent works ``day`` (request numbers start again each day)."""
        with self._lock:
            self.day, self._counts, self._active = day, {}, self.profile.active
        try:
            yield
        finally:
            with self._lock:
                self._active = False

    def decide(self, stream: str) -> tuple[str | None, int]:
        """The fault kind for the next request of ``stream`` (None: none) and its number."""
        with self._lock:
            if not self._active:
                return None, 0
            n = self._counts.get(stream, 0) + 1
            self._counts[stream] = n
            day = self.day
        rates = self.profile.rates.get(stream, {})
        u = draw(self.seed, self.world, day, stream, n)
        cumulative = 0.0
        for kind in FAULT_KINDS[stream]:
            cumulative += rates.get(kind, 0.0)
            if u < cumulative:
                return kind, n
        return None, n

    def injected(self, stream: str, n: int, kind: str, operation: str, target: str, status: str) -> None:
        fault = Fault(self.day, stream, n, kind, operation, status, recovered=kind == "latency")
        with self._lock:
            self.ledger.append(fault)
            if not fault.recovered:
                self._unrecovered.setdefault((stream, operation), []).append(fault)
        if self._audit is not None:
            summary = f"fault: {kind} (request {n} of {stream} on day {self.day}; injected by --clawmark-faults)"
            self._audit(STREAMS[stream], operation, target, summary, status)

    def succeeded(self, stream: str, operation: str) -> None:
        """A request of ``operation`` on ``stream`` succeeded: earlier faults of it are recovered."""
        with self._lock:
            for f in self._unrecovered.pop((stream, operation), ()):
                f.recovered = True

    def faults(self, day: int | None = None) -> list[Fault]:
        with self._lock:
            return [f for f in self.ledger if day is None or f.day == day]

    def save(self, folder: Path, day: int) -> Path:
        """The day's faults as evidence (``faults.json`` beside the day's audit log)."""
        path = folder / "faults.json"
        doc = {"profile": self.profile.to_json(), "seed": self.seed, "day": day}
        doc["faults"] = [f.to_json() for f in self.faults(day)]
        write_replacing(path, json.dumps(doc, sort_keys=True, indent=1) + "\n")
        return path

    def summary(self) -> dict[str, Any]:
        """Counts for the results: errors injected and recovered (latency counted apart)."""
        with self._lock:
            errors = [f for f in self.ledger if f.kind != "latency"]
            delays = sum(1 for f in self.ledger if f.kind == "latency")
            by_service: dict[str, dict[str, int]] = {}
            for f in errors:
                row = by_service.setdefault(STREAMS[f.stream], {"injected": 0, "recovered": 0})
                row["injected"] += 1
                row["recovered"] += int(f.recovered)
        return {
            "injected": len(errors),
            "recovered": sum(int(f.recovered) for f in errors),
            "delays": delays,
            "by_service": dict(sorted(by_service.items())),
        }


class FaultGate:
    """One stream's view of the plan, what a server's hook calls."""

    def __init__(self, plan: FaultPlan, stream: str) -> None:
        self.plan = plan
        self.stream = stream

    @property
    def profile(self) -> FaultProfile:
        return self.plan.profile

    def decide(self) -> tuple[str | None, int]:
        return self.plan.decide(self.stream)

    def injected(self, n: int, kind: str, operation: str, target: str, status: str) -> None:
        self.plan.injected(self.stream, n, kind, operation, target, status)

    def succeeded(self, operation: str) -> None:
        self.plan.succeeded(self.stream, operation)
