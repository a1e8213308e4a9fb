"""An agent's stdout or stderr, kept as evidence within a byte cap.

Why: an agent can print without end (1.5 GB in one observed turn). Written straight to a file,
that fills the disk and the evidence; read back whole, it fills the harness's memory. So the
harness reads the agent's output through a pipe and keeps, per stream and day, the first half
of the cap on disk as it comes and the last half in a ring in memory, written after a marker
line when the stream ends: what an agent printed first (start-up errors) and last (its result)
survive, the middle is dropped and counted. The agent never blocks on a full pipe: the harness
keeps reading until the stream ends.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..world.untrusted_fs import fresh_file


@dataclass
class Captured:
    """How much a stream carried and what was kept of it."""

    path: Path
    total: int = 0  # bytes the agent wrote
    dropped: int = 0  # bytes not kept (the middle)

    def record(self, name: str) -> dict[str, int]:
        """``{name}_bytes`` and, when something was dropped, ``{name}_dropped_bytes``."""
        out = {f"{name}_bytes": self.total}
        if self.dropped:
            out[f"{name}_dropped_bytes"] = self.dropped
        return out


class CappedOutput:
    """One output stream written to ``path`` (a fresh file: nothing the agent planted there is
    followed), at most ``cap`` bytes of it kept plus one marker line."""

    def __init__(self, path: Path, cap: int) -> None:
        self.info = Captured(Path(path))
        self.cap = cap
        self.head_cap = cap - cap // 2
        self.tail_cap = cap // 2
        self.head = 0  # bytes written to the file so far
        self.tail = bytearray()
        self.fd = fresh_file(self.info.path)

    def feed(self, data: bytes) -> None:
        self.info.total += len(data)
        if self.head < self.head_cap:
            part = data[: self.head_cap - self.head]
            _write_all(self.fd, part)
            self.head += len(part)
            data = data[len(part) :]
        if data:
            self.tail += data
            if len(self.tail) > 2 * self.tail_cap:  # trim now and then: amortised, memory <= 2 x tail
                del self.tail[: len(self.tail) - self.tail_cap]

    def close(self) -> Captured:
        """Write the kept tail (after a marker line when the middle was dropped); idempotent."""
        if self.fd < 0:
            return self.info
        kept = bytes(self.tail[len(self.tail) - self.tail_cap :]) if self.tail_cap else b""
        self.info.dropped = self.info.total - self.head - len(kept)
        try:
            if self.info.dropped:
                _write_all(
                    self.fd,
                    f"\n[clawmark: {self.info.dropped} bytes of output dropped here: at most {self.cap} bytes are kept per stream and day]\n".encode(),
                )
            _write_all(self.fd, kept)
        finally:
            os.close(self.fd)
            self.fd = -1
            self.tail = bytearray()
        return self.info


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]
