"""The Python API of a Gomoku-family board: a thin wrapper over the rules kernels."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np

from plies.errors import ForbiddenMove, GameOver, InvalidMove, InvalidOption
from plies.gomoku import opening_rule, rules
from plies.gomoku.notation import COLUMN_LETTERS, Move, parse_move
from plies.gomoku.rules import BLACK, EMPTY, PAD, WHITE

MoveLike = Move | str | tuple[int, int]
ForbiddenMode = Literal["illegal", "loses"]

STONE_CHARS = {EMPTY: ".", BLACK: "X", WHITE: "O"}
COLOR_NAMES = {BLACK: "black", WHITE: "white"}


def rule_code(rule: str | int) -> int:
    """The kernel code of a rule name (freestyle, standard, renju, caro, caro5)."""
    if isinstance(rule, int) and 0 <= rule < len(rules.RULE_NAMES):
        return rule
    code = rules.RULE_CODES.get(str(rule).lower())
    if code is None:
        raise InvalidOption(f"unknown rule {rule!r}: expected one of {', '.join(rules.RULE_NAMES)}")
    return code


def check_size(width: int, height: int) -> None:
    """Raise :class:`InvalidOption` unless both sides are within the supported 5..22."""
    for side in (width, height):
        if not rules.MIN_SIZE <= side <= rules.MAX_SIZE:
            raise InvalidOption(
                f"unsupported board size {width}x{height}: "
                f"sides must be {rules.MIN_SIZE}..{rules.MAX_SIZE}"
            )


class Board:
    """A Gomoku-family position with its move history.

    ``Board(size=15, rule="renju")`` or ``Board(width=20, height=15, rule="freestyle")``.
    Black (1) moves first, then the colours alternate. Under Renju, ``forbidden="illegal"``
    (the default) rejects black's forbidden moves; ``forbidden="loses"`` plays them and
    awards the game to white. ``opening`` is the opening rule (``free``, ``pro``,
    ``long-pro``; :mod:`plies.gomoku.opening_rule`): a Board checks only the one it is given,
    ``free`` by default; front ends that start games pass the rule's default (``pro`` for
    Caro) unless told otherwise.
    """

    def __init__(
        self,
        size: int = 15,
        rule: str | int = "freestyle",
        *,
        width: int | None = None,
        height: int | None = None,
        forbidden: ForbiddenMode = "illegal",
        opening: str = "free",
    ) -> None:
        self.width = int(width if width is not None else size)
        self.height = int(height if height is not None else (size if width is None else width))
        check_size(self.width, self.height)
        self.rule_code = rule_code(rule)
        if forbidden not in ("illegal", "loses"):
            raise InvalidOption(f"forbidden must be 'illegal' or 'loses', not {forbidden!r}")
        self.forbidden_mode: ForbiddenMode = forbidden
        self.opening = opening_rule.opening_name(opening)
        opening_rule.check_board(self.opening, self.width, self.height)
        self.stride = rules.padded_stride(self.width)
        self.cells = rules.new_cells(self.width, self.height)
        self._hash = np.zeros(1, dtype=np.uint64)
        self._history: list[Move] = []
        self._winner = 0
        self._win_line: list[Move] | None = None
        self._lost_by_forbidden = False
        self._forbidden_loss: str | None = None
        self._stuck_key: tuple[int, int] | None = None
        self._stuck = False

    # --- basic facts ---------------------------------------------------------------------
    @property
    def rule(self) -> str:
        """The rule's name: freestyle, standard, renju, caro or caro5."""
        return rules.RULE_NAMES[self.rule_code]

    @property
    def size(self) -> int:
        """The side of a square board (the width of a rectangular one)."""
        return self.width

    @property
    def history(self) -> list[Move]:
        """The moves played so far, in order."""
        return list(self._history)

    @property
    def to_move(self) -> int:
        """The colour to move: 1 (black) or 2 (white)."""
        return BLACK if len(self._history) % 2 == 0 else WHITE

    @property
    def hash(self) -> int:
        """The Zobrist hash of the stones on the board (incrementally maintained)."""
        return int(self._hash[0])

    @property
    def last_move(self) -> Move | None:
        return self._history[-1] if self._history else None

    def __len__(self) -> int:
        return len(self._history)

    def __getitem__(self, cell: MoveLike) -> int:
        m = self.parse(cell)
        return int(self.cells[rules.to_pos(m.x, m.y, self.stride)])

    def to_array(self) -> np.ndarray:
        """The stones as an ``int8[height, width]`` array (0 empty, 1 black, 2 white)."""
        grid = self.cells.reshape(-1, self.stride)
        return grid[PAD : PAD + self.height, PAD : PAD + self.width].copy()

    def parse(self, move: MoveLike) -> Move:
        """Turn a :class:`Move`, ``"x,y"``, ``"h8"`` or ``(x, y)`` into a Move on this board."""
        if isinstance(move, Move):
            m = move
        elif isinstance(move, str):
            return parse_move(move, self.width, self.height)
        elif isinstance(move, Sequence) and len(move) == 2:
            m = Move(int(move[0]), int(move[1]))
        else:
            raise InvalidMove(f"cannot read move {move!r}")
        if not (0 <= m.x < self.width and 0 <= m.y < self.height):
            raise InvalidMove(f"move {m} is off the {self.width}x{self.height} board")
        return m

    def _pos(self, m: Move) -> int:
        return (m.y + PAD) * self.stride + m.x + PAD

    def _move(self, pos: int) -> Move:
        return Move(pos % self.stride - PAD, pos // self.stride - PAD)

    # --- game state ----------------------------------------------------------------------
    @property
    def winner(self) -> int:
        """1 if black has won, 2 if white has, 0 otherwise (game running or drawn)."""
        return self._winner

    @property
    def is_full(self) -> bool:
        return len(self._history) == self.width * self.height

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: a win, or a draw on a full board or on a Renju board
        where black is to move and every empty cell is forbidden to it."""
        return self._winner != 0 or self.is_full or self.black_is_stuck

    @property
    def black_is_stuck(self) -> bool:
        """Renju: black is to move and may play none of the empty cells (all forbidden), which
        ends the game in a draw as a full board does."""
        if self.rule_code != rules.RENJU or self.to_move != BLACK or self._winner != 0:
            return False
        key = (len(self._history), int(self._hash[0]))
        if self._stuck_key != key:
            self._stuck_key = key
            self._stuck = not rules.black_can_play(self.cells, self.width, self.height)
        return self._stuck

    @property
    def winning_line(self) -> list[Move] | None:
        """The stones of the winning line, or None (also None after a forbidden-move loss)."""
        return list(self._win_line) if self._win_line else None

    @property
    def lost_by_forbidden(self) -> bool:
        """Whether black lost by playing a forbidden move (Renju, ``forbidden="loses"``)."""
        return self._lost_by_forbidden

    @property
    def forbidden_loss_reason(self) -> str | None:
        """After a forbidden-move loss, why the move was forbidden (see
        :meth:`forbidden_reason`); None otherwise."""
        return self._forbidden_loss if self._lost_by_forbidden else None

    def is_forbidden(self, move: MoveLike) -> bool:
        """Whether black on this empty cell is forbidden (always False outside Renju)."""
        m = self.parse(move)
        if self.rule_code != rules.RENJU:
            return False
        return bool(rules.is_forbidden(self.cells, self.stride, self._pos(m)))

    def forbidden_reason(self, move: MoveLike) -> str | None:
        """Why black on this empty cell is forbidden under Renju: ``"overline"``,
        ``"double four"`` or ``"double three"``; None when it is not forbidden (always None
        outside Renju). A move that is both an overline and a double four is an overline, as
        the rules kernel decides it (docs/rules.md)."""
        m = self.parse(move)
        if self.rule_code != rules.RENJU:
            return None
        return rules.forbidden_reason(self.cells, self.stride, self._pos(m))

    def forbidden_points(self) -> list[Move]:
        """Every empty cell where black may not play under Renju (empty list for other rules)."""
        if self.rule_code != rules.RENJU:
            return []
        out = np.empty(self.width * self.height, dtype=np.int64)
        n = rules.forbidden_points(self.cells, self.width, self.height, out)
        return [self._move(int(p)) for p in out[:n]]

    @property
    def stones(self) -> int:
        """The number of stones on the board (moves and set-up stones)."""
        return int(np.count_nonzero((self.cells == BLACK) | (self.cells == WHITE)))

    def opening_banned(self) -> list[Move]:
        """The empty cells the opening rule forbids to the side to move now (see
        :mod:`plies.gomoku.opening_rule`); empty when the rule limits nothing here."""
        if self.opening == "free":
            return []
        cells = opening_rule.banned_cells(self.opening, self.width, self.height, self.stones)
        return [m for m in cells if self.cells[self._pos(m)] == EMPTY]

    def check_move(self, move: MoveLike) -> Move:
        """Validate a move for the side to move; return it parsed or raise :class:`InvalidMove`."""
        m = self.parse(move)
        if self.is_over:
            raise GameOver(f"move {m} played after the game ended")
        if self.cells[self._pos(m)] != EMPTY:
            raise InvalidMove(f"cell {m} ({m.algebraic(self.height)}) is occupied")
        if self.opening != "free":
            opening_rule.check(self.opening, self.width, self.height, self.stones, m)
        if (
            self.forbidden_mode == "illegal"
            and self.rule_code == rules.RENJU
            and self.to_move == BLACK
            and rules.is_forbidden(self.cells, self.stride, self._pos(m))
        ):
            reason = self.forbidden_reason(m)
            raise ForbiddenMove(
                f"move {m} ({m.algebraic(self.height)}) is forbidden for black ({reason})"
            )
        return m

    def is_legal(self, move: MoveLike) -> bool:
        """Whether the side to move may play ``move`` now."""
        try:
            self.check_move(move)
        except InvalidMove:
            return False
        return True

    def moves(self) -> list[Move]:
        """All legal moves of the side to move (empty once the game is over)."""
        if self.is_over:
            return []
        out = np.empty(self.width * self.height, dtype=np.int64)
        n = rules.legal_moves(
            self.cells,
            self.width,
            self.height,
            self.to_move,
            self.rule_code,
            self.forbidden_mode == "illegal",
            out,
        )
        moves = [self._move(int(p)) for p in out[:n]]
        banned = self.opening_banned()
        if banned:
            skip = set(banned)
            moves = [m for m in moves if m not in skip]
        return moves

    # --- making and unmaking moves -------------------------------------------------------
    def play(self, move: MoveLike) -> Move:
        """Play ``move`` for the side to move; return it. Raises :class:`InvalidMove` if illegal."""
        m = self.check_move(move)
        color = self.to_move
        pos = self._pos(m)
        loses = (
            self.rule_code == rules.RENJU
            and color == BLACK
            and self.forbidden_mode == "loses"
            and rules.is_forbidden(self.cells, self.stride, pos)
        )
        if loses:
            self._forbidden_loss = rules.forbidden_reason(self.cells, self.stride, pos)
        rules.place(self.cells, self._hash, rules.ZOBRIST, pos, color)
        self._history.append(m)
        if loses:
            self._winner = WHITE
            self._lost_by_forbidden = True
            return m
        out = np.empty(2 * max(self.width, self.height), dtype=np.int64)
        n = rules.winning_line(self.cells, self.stride, pos, color, self.rule_code, out)
        if n:
            self._winner = color
            self._win_line = [self._move(int(p)) for p in out[:n]]
        return m

    def play_moves(self, moves: Iterable[MoveLike]) -> None:
        """Play a sequence of moves (stops with :class:`InvalidMove` at the first bad one)."""
        for i, move in enumerate(moves):
            try:
                self.play(move)
            except InvalidMove as exc:
                raise type(exc)(f"move {i + 1}: {exc}") from None

    def put(self, move: MoveLike, color: int) -> None:
        """Set up a stone outside the move history: ``color`` 1 (black), 2 (white) or 3 (a
        blocked cell, as pbrain's field 3 in continuous games). No rule is checked and the move
        count, side to move and result do not change (position setup for protocols)."""
        m = self.parse(move)
        pos = self._pos(m)
        if self.cells[pos] != EMPTY:
            raise InvalidMove(f"cell {m} ({m.algebraic(self.height)}) is occupied")
        if color in (BLACK, WHITE):
            rules.place(self.cells, self._hash, rules.ZOBRIST, pos, color)
        elif color == rules.WALL:
            self.cells[pos] = rules.WALL
        else:
            raise InvalidOption(f"cannot put colour {color}: expected 1, 2 or 3")

    def undo(self) -> Move:
        """Take back the last move and return it."""
        if not self._history:
            raise InvalidMove("no move to take back")
        m = self._history.pop()
        rules.remove(self.cells, self._hash, rules.ZOBRIST, self._pos(m))
        self._winner = 0
        self._win_line = None
        self._lost_by_forbidden = False
        self._forbidden_loss = None
        return m

    def copy(self) -> Board:
        """An independent copy of the board and its history."""
        other = Board.__new__(Board)
        other.__dict__.update(self.__dict__)
        other.cells = self.cells.copy()
        other._hash = self._hash.copy()
        other._history = list(self._history)
        other._win_line = list(self._win_line) if self._win_line else None
        return other

    @classmethod
    def from_moves(
        cls,
        moves: Iterable[MoveLike],
        size: int = 15,
        rule: str | int = "freestyle",
        *,
        width: int | None = None,
        height: int | None = None,
        forbidden: ForbiddenMode = "illegal",
        opening: str = "free",
    ) -> Board:
        """A board after playing ``moves`` in order from the empty position."""
        board = cls(size, rule, width=width, height=height, forbidden=forbidden, opening=opening)
        board.play_moves(moves)
        return board

    def recompute_hash(self) -> int:
        """The hash computed from scratch (for checks; equals :attr:`hash`)."""
        return int(rules.full_hash(self.cells, rules.ZOBRIST))

    # --- text ----------------------------------------------------------------------------
    def to_text(self, labels: bool = True, forbidden: bool = False) -> str:
        """The board as text: ``X`` black, ``O`` white, ``.`` empty; the last move in brackets,
        column letters and row numbers around it; forbidden points as ``*`` if asked."""
        grid = self.to_array()
        marks = set(self.forbidden_points()) if forbidden else set()
        last = self.last_move
        lines = []
        letters = "   " + "".join(f" {COLUMN_LETTERS[x]} " for x in range(self.width))
        if labels:
            lines.append(letters.rstrip())
        for y in range(self.height):
            row = []
            for x in range(self.width):
                ch = STONE_CHARS[int(grid[y, x])]
                if Move(x, y) in marks:
                    ch = "*"
                row.append(f"[{ch}]" if last == Move(x, y) else f" {ch} ")
            body = "".join(row)
            if labels:
                number = self.height - y
                lines.append(f"{number:>2} {body}{number:>2}".rstrip())
            else:
                lines.append(body.rstrip())
        if labels:
            lines.append(letters.rstrip())
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return (
            f"Board(width={self.width}, height={self.height}, rule={self.rule!r}, "
            + (f"opening={self.opening!r}, " if self.opening != "free" else "")
            + f"moves={len(self._history)})"
        )
