"""The 26 standard Renju openings, with their names, and opening books given as move lists.

The data (three stones each, 15x15 pbrain coordinates) is ``plies/data/renju26.txt``: numbers
1-13 are the direct openings (white's first stone orthogonally next to the centre stone),
14-26 the indirect ones (diagonally next to it). An opening is recognised under the eight
symmetries of the board around the first stone, which must stand on the centre.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from plies.errors import InvalidRecord
from plies.gomoku.notation import Move, parse_moves

# traditional (Japanese) names, their Sino-Vietnamese reading, in the data file's order
_NAMES: tuple[tuple[str, str], ...] = (
    ("Kansei", "Hàn Tinh"),
    ("Keigetsu", "Khê Nguyệt"),
    ("Sosei", "Sơ Tinh"),
    ("Kagetsu", "Hoa Nguyệt"),
    ("Zangetsu", "Tàn Nguyệt"),
    ("Ugetsu", "Vũ Nguyệt"),
    ("Kinsei", "Kim Tinh"),
    ("Shogetsu", "Tùng Nguyệt"),
    ("Kyugetsu", "Khâu Nguyệt"),
    ("Shingetsu", "Tân Nguyệt"),
    ("Zuisei", "Thụy Tinh"),
    ("Sangetsu", "Sơn Nguyệt"),
    ("Yusei", "Du Tinh"),
    ("Chosei", "Trường Tinh"),
    ("Kyogetsu", "Hiệp Nguyệt"),
    ("Kosei", "Hằng Tinh"),
    ("Suigetsu", "Thủy Nguyệt"),
    ("Ryusei", "Lưu Tinh"),
    ("Ungetsu", "Vân Nguyệt"),
    ("Hogetsu", "Phổ Nguyệt"),
    ("Rangetsu", "Lam Nguyệt"),
    ("Gingetsu", "Ngân Nguyệt"),
    ("Myojo", "Minh Tinh"),
    ("Shagetsu", "Tà Nguyệt"),
    ("Meigetsu", "Danh Nguyệt"),
    ("Suisei", "Tuệ Tinh"),
)

SYMMETRIES = (
    lambda dx, dy: (dx, dy),
    lambda dx, dy: (-dx, dy),
    lambda dx, dy: (dx, -dy),
    lambda dx, dy: (-dx, -dy),
    lambda dx, dy: (dy, dx),
    lambda dx, dy: (-dy, dx),
    lambda dx, dy: (dy, -dx),
    lambda dx, dy: (-dy, -dx),
)


@dataclass(frozen=True)
class RenjuOpening:
    """One of the 26 openings: ``number`` 1-26, names, ``direct`` or ``indirect``, and its
    three stones on a 15x15 board."""

    number: int
    name: str
    name_vi: str
    kind: str
    moves: tuple[Move, Move, Move]

    def moves_on(self, width: int, height: int) -> tuple[Move, ...]:
        """The three stones centred on a ``width`` x ``height`` board."""
        cx, cy = width // 2, height // 2
        return tuple(Move(m.x - 7 + cx, m.y - 7 + cy) for m in self.moves)


def renju_openings() -> list[RenjuOpening]:
    """The 26 standard Renju openings, numbered in the usual order."""
    text = resources.files("plies.data").joinpath("renju26.txt").read_text("utf-8")
    openings: list[RenjuOpening] = []
    for line in text.splitlines():
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        cells = [tuple(int(v) for v in pair.split(",")) for pair in body.split()]
        number = len(openings) + 1
        name, name_vi = _NAMES[number - 1]
        stones = tuple(Move(x, y) for x, y in cells)
        kind = "direct" if number <= 13 else "indirect"
        openings.append(RenjuOpening(number, name, name_vi, kind, stones))  # type: ignore[arg-type]
    return openings


def _offsets(moves: Sequence[Move], width: int, height: int) -> list[tuple[int, int]] | None:
    cx, cy = width // 2, height // 2
    if not moves or (moves[0].x, moves[0].y) != (cx, cy):
        return None
    return [(m.x - cx, m.y - cy) for m in moves]


def _variants(offsets: Sequence[tuple[int, int]]) -> set[tuple[tuple[int, int], ...]]:
    return {tuple(f(dx, dy) for dx, dy in offsets) for f in SYMMETRIES}


def identify_renju_opening(
    moves: Sequence[Move], width: int = 15, height: int = 15
) -> RenjuOpening | None:
    """The Renju opening the game's first three moves form (any symmetry), or None."""
    if len(moves) < 3:
        return None
    game = _offsets(moves[:3], width, height)
    if game is None:
        return None
    for opening in renju_openings():
        ref = _offsets(opening.moves, 15, 15)
        assert ref is not None
        if tuple(game) in _variants(ref):
            return opening
    return None


class OpeningBook:
    """Move sequences known as book: a move is book when the game up to and including it is a
    prefix of some line, under the eight symmetries around the centre stone.

    ``OpeningBook.renju(width, height)`` holds the 26 Renju openings; :meth:`load` reads a
    file with one line of moves (``h8 h9 i10`` or ``7,7 7,6 8,5``) per line.
    """

    def __init__(self, lines: Iterable[Sequence[Move]], width: int = 15, height: int = 15):
        self.width, self.height = width, height
        self._prefixes: set[tuple[tuple[int, int], ...]] = set()
        for line in lines:
            offsets = _offsets(list(line), width, height)
            if offsets is None:
                continue
            for variant in _variants(offsets):
                for n in range(1, len(variant) + 1):
                    self._prefixes.add(variant[:n])

    @classmethod
    def renju(cls, width: int = 15, height: int = 15) -> OpeningBook:
        """The book of the 26 Renju openings (three moves each) on this board."""
        return cls([o.moves_on(width, height) for o in renju_openings()], width, height)

    @classmethod
    def load(cls, path: str | Path, width: int = 15, height: int = 15) -> OpeningBook:
        """A book from a text file (``-``: standard input): one line of moves per line, ``#``
        comments."""
        lines = []
        try:
            if str(path) == "-":
                import sys

                text, path = sys.stdin.read(), "<stdin>"
            else:
                text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            reason = exc.strerror or exc
            raise InvalidRecord(f"cannot read book: {reason}", source=str(path)) from None
        for number, raw in enumerate(text.splitlines(), 1):
            body = raw.split("#", 1)[0].strip()
            if not body:
                continue
            try:
                lines.append(parse_moves(body, width, height))
            except Exception as exc:
                raise InvalidRecord(str(exc), line=number, source=str(path)) from None
        return cls(lines, width, height)

    def merge(self, other: OpeningBook) -> OpeningBook:
        """This book and ``other`` together."""
        book = OpeningBook([], self.width, self.height)
        book._prefixes = self._prefixes | other._prefixes
        return book

    def book_plies(self, moves: Sequence[Move]) -> int:
        """How many of the game's first moves are book moves."""
        offsets = _offsets(list(moves), self.width, self.height)
        if offsets is None:
            return 0
        n = 0
        while n < len(offsets) and tuple(offsets[: n + 1]) in self._prefixes:
            n += 1
        return n
