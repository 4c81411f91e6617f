"""A slow, deliberately simple reference implementation of the Gomoku-family rules.

This is the oracle the tests compare the compiled kernels against. It is written from the
rule definitions in docs/rules.md, independently of ``plies.gomoku.rules`` (which it must never
import): a position is a plain dict of stones, lines are scanned cell by cell, and the Renju
forbidden-move check is a direct recursive transcription of the RIF definition. It favours
obviousness over speed (its one shortcut, in :func:`forbidden_points`, says why it is safe).

Conventions: a cell is ``(x, y)``, x = column from the left, y = row from the top, both
0-based; colours are ``BLACK = 1`` and ``WHITE = 2``; an empty cell is ``EMPTY = 0`` and a
cell off the board reads as ``None`` (the edge: it is neither empty nor a stone).
"""

from __future__ import annotations

from collections.abc import Iterable

EMPTY = 0
BLACK = 1
WHITE = 2

RULES = ("freestyle", "standard", "renju", "caro", "caro5")

# The four lines through a cell, as steps (dx, dy): horizontal, vertical, diagonal "\" and
# anti-diagonal "/".
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1))

Cell = tuple[int, int]


def other(color: int) -> int:
    return WHITE if color == BLACK else BLACK


def step(cell: Cell, d: Cell, k: int) -> Cell:
    """The cell ``k`` steps from ``cell`` along direction ``d`` (k may be negative)."""
    return (cell[0] + k * d[0], cell[1] + k * d[1])


class Position:
    """Stones on a ``width`` x ``height`` board: ``stones`` maps (x, y) to BLACK or WHITE."""

    def __init__(self, width: int, height: int, stones: dict[Cell, int] | None = None):
        self.width = width
        self.height = height
        self.stones: dict[Cell, int] = dict(stones or {})

    def on_board(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def get(self, cell: Cell) -> int | None:
        """The colour on ``cell``: EMPTY, BLACK, WHITE, or None off the board."""
        if not self.on_board(cell):
            return None
        return self.stones.get(cell, EMPTY)

    def with_stone(self, cell: Cell, color: int) -> Position:
        """A new position with one more stone (this one is left unchanged)."""
        assert self.get(cell) == EMPTY, f"{cell} is not an empty cell"
        stones = dict(self.stones)
        stones[cell] = color
        return Position(self.width, self.height, stones)

    def cells(self) -> list[Cell]:
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def empty_cells(self) -> list[Cell]:
        return [c for c in self.cells() if self.get(c) == EMPTY]

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int]]) -> Position:
        """A position from a 2D list: ``rows[y][x]`` is 0, 1 or 2."""
        grid = [list(r) for r in rows]
        height = len(grid)
        width = len(grid[0]) if grid else 0
        stones = {(x, y): v for y, r in enumerate(grid) for x, v in enumerate(r) if v}
        return cls(width, height, stones)


# --- wins ----------------------------------------------------------------------------------


def run_through(pos: Position, cell: Cell, d: Cell) -> list[Cell]:
    """The unbroken run of stones of ``cell``'s colour through ``cell`` along ``d``, in order."""
    color = pos.get(cell)
    assert color in (BLACK, WHITE)
    start = cell
    while pos.get(step(start, d, -1)) == color:
        start = step(start, d, -1)
    run = [start]
    while pos.get(step(run[-1], d, 1)) == color:
        run.append(step(run[-1], d, 1))
    return run


def is_winning_run(pos: Position, run: list[Cell], d: Cell, rule: str) -> bool:
    """Whether an unbroken run (as returned by :func:`run_through`) wins under ``rule``."""
    assert rule in RULES, rule
    color = pos.get(run[0])
    n = len(run)
    before = pos.get(step(run[0], d, -1))
    after = pos.get(step(run[-1], d, 1))
    # Caro: the run is dead when an opponent stone sits right at each end. The edge
    # (None) is not an opponent stone.
    blocked_both = before == other(color) and after == other(color)
    if rule == "freestyle":
        return n >= 5
    if rule == "standard":
        return n == 5
    if rule == "renju":
        return n == 5 if color == BLACK else n >= 5
    if rule == "caro":
        return n >= 5 and not blocked_both
    return n == 5 and not blocked_both  # caro5


