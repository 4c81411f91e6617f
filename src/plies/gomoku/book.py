"""Opening books built by plies' own searches: an SQLite file of positions and their moves.

A book holds one game: rule, board size and opening rule (the ``meta`` table, with the build's
settings). Each row of ``moves`` is a position key, a move, the move's search score
(centi-units, for the side to move), the depth of that search, ``visits`` and ``child``, the key
of the position after the move. ``nodes`` lists the positions the build has met, whether it
has searched them yet (so that a build can stop and resume) and ``arrivals``: how many searched
positions' good lines lead there. A move's ``visits`` are its child's arrivals (more than one
means transpositions or symmetric twins).

Positions are keyed under the board's symmetries (8 on a square board, 4 on a rectangle):
the key is the smallest Zobrist hash of the stones over the symmetries, and moves are stored
in that canonical frame, so one entry serves every mirror image and rotation. A probe hashes a
position of ``n`` stones ``symmetries x n`` times in Python (tens of microseconds for a book
position) and makes one indexed query (docs/openings.md: measured under 1 ms).

:mod:`plies.tune.book` builds books; the engine plays a book move at the root
(``Engine(book=...)``), and the review labels book moves.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from plies.errors import InvalidOption
from plies.gomoku import opening_rule
from plies.gomoku.notation import Move

FORMAT = 1
SHIPPED = "books"  # the folder of plies/data holding the shipped books

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS moves (
    key INTEGER NOT NULL, move INTEGER NOT NULL, score INTEGER NOT NULL,
    depth INTEGER NOT NULL, visits INTEGER NOT NULL DEFAULT 0, child INTEGER NOT NULL,
    PRIMARY KEY (key, move)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS nodes (
    key INTEGER PRIMARY KEY, ply INTEGER NOT NULL, stones TEXT NOT NULL,
    searched INTEGER NOT NULL DEFAULT 0, arrivals INTEGER NOT NULL DEFAULT 0
);
"""


def symmetries(width: int, height: int) -> list[Callable[[int, int], tuple[int, int]]]:
    """The board's symmetries as maps of cells: 8 on a square board, 4 on a rectangle (the
    identity first)."""
    w, h = width - 1, height - 1
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda x, y: (x, y),
        lambda x, y: (w - x, y),
        lambda x, y: (x, h - y),
        lambda x, y: (w - x, h - y),
    ]
    if width == height:
        maps += [
            lambda x, y: (y, x),
            lambda x, y: (h - y, x),
            lambda x, y: (y, w - x),
            lambda x, y: (h - y, w - x),
        ]
    return maps


def _inverse(maps, width: int, height: int) -> list[int]:
    """For each symmetry, the index of its inverse."""
    probe = [(1, 2), (3, 1)] if width > 3 and height > 3 else [(0, 1), (1, 0)]
    out = []
    for f in maps:
        for j, g in enumerate(maps):
            if all(g(*f(x, y)) == (x, y) for x, y in probe):
                out.append(j)
                break
    return out


def _signed(key: int) -> int:
    """A uint64 hash as SQLite's signed 64-bit integer."""
    return key - (1 << 64) if key >= 1 << 63 else key


class Keys:
    """Position keys under the symmetries of a ``width`` x ``height`` board."""

    def __init__(self, width: int, height: int) -> None:
        from plies.gomoku.rules import PAD, ZOBRIST

        stride = width + 2 * PAD
        self._zobrist = [
            [
                [int(ZOBRIST[c, (y + PAD) * stride + x + PAD]) for x in range(width)]
                for y in range(height)
            ]  # fmt: skip
            for c in (0, 1, 2)
        ]
        self.maps = symmetries(width, height)
        self.inverse = _inverse(self.maps, width, height)

    def key_of(self, stones: Iterable[tuple[int, int, int]]) -> tuple[int, int]:
        """``(key, symmetry)`` of stones ``(x, y, colour)``: the canonical key and the index of
        the (first) symmetry that maps the position onto its canonical frame."""
        key, frames = self.frames(stones)
        return key, frames[0]

    def frames(self, stones: Iterable[tuple[int, int, int]]) -> tuple[int, list[int]]:
        """The canonical key and every symmetry that maps the position onto it (several when
        the position is itself symmetric: its moves then have twins)."""
        stones = list(stones)
        z = self._zobrist
        hashes = []
        for f in self.maps:
            h = 0
            for x, y, c in stones:
                fx, fy = f(x, y)
                h ^= z[c][fy][fx]
            hashes.append(h)
        best = min(hashes)
        return _signed(best), [i for i, h in enumerate(hashes) if h == best]


