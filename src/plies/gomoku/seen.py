"""Positions already seen: keep test openings out of the games a net was trained on.

A match against a peer measures a net fairly only from openings it has not been fitted on.
:class:`SeenPositions` indexes the positions of opening sets (Gomocup offset files, each line
one position) and of game files (JSON Lines, optionally gzipped, one game a line with its
``moves`` as pbrain ``x,y``: self-play and annotated training data,
``benchmarks/vs_rapfi.py --games-out`` files), every prefix of every game being a position the game
went through. Positions compare by their black and white stones as offsets from the centre,
under the eight symmetries of the square around it, whatever the order the stones were laid.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from plies.errors import InvalidOption
from plies.gomoku.openings import SYMMETRIES

Offsets = Sequence[tuple[int, int]]  # moves as (dx, dy) from the centre, black first
Key = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


def position_key(moves: Offsets) -> Key:
    """The position the moves make, the same for all eight symmetric images of it and for
    every order in which each side's stones were laid."""
    return min(
        (
            tuple(sorted(f(dx, dy) for dx, dy in moves[0::2])),
            tuple(sorted(f(dx, dy) for dx, dy in moves[1::2])),
        )
        for f in SYMMETRIES
    )


def read_lines(path: Path) -> list[str]:
    """The lines of a text file, unpacked first when its name ends in ``.gz``."""
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                return handle.read().splitlines()
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, EOFError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise InvalidOption(f"cannot read {path}: {reason}") from None


def _game_offsets(record: dict, width: int, height: int) -> list[tuple[int, int]]:
    size = record.get("size")
    if isinstance(size, int):
        width = height = size
    cx, cy = width // 2, height // 2
    offsets = []
    for move in record["moves"]:
        x, y = (int(v) for v in str(move).split(","))
        offsets.append((x - cx, y - cy))
    return offsets


class SeenPositions:
    """The positions of some opening and game files, for the stone counts asked about."""

    def __init__(self, lengths: Iterable[int], width: int = 15, height: int = 15) -> None:
        self.lengths = frozenset(lengths)
        self.width, self.height = width, height
        self._keys: set[Key] = set()
        self.sources: list[str] = []

    def __contains__(self, moves: Offsets) -> bool:
        return position_key(moves) in self._keys

    def add_position(self, moves: Offsets) -> None:
        """One position (only if its stone count is one of ``lengths``)."""
        if len(moves) in self.lengths:
            self._keys.add(position_key(moves))

    def add_game(self, moves: Offsets) -> None:
        """Every position a game went through (of the stone counts asked about)."""
        for n in self.lengths:
            if n <= len(moves):
                self._keys.add(position_key(moves[:n]))

    def add_file(self, path: str | Path) -> int:
        """A game file (JSON Lines, ``.gz`` or not) or an offset file, told apart by their
        first line; the games or openings read. A line that is neither is an error naming it."""
        from plies.arena.openings import parse_offsets

        path = Path(path)
        lines = read_lines(path)
        first = next((s.strip() for s in lines if s.strip() and not s.startswith("#")), "")
        count = 0
        if first.startswith("{"):
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    offsets = _game_offsets(record, self.width, self.height)
                except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                    if number == len(lines):
                        break  # cut short by an interrupted run
                    raise InvalidOption(f"{path}, line {number}: not a game record") from None
                self.add_game(offsets)
                count += 1
        else:
            for number, line in enumerate(lines, 1):
                if not line.split("#", 1)[0].strip():
                    continue
                try:
                    self.add_position(parse_offsets(line))
                except ValueError as exc:
                    raise InvalidOption(f"{path}, line {number}: {exc}") from None
                count += 1
        self.sources.append(path.name)
        return count