def winning_lines(pos: Position, cell: Cell, rule: str) -> list[list[Cell]]:
    """Every winning run through the stone on ``cell`` (in DIRECTIONS order), or []."""
    lines = []
    for d in DIRECTIONS:
        run = run_through(pos, cell, d)
        if is_winning_run(pos, run, d, rule):
            lines.append(run)
    return lines


# --- Renju forbidden moves -----------------------------------------------------------------


def makes_exact_five(pos: Position, cell: Cell) -> bool:
    """Black stone on ``cell`` is part of a run of exactly five in some line."""
    return any(len(run_through(pos, cell, d)) == 5 for d in DIRECTIONS)


def makes_overline(pos: Position, cell: Cell) -> bool:
    """Black stone on ``cell`` is part of a run of six or more in some line."""
    return any(len(run_through(pos, cell, d)) >= 6 for d in DIRECTIONS)


def fours(pos: Position, cell: Cell) -> set[frozenset[Cell]]:
    """The fours the black stone on ``cell`` belongs to, each as its set of four stones.

    A four is four black stones in a window of five consecutive cells whose fifth cell is
    empty, such that filling it gives exactly five (the cells just outside the window are not
    black). ``.XXXX.`` is ONE four (two ways to complete the same stones); ``X.XXX.X`` seen
    from the middle stones is TWO fours.
    """
    found: set[frozenset[Cell]] = set()
    for d in DIRECTIONS:
        for start in range(-4, 1):
            window = [step(cell, d, start + i) for i in range(5)]
            colors = [pos.get(c) for c in window]
            if colors.count(BLACK) != 4 or colors.count(EMPTY) != 1:
                continue
            if pos.get(step(cell, d, start - 1)) == BLACK:
                continue
            if pos.get(step(cell, d, start + 5)) == BLACK:
                continue
            found.add(frozenset(c for c in window if pos.get(c) == BLACK))
    return found


def three_candidates(pos: Position, cell: Cell) -> dict[frozenset[Cell], set[Cell]]:
    """The threes the black stone on ``cell`` belongs to, ignoring forbidden completions.

    Maps each three (its set of three black stones, ``cell`` among them) to the empty cells
    that turn it into a straight four: four black stones in a row with an empty cell at each
    end (on the board), where both completions give exactly five (the cells beyond the ends
    are not black).
    """
    found: dict[frozenset[Cell], set[Cell]] = {}
    for d in DIRECTIONS:
        for start in range(-3, 1):
            window = [step(cell, d, start + i) for i in range(4)]
            colors = [pos.get(c) for c in window]
            if colors.count(BLACK) != 3 or colors.count(EMPTY) != 1:
                continue
            if pos.get(step(cell, d, start - 1)) != EMPTY:
                continue
            if pos.get(step(cell, d, start + 4)) != EMPTY:
                continue
            if pos.get(step(cell, d, start - 2)) == BLACK:
                continue
            if pos.get(step(cell, d, start + 5)) == BLACK:
                continue
            three = frozenset(c for c in window if pos.get(c) == BLACK)
            point = next(c for c in window if pos.get(c) == EMPTY)
            found.setdefault(three, set()).add(point)
    return found


def real_threes(pos: Position, cell: Cell) -> list[frozenset[Cell]]:
    """The threes through ``cell`` that some NOT forbidden move turns into a straight four."""
    return [
        three
        for three, points in three_candidates(pos, cell).items()
        if any(not is_forbidden(pos, p) for p in points)
    ]