@dataclass(frozen=True)
class BookMove:
    """One book move of a position (in the position's own frame)."""

    move: Move
    score: int
    depth: int
    visits: int


class Book:
    """An opening book file (SQLite). ``Book(path)`` opens one for reading and writing;
    :meth:`create` makes a new one for a game. :meth:`probe` answers a board's book moves."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise InvalidOption(f"no opening book at {self.path}")
        try:
            self.db = sqlite3.connect(str(self.path), check_same_thread=False)
            meta = dict(self.db.execute("SELECT key, value FROM meta"))
        except sqlite3.DatabaseError as exc:
            raise InvalidOption(f"{self.path} is not a plies opening book: {exc}") from None
        if int(meta.get("format", -1)) != FORMAT:
            raise InvalidOption(f"{self.path}: book format {meta.get('format')}, not {FORMAT}")
        self.rule = meta["rule"]
        self.width, self.height = int(meta["width"]), int(meta["height"])
        self.opening = meta["opening"]
        self.meta = meta
        self.keys = Keys(self.width, self.height)
        self._maps, self._inverse = self.keys.maps, self.keys.inverse

    @classmethod
    def create(
        cls, path: str | Path, rule: str, width: int, height: int, opening: str, **meta: str
    ) -> Book:
        """A new, empty book for this game (an existing file of the same game is opened;
        another game's is an error)."""
        path = Path(path)
        if path.exists():
            book = cls(path)
            if (book.rule, book.width, book.height, book.opening) != (rule, width, height, opening):
                raise InvalidOption(
                    f"{path} is a book for {book.describe()}, not "
                    f"{_describe(rule, width, height, opening)}"
                )
            return book
        db = sqlite3.connect(str(path))
        db.executescript(_SCHEMA)
        values = {"format": str(FORMAT), "rule": rule, "width": str(width),
                  "height": str(height), "opening": opening, **meta}  # fmt: skip
        db.executemany("INSERT INTO meta VALUES (?, ?)", values.items())
        db.commit()
        db.close()
        return cls(path)

    def describe(self) -> str:
        return _describe(self.rule, self.width, self.height, self.opening)

    def close(self) -> None:
        self.db.close()

    # --- keys --------------------------------------------------------------------------------
    def key_of(self, stones: Iterable[tuple[int, int, int]]) -> tuple[int, int]:
        """:meth:`Keys.key_of` on this book's board."""
        return self.keys.key_of(stones)

    def board_frames(self, board) -> tuple[int, list[int]]:
        """:meth:`Keys.frames` for a :class:`~plies.gomoku.Board`'s stones."""
        self.check_board(board)
        grid = board.to_array()
        ys, xs = grid.nonzero()
        return self.keys.frames(
            (int(x), int(y), int(grid[y, x])) for y, x in zip(ys, xs, strict=True)
        )

    def check_board(self, board) -> None:
        if (board.rule, board.width, board.height) != (self.rule, self.width, self.height):
            raise InvalidOption(
                f"book {self.path.name} is for {self.describe()}, the board is "
                f"{board.rule} {board.width}x{board.height}"
            )

    def to_canonical(self, move: Move, symmetry: int) -> int:
        x, y = self._maps[symmetry](move.x, move.y)
        return y * self.width + x

    def from_canonical(self, cell: int, symmetry: int) -> Move:
        x, y = self._maps[self._inverse[symmetry]](cell % self.width, cell // self.width)
        return Move(x, y)

    # --- reading -----------------------------------------------------------------------------
    def probe(self, board) -> list[BookMove]:
        """The book moves of ``board``'s position, best score first (empty when the position
        is not in the book). Moves the board's rules forbid now are left out; on a symmetric
        position each stored move comes with its symmetric twins."""
        key, frames = self.board_frames(board)
        rows = self.db.execute(
            "SELECT move, score, depth, visits FROM moves WHERE key = ? ORDER BY score DESC",
            (key,),
        ).fetchall()
        out = []
        seen: set[Move] = set()
        for cell, score, depth, visits in rows:
            for sym in frames:
                m = self.from_canonical(cell, sym)
                if m not in seen and board.is_legal(m):
                    seen.add(m)
                    out.append(BookMove(m, score, depth, visits))
        return out

    def playable(self, board, window: int) -> list[BookMove]:
        """The book moves within ``window`` centi-units of the best one (the moves a book
        player may choose, and the review calls book)."""
        moves = self.probe(board)
        if not moves:
            return []
        return [m for m in moves if m.score >= moves[0].score - window]

    def book_plies(self, moves: list[Move], opening: str | None = None) -> int:
        """How many of a game's first moves are book moves: each within the build's window
        of its position's best book move (the review's "book" label). In a book grown from
        root positions (:meth:`root_keys`), the moves up to the last root the game passes
        count too: they are the opening the book starts from."""
        from plies.gomoku.board import Board

        board = Board(width=self.width, height=self.height, rule=self.rule,
                      opening=opening or self.opening)  # fmt: skip
        window = int(self.meta.get("window", 60))
        n = 0
        roots = self.root_keys()
        if roots:
            scan, at_root = board.copy(), None
            for i, m in enumerate(moves[: int(self.meta.get("root_plies", len(moves)))]):
                if not scan.is_legal(m):
                    break
                scan.play(m)
                if self.board_frames(scan)[0] in roots:
                    n, at_root = i + 1, scan.copy()
            if at_root is not None:
                board = at_root
        for m in moves[n:]:
            if m not in {b.move for b in self.playable(board, window)}:
                break
            board.play(m)
            n += 1
        return n

    def root_keys(self) -> set[int]:
        """The keys of the positions the book was grown from (empty: the empty board)."""
        return {int(k) for k in self.meta.get("roots", "").split()}

    def stats(self) -> dict[str, int]:
        """Counts: positions with moves, moves, positions met, positions still to search
        (fewer stones than the build's ``plies``)."""
        one = self.db.execute
        plies = int(self.meta.get("plies", 1 << 30))
        return {
            "positions": one("SELECT COUNT(DISTINCT key) FROM moves").fetchone()[0],
            "moves": one("SELECT COUNT(*) FROM moves").fetchone()[0],
            "nodes": one("SELECT COUNT(*) FROM nodes").fetchone()[0],
            "queued": one(
                "SELECT COUNT(*) FROM nodes WHERE searched = 0 AND ply < ?", (plies,)
            ).fetchone()[0],
        }

    # --- writing (the builder) ---------------------------------------------------------------
    def add_node(self, stones: list[tuple[int, int, int]], ply: int) -> bool:
        """Note a position met by the build; True when it is new."""
        key, _ = self.key_of(stones)
        text = " ".join(f"{x},{y},{c}" for x, y, c in stones)
        cur = self.db.execute(
            "INSERT OR IGNORE INTO nodes (key, ply, stones) VALUES (?, ?, ?)", (key, ply, text)
        )
        return cur.rowcount == 1

    def pending(self, max_ply: int) -> list[tuple[int, list[tuple[int, int, int]]]]:
        """Positions met but not searched yet, up to ``max_ply`` stones, fewest stones first."""
        rows = self.db.execute(
            "SELECT ply, stones FROM nodes WHERE searched = 0 AND ply <= ? ORDER BY ply, key",
            (max_ply,),
        ).fetchall()
        return [(ply, parse_stones(text)) for ply, text in rows]

    def store(self, stones: list[tuple[int, int, int]], lines: list[tuple[Move, int, int]]) -> None:
        """Store a searched position's moves ``(move, score, depth)`` and mark it searched."""
        key, sym = self.key_of(stones)
        color = 1 if len(stones) % 2 == 0 else 2
        rows = []
        for m, score, depth in lines:
            child, _ = self.key_of([*stones, (m.x, m.y, color)])
            rows.append((key, self.to_canonical(m, sym), score, depth, child))
        self.db.executemany(
            "INSERT INTO moves (key, move, score, depth, visits, child) VALUES (?, ?, ?, ?, 0, ?) "
            "ON CONFLICT (key, move) DO UPDATE SET score = excluded.score, depth = excluded.depth",
            rows,
        )
        self.db.execute("UPDATE nodes SET searched = 1 WHERE key = ?", (key,))

    def arrive(self, stones: list[tuple[int, int, int]]) -> None:
        """Count one more arrival at the position of ``stones`` (added first if new)."""
        self.add_node(stones, len(stones))
        key, _ = self.key_of(stones)
        self.db.execute("UPDATE nodes SET arrivals = arrivals + 1 WHERE key = ?", (key,))

    def finish(self) -> None:
        """Set every move's ``visits`` from its child's arrivals, and commit."""
        self.db.execute(
            "UPDATE moves SET visits = COALESCE("
            "(SELECT arrivals FROM nodes WHERE nodes.key = moves.child), 0)"
        )
        self.db.commit()

    def set_meta(self, key: str, value: str) -> None:
        """Set one ``meta`` entry (committed with the next :meth:`commit`)."""
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        self.meta[key] = value

    def commit(self) -> None:
        self.db.commit()


def parse_stones(text: str) -> list[tuple[int, int, int]]:
    """Stones written ``x,y,colour x,y,colour ...``."""
    out = []
    for item in text.split():
        x, y, c = item.split(",")
        out.append((int(x), int(y), int(c)))
    return out


def _describe(rule: str, width: int, height: int, opening: str) -> str:
    size = str(width) if width == height else f"{width}x{height}"
    extra = "" if opening == opening_rule.default_opening(rule) else f" ({opening} opening)"
    return f"{rule} {size}{extra}"


def shipped_name(rule: str, width: int, height: int, opening: str) -> str:
    """The file name of the shipped book for this game (it may not exist)."""
    size = str(width) if width == height else f"{width}x{height}"
    suffix = "" if opening == opening_rule.default_opening(rule) else f"-{opening}"
    return f"{rule}-{size}{suffix}.sqlite"


def shipped_book(rule: str, width: int, height: int, opening: str) -> Path | None:
    """The path of the book shipped for this game, or None."""
    name = shipped_name(rule, width, height, opening)
    path = Path(str(resources.files("plies.data").joinpath(SHIPPED, name)))
    return path if path.is_file() else None


def resolve_book(spec: str | None, rule: str, width: int, height: int, opening: str):
    """A :class:`Book` for ``spec``: ``default`` (the shipped one for the game, or None when
    there is none), ``off`` / None (None), or a path."""
    if spec is None or spec == "off":
        return None
    if spec == "default":
        path = shipped_book(rule, width, height, opening)
        return Book(path) if path is not None else None
    book = Book(spec)
    if (book.rule, book.width, book.height) != (rule, width, height):
        raise InvalidOption(
            f"book {spec} is for {book.describe()}, not {_describe(rule, width, height, opening)}"
        )
    return book
