"""The format-independent game record: :class:`GameRecord`, and the rule and result names
the readers accept."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from plies.errors import InvalidMove, InvalidOption, InvalidRecord
from plies.gomoku.board import Board, ForbiddenMode, check_size
from plies.gomoku.notation import Move
from plies.gomoku.opening_rule import opening_name
from plies.gomoku.rules import RULE_NAMES

RESULTS = ("black", "white", "draw")

# Spellings of the rules found in records, after lower-casing and dropping everything that is
# not a letter or a digit. Renju opening rules (RIF, Yamaguchi, Soosorv, Taraguchi, Sakata) all
# mean Renju; the numbers are the Gomocup / pbrain ``INFO rule`` codes (bit 2, continuous game,
# is ignored: 2 -> 0, 3 -> 1, 6 -> 4 ...).
_RULE_ALIASES = {
    "freestyle": "freestyle",
    "free": "freestyle",
    "gomoku": "freestyle",
    "freestylegomoku": "freestyle",
    "gomokufreestyle": "freestyle",
    "fivemore": "freestyle",
    "fiveormore": "freestyle",
    "standard": "standard",
    "standardgomoku": "standard",
    "gomokustandard": "standard",
    "exact5": "standard",
    "exactfive": "standard",
    "exactlyfive": "standard",
    "renju": "renju",
    "renjurule": "renju",
    "rif": "renju",
    "rifrule": "renju",
    "yamaguchi": "renju",
    "soosorv": "renju",
    "soosorv8": "renju",
    "soosyrv": "renju",
    "soosyrv8": "renju",
    "taraguchi": "renju",
    "taraguchi10": "renju",
    "sakata": "renju",
    "caro": "caro",
    "gomokuplus": "caro",
    "caro5": "caro5",
    "carofive": "caro5",
    "caroexact5": "caro5",
    "caroexactfive": "caro5",
}
_RULE_CODE_NAMES = {0: "freestyle", 1: "standard", 4: "renju", 8: "caro", 9: "caro5"}


def parse_rule(text: str | None) -> str | None:
    """The rule name (freestyle, standard, renju, caro, caro5) for a spelling found in a record,
    or None when ``text`` is empty or not recognised.

    Accepts our names in any case, common spellings ("Free-style", "exactly five", "RIF",
    "Yamaguchi", "Gomoku+"...) and the Gomocup ``INFO rule`` numbers (0, 1, 4, 8, 9).
    """
    if text is None:
        return None
    key = re.sub(r"[^0-9a-z+]", "", text.strip().lower()).replace("+", "plus")
    if not key:
        return None
    if key.isdigit():
        return _RULE_CODE_NAMES.get(int(key) & ~2)
    return _RULE_ALIASES.get(key)


def parse_result(text: str | None) -> str | None:
    """``black``, ``white`` or ``draw`` for a result written as our names, SGF (``B+``,
    ``W+Resign``, ``0``, ``Draw``) or PGN style (``1-0`` black won, ``0-1``, ``1/2-1/2``);
    None for an unknown or empty result (``?``, ``Void``, ``*``).

    Raises :class:`ValueError` for text that is none of these.
    """
    if text is None:
        return None
    s = text.strip().lower()
    if s in ("", "?", "void", "*", "unknown", "none"):
        return None
    if s in RESULTS:
        return s
    if s.startswith("b+") or s in ("b", "1-0", "black wins", "black win"):
        return "black"
    if s.startswith("w+") or s in ("w", "0-1", "white wins", "white win"):
        return "white"
    if s in ("0", "d", "draw", "jigo", "1/2-1/2", "½-½"):
        return "draw"
    raise ValueError(f"unknown result {text!r}")


def parse_size(text: str) -> tuple[int, int]:
    """``(width, height)`` for ``15``, ``20x15``, ``20 x 15`` or ``20:15`` (columns first).

    Raises :class:`ValueError` for anything else, :class:`InvalidOption` for sides out of range.
    """
    m = re.fullmatch(r"\s*(\d+)\s*(?:[x×:*]\s*(\d+)\s*)?", text, flags=re.IGNORECASE)
    if not m:
        raise ValueError(f"cannot read board size {text.strip()!r}: expected N or WxH")
    width = int(m.group(1))
    height = int(m.group(2)) if m.group(2) else width
    check_size(width, height)
    return width, height


@dataclass
class GameRecord:
    """A Gomoku-family game as stored in a file: board size, rule, moves and metadata.

    * ``width``, ``height``: the board (5..22 a side).
    * ``rule``: freestyle, standard, renju, caro, caro5, or None when the record does not say.
    * ``moves``: :class:`Move` objects in playing order; black plays first and colours alternate.
    * ``players``: ``(black, white)`` names, each may be None.
    * ``result``: ``black``, ``white``, ``draw`` or None (as the file states it; the position
      itself is judged by :meth:`to_board`).
    * ``event``, ``date``: free text.
    * ``properties``: other metadata as ``{key: value}`` strings (SGF properties such as ``GN``
      or ``KM``, the Piskvork header levels...); writers keep what their format can hold.
    * ``times_ms``: thinking time per move in milliseconds (Piskvork), or None.
    * ``opening``: the opening rule the game was played under (``free``, ``pro``,
      ``long-pro``), or None when the record does not say (then replayed as ``free``).

    ``source``, ``move_lines`` and ``move_texts`` (the file, and the line and the text of each
    move as written there) are filled in by the readers so that replay errors can point at the
    file and quote the move; they are not part of equality.
    """

    width: int = 15
    height: int = 15
    rule: str | None = None
    moves: list[Move] = field(default_factory=list)
    players: tuple[str | None, str | None] = (None, None)
    result: str | None = None
    event: str | None = None
    date: str | None = None
    properties: dict[str, str] = field(default_factory=dict)
    times_ms: list[int] | None = None
    opening: str | None = None
    source: str | None = field(default=None, compare=False, repr=False)
    move_lines: list[int] = field(default_factory=list, compare=False, repr=False)
    move_texts: list[str] = field(default_factory=list, compare=False, repr=False)

    def __post_init__(self) -> None:
        check_size(self.width, self.height)
        if self.rule is not None:
            name = parse_rule(str(self.rule))
            if name is None:
                raise InvalidOption(
                    f"unknown rule {self.rule!r}: expected one of {', '.join(RULE_NAMES)}"
                )
            self.rule = name
        if self.opening is not None:
            self.opening = opening_name(self.opening)
        if self.result is not None and self.result not in RESULTS:
            raise InvalidOption(f"result must be one of {', '.join(RESULTS)} or None")
        self.moves = [m if isinstance(m, Move) else Move(int(m[0]), int(m[1])) for m in self.moves]
        self.players = (self.players[0], self.players[1])

    # --- convenience ---------------------------------------------------------------------
    @property
    def black(self) -> str | None:
        return self.players[0]

    @property
    def white(self) -> str | None:
        return self.players[1]

    @property
    def size_text(self) -> str:
        """``15`` for a square board, ``20x15`` (width x height) otherwise."""
        if self.width == self.height:
            return str(self.width)
        return f"{self.width}x{self.height}"

    def move_text(self, index: int) -> str:
        """Move ``index`` (0-based) as ``h8`` when on the board, else as pbrain ``x,y``."""
        m = self.moves[index]
        if 0 <= m.x < self.width and 0 <= m.y < self.height:
            return m.algebraic(self.height)
        return m.pbrain()

    # --- replay --------------------------------------------------------------------------
    def to_board(
        self,
        rule: str | None = None,
        forbidden: ForbiddenMode = "illegal",
        opening: str | None = None,
    ) -> Board:
        """Replay the moves on a new :class:`Board`.

        The rule is ``rule`` if given, else the record's rule, else freestyle; the opening
        rule likewise ``opening``, else the record's, else ``free`` (a record that does not
        name one is replayed as the game was played: games from elsewhere, such as Gomocup's
        Caro games, do not follow ``pro``). ``forbidden``
        is passed to the Board: with ``"illegal"`` a Renju forbidden move by black is an error,
        with ``"loses"`` it ends the game as a white win. Raises :class:`InvalidRecord` naming
        the move number (and the file and line when the record was read from one) for a move
        that is off the board, on an occupied cell, forbidden or after the end of the game.
        """
        board = Board(
            width=self.width,
            height=self.height,
            rule=rule or self.rule or "freestyle",
            forbidden=forbidden,
            opening=opening or self.opening or "free",
        )
        for i, m in enumerate(self.moves):
            line = self.move_lines[i] if i < len(self.move_lines) else None
            if not (0 <= m.x < self.width and 0 <= m.y < self.height):
                written = self.move_texts[i] if i < len(self.move_texts) else m.pbrain()
                raise InvalidRecord(
                    f"move {i + 1} {written!r} is off the {self.width}x{self.height} board",
                    line=line,
                    source=self.source,
                )
            try:
                board.play(m)
            except InvalidMove as exc:
                raise InvalidRecord(f"move {i + 1}: {exc}", line=line, source=self.source) from None
        return board

    @classmethod
    def from_board(cls, board: Board, **metadata) -> GameRecord:
        """A record of the moves played on ``board`` (with its size and rule) plus metadata."""
        record = cls(
            width=board.width,
            height=board.height,
            rule=board.rule,
            opening=board.opening if board.opening != "free" else None,
            moves=board.history,
            **metadata,
        )
        if record.result is None and board.is_over:
            record.result = {1: "black", 2: "white"}.get(board.winner, "draw")
        return record
