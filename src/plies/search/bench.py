"""The report every ``plies bench <game>`` prints: total nodes, nodes per second, signature."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any


@dataclass
class BenchReport:
    """``lines`` are per-position records with a ``result.nodes`` count; ``seconds`` is the
    search time summed over them. The signature (CRC32 of the node counts) changes only when
    search behaviour changes."""

    lines: list[Any]
    nodes: int
    seconds: float

    @property
    def nps(self) -> int:
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0

    @property
    def signature(self) -> str:
        counts = ",".join(str(line.result.nodes) for line in self.lines)
        return f"{zlib.crc32(counts.encode()):08x}"
