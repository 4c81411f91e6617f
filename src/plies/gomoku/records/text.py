"""Plain move lists: the simplest record, easy to type and to paste.

::

    # rule: renju
    # size: 15
    # black: Alice
    # white: Bob
    h8 h9 i10 g8
    7,7 7,6        # pbrain x,y works too, and both may be mixed

* Moves are algebraic (``h8``: column letter, row counted from the bottom) or pbrain
  (``7,7``: 0-based column, row from the top; ``(7,7)`` also works), separated by spaces,
  commas, semicolons or line breaks. Black plays the first move; colours alternate.
* Lines starting with ``#`` are comments; ``# key: value`` comments are headers. Known keys:
  ``rule``, ``opening`` (free, pro, long-pro), ``size`` (``15`` or ``20x15``, width x height;
  15 when absent), ``black``,
  ``white``, ``result`` (black, white, draw), ``event``, ``date``; any other key is kept in
  ``GameRecord.properties``. Headers may appear anywhere (they are read first), each at most
  once. ``#`` after moves starts a comment to the end of the line.
"""

from __future__ import annotations

import re

from plies.errors import InvalidOption, InvalidRecord
from plies.gomoku.notation import COLUMN_LETTERS, Move
from plies.gomoku.opening_rule import opening_name
from plies.gomoku.records.model import GameRecord, parse_result, parse_rule, parse_size

_HEADER_RE = re.compile(r"^#\s*([A-Za-z][\w.-]*)\s*:\s*(.*?)\s*$")
_SEP_RE = re.compile(r"[\s,;]*")
_END = r"(?=[\s,;]|$)"
_PBRAIN_RE = re.compile(r"\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?" + _END)
_ALGEBRAIC_RE = re.compile(r"([A-Za-z])(\d+)" + _END)
_KNOWN = ("rule", "opening", "size", "black", "white", "result", "event", "date")


def read_text(
    text: str,
    source: str | None = None,
    rule: str | None = None,
    size: tuple[int, int] | None = None,
) -> GameRecord:
    """Parse a plain move list. ``rule`` and ``size`` (width, height) replace the headers.

    Raises :class:`InvalidRecord` naming the line of any problem.
    """
    lines = text.lstrip("\ufeff").splitlines()
    headers: dict[str, tuple[str, int]] = {}
    for lineno, raw in enumerate(lines, 1):
        s = raw.strip()
        if not s.startswith("#"):
            continue
        m = _HEADER_RE.match(s)
        if not m:
            continue  # a plain comment
        key = m.group(1).lower()
        if key in headers:
            raise InvalidRecord(
                f"duplicate header {key!r} (first on line {headers[key][1]})",
                line=lineno,
                source=source,
            )
        headers[key] = (m.group(2), lineno)

    record = GameRecord(source=source)
    if size is not None:
        record.width, record.height = size
    elif "size" in headers:
        value, lineno = headers["size"]
        try:
            record.width, record.height = parse_size(value)
        except (ValueError, InvalidOption) as exc:
            raise InvalidRecord(str(exc), line=lineno, source=source) from None
    if rule is not None:
        record.rule = parse_rule(rule)
    elif "rule" in headers:
        value, lineno = headers["rule"]
        record.rule = parse_rule(value)
        if record.rule is None:
            raise InvalidRecord(
                f"unknown rule {value!r}: expected freestyle, standard, renju, caro or caro5",
                line=lineno,
                source=source,
            )
    if "opening" in headers:
        value, lineno = headers["opening"]
        try:
            record.opening = opening_name(value)
        except InvalidOption as exc:
            raise InvalidRecord(str(exc), line=lineno, source=source) from None
    if "result" in headers:
        value, lineno = headers["result"]
        try:
            record.result = parse_result(value)
        except ValueError as exc:
            raise InvalidRecord(
                f"{exc}: expected black, white or draw", line=lineno, source=source
            ) from None
    black = headers.get("black", ("", 0))[0] or None
    white = headers.get("white", ("", 0))[0] or None
    record.players = (black, white)
    record.event = headers.get("event", ("", 0))[0] or None
    record.date = headers.get("date", ("", 0))[0] or None
    for key, (value, _) in headers.items():
        if key not in _KNOWN:
            record.properties[key] = value

    for lineno, raw in enumerate(lines, 1):
        body = raw.split("#", 1)[0]
        pos = 0
        while True:
            pos = _SEP_RE.match(body, pos).end()
            if pos >= len(body):
                break
            m = _PBRAIN_RE.match(body, pos)
            if m:
                move = Move(int(m.group(1)), int(m.group(2)))
            else:
                m = _ALGEBRAIC_RE.match(body, pos)
                if not m:
                    token = re.match(r"[^\s;]+", body[pos:]).group(0)[:24]
                    raise InvalidRecord(
                        f"cannot read move {token!r}: expected a square like 'h8' or 'x,y'",
                        line=lineno,
                        source=source,
                    )
                column = COLUMN_LETTERS.index(m.group(1).lower())
                move = Move(column, record.height - int(m.group(2)))
            record.moves.append(move)
            record.move_lines.append(lineno)
            record.move_texts.append(m.group(0).strip())
            pos = m.end()
    return record


def _clean(value: str) -> str:
    return " ".join(value.split())


def write_text(record: GameRecord, notation: str = "algebraic") -> str:
    """The record as a move list with ``# key: value`` headers, ten moves per line.

    ``notation`` is ``algebraic`` (``h8``) or ``pbrain`` (``7,7``). Moves off the board are
    always written as pbrain ``x,y``.
    """
    if notation not in ("algebraic", "pbrain"):
        raise InvalidOption(f"notation must be 'algebraic' or 'pbrain', not {notation!r}")
    out = ["# plies game record", f"# size: {record.size_text}"]
    if record.rule:
        out.append(f"# rule: {record.rule}")
    if record.opening:
        out.append(f"# opening: {record.opening}")
    for key, value in (
        ("black", record.players[0]),
        ("white", record.players[1]),
        ("result", record.result),
        ("event", record.event),
        ("date", record.date),
    ):
        if value:
            out.append(f"# {key}: {_clean(value)}")
    for key, value in record.properties.items():
        if re.fullmatch(r"[A-Za-z][\w.-]*", key) and key.lower() not in _KNOWN:
            out.append(f"# {key}: {_clean(value)}")
    row: list[str] = []
    for m in record.moves:
        on_board = 0 <= m.x < record.width and 0 <= m.y < record.height
        if notation == "algebraic" and on_board:
            row.append(m.algebraic(record.height))
        else:
            row.append(m.pbrain())
        if len(row) == 10:
            out.append(" ".join(row))
            row = []
    if row:
        out.append(" ".join(row))
    return "\n".join(out) + "\n"