def forbidden_reason(pos: Position, cell: Cell) -> str | None:
    """Why black may not play on the empty ``cell`` under Renju, or None if black may.

    Returns "overline", "double-four" or "double-three". A move that makes exactly five is
    never forbidden, whatever else it makes.
    """
    assert pos.get(cell) == EMPTY, f"{cell} is not an empty cell"
    after = pos.with_stone(cell, BLACK)
    if makes_exact_five(after, cell):
        return None
    if makes_overline(after, cell):
        return "overline"
    if len(fours(after, cell)) >= 2:
        return "double-four"
    if len(three_candidates(after, cell)) >= 2 and len(real_threes(after, cell)) >= 2:
        return "double-three"
    return None


def is_forbidden(pos: Position, cell: Cell) -> bool:
    """Whether black may not play on the empty ``cell`` under Renju (recursive RIF rule)."""
    return forbidden_reason(pos, cell) is not None


def black_stones_in_reach(pos: Position, cell: Cell) -> int:
    """Black stones at most five cells from ``cell`` along its four lines."""
    return sum(
        pos.get(step(cell, d, k)) == BLACK
        for d in DIRECTIONS
        for k in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)
    )


def forbidden_points(pos: Position) -> set[Cell]:
    """Every empty cell where black may not play under Renju.

    Only a shortcut for speed: a cell with fewer than three black stones in reach cannot be
    forbidden (an overline needs five more stones, two fours or two threes at least three).
    """
    return {
        c for c in pos.empty_cells() if black_stones_in_reach(pos, c) >= 3 and is_forbidden(pos, c)
    }


# --- a game ----------------------------------------------------------------------------------


class Game:
    """A game from the empty board: black moves first, then the colours alternate.

    ``forbidden`` (Renju only): "illegal" means black may not play a forbidden move;
    "loses" means black may, and white wins at once.
    """

    def __init__(self, width: int, height: int, rule: str, forbidden: str = "illegal"):
        assert rule in RULES, rule
        assert forbidden in ("illegal", "loses"), forbidden
        self.pos = Position(width, height)
        self.rule = rule
        self.forbidden = forbidden
        self.history: list[Cell] = []
        self.winner = 0
        self.lines: list[list[Cell]] = []
        self.lost_by_forbidden = False

    @property
    def to_move(self) -> int:
        return BLACK if len(self.history) % 2 == 0 else WHITE

    @property
    def is_over(self) -> bool:
        """A win, a full board, or (Renju) black to move with every empty cell forbidden: a
        draw, as if the board were full."""
        if self.winner != 0 or len(self.pos.stones) == self.pos.width * self.pos.height:
            return True
        if self.rule == "renju" and self.to_move == BLACK:
            return all(is_forbidden(self.pos, cell) for cell in self.pos.empty_cells())
        return False

    def is_legal(self, cell: Cell) -> bool:
        if self.is_over or self.pos.get(cell) != EMPTY:
            return False
        if self.rule == "renju" and self.to_move == BLACK and self.forbidden == "illegal":
            return not is_forbidden(self.pos, cell)
        return True

    def legal_moves(self) -> set[Cell]:
        if self.is_over:
            return set()
        moves = set(self.pos.empty_cells())
        if self.rule == "renju" and self.to_move == BLACK and self.forbidden == "illegal":
            moves -= forbidden_points(self.pos)
        return moves

    def play(self, cell: Cell) -> None:
        assert self.is_legal(cell), f"{cell} is not legal"
        color = self.to_move
        forbidden = self.rule == "renju" and color == BLACK and is_forbidden(self.pos, cell)
        self.pos = self.pos.with_stone(cell, color)
        self.history.append(cell)
        if forbidden:  # only reachable with forbidden="loses"
            self.winner = WHITE
            self.lost_by_forbidden = True
            return
        self.lines = winning_lines(self.pos, cell, self.rule)
        if self.lines:
            self.winner = color

    @classmethod
    def from_moves(
        cls, moves: Iterable[Cell], width: int, height: int, rule: str, forbidden: str = "illegal"
    ) -> Game:
        game = cls(width, height, rule, forbidden)
        for m in moves:
            game.play(m)
        return game
