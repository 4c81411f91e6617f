"""Gomoku SGF records (``GM[4]``, Smart Game Format FF[4]).

Reading: the first game tree of the file, following the main line (the first variation at
every branch). Understood: ``GM`` (must be 4 when present), ``SZ[15]`` or ``SZ[20:15]``
(columns:rows; 15 when absent), ``RU`` (rule, see :func:`parse_rule`), ``PB``, ``PW``,
``RE``, ``EV``, ``DT`` and ``B[..]``/``W[..]`` moves, two letters each: the column from the
left then the row from the top, ``a`` = 0. Other root properties are kept in
``GameRecord.properties``; annotations in later nodes (comments, marks, times) are skipped.
Reported as unsupported (InvalidRecord): passes (``B[]``, ``B[tt]``), setup stones
(``AB``/``AW``/``AE``), other games (``GM[1]``...), colours that do not alternate from black,
and files holding more than one game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from plies import __version__
from plies.errors import InvalidOption, InvalidRecord
from plies.gomoku.notation import Move
from plies.gomoku.records.model import GameRecord, parse_result, parse_rule, parse_size

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_IDENT_RE = re.compile(r"[A-Za-z0-9]+")
_HANDLED = {"GM", "FF", "CA", "AP", "SZ", "RU", "PB", "PW", "RE", "EV", "DT", "B", "W"}
_SETUP = {"AB", "AW", "AE", "PL"}
_RESULT_SGF = {"black": "B+", "white": "W+", "draw": "0"}


@dataclass
class _Prop:
    ident: str
    values: list[str]
    line: int


@dataclass
class _Tree:
    line: int
    nodes: list[list[_Prop]] = field(default_factory=list)
    children: list[_Tree] = field(default_factory=list)


class _Parser:
    """A small recursive-descent parser of SGF collections that tracks line numbers."""

    def __init__(self, text: str, source: str | None) -> None:
        self.text = text
        self.source = source
        self.pos = 0
        self.line = 1

    def error(self, message: str, line: int | None = None) -> InvalidRecord:
        return InvalidRecord(message, line=line or self.line, source=self.source)

    def skip_ws(self) -> None:
        text = self.text
        while self.pos < len(text) and text[self.pos] in " \t\r\n\ufeff":
            if text[self.pos] == "\n":
                self.line += 1
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def collection(self) -> list[_Tree]:
        trees = []
        while True:
            c = self.peek()
            if not c:
                break
            if c != "(":
                if not trees:
                    raise self.error(f"expected '(' to start an SGF game tree, found {c!r}")
                raise self.error(f"unexpected {c!r} after the end of the game tree")
            trees.append(self.tree())
        if not trees:
            raise self.error("empty SGF file: no game tree")
        return trees

    def tree(self) -> _Tree:
        """One game tree, parsed with an explicit stack (files may nest a variation per move)."""
        root: _Tree | None = None
        stack: list[_Tree] = []
        while True:
            c = self.peek()
            if c == "(":
                tree = _Tree(line=self.line)
                self.pos += 1
                if stack:
                    stack[-1].children.append(tree)
                else:
                    root = tree
                stack.append(tree)
                while self.peek() == ";":
                    self.pos += 1
                    tree.nodes.append(self.node())
                if not tree.nodes:
                    raise self.error("a game tree must start with ';' (a node)")
            elif c == ")":
                self.pos += 1
                stack.pop()
                if not stack:
                    assert root is not None
                    return root
            elif not c:
                raise self.error(f"unclosed game tree (opened on line {stack[-1].line})")
            else:
                raise self.error(f"unexpected {c!r} in a game tree")

    def node(self) -> list[_Prop]:
        props = []
        while True:
            self.skip_ws()
            m = _IDENT_RE.match(self.text, self.pos)
            if not m:
                return props
            raw_ident = m.group(0)
            line = self.line
            self.pos = m.end()
            # FF[1]-[3] allowed lowercase letters in identifiers; FF[4] readers ignore them
            ident = "".join(ch for ch in raw_ident if not ch.islower()) or raw_ident
            values = []
            while self.peek() == "[":
                values.append(self.value())
            if not values:
                raise self.error(f"property {raw_ident} has no value: expected '['", line)
            props.append(_Prop(ident, values, line))

    def value(self) -> str:
        start = self.line
        self.pos += 1  # "["
        out = []
        text = self.text
        while self.pos < len(text):
            c = text[self.pos]
            if c == "\\":
                self.pos += 1
                if self.pos < len(text):
                    nxt = text[self.pos]
                    if nxt in "\r\n":  # soft line break: removed
                        if nxt == "\n":
                            self.line += 1
                        elif text[self.pos + 1 : self.pos + 2] == "\n":
                            self.pos += 1
                            self.line += 1
                    else:
                        out.append(nxt)
                    self.pos += 1
                continue
            if c == "]":
                self.pos += 1
                return "".join(out)
            if c == "\n":
                self.line += 1
            out.append(c)
            self.pos += 1
        raise self.error("unterminated property value: missing ']'", start)


def _shown(ident: str, value: str) -> str:
    """``ID[value]`` for messages: one line, at most 24 characters of the value."""
    v = " ".join(value.split())
    return f"{ident}[{v[:24]}{'...' if len(v) > 24 else ''}]"


def looks_like_sgf(text: str) -> bool:
    """Whether ``text`` starts like an SGF collection: ``(`` then ``;``."""
    return re.match(r"\s*\(\s*;", text.lstrip("\ufeff")) is not None


def _point(value: str, prop: _Prop, record: GameRecord, parser: _Parser) -> Move:
    v = value.strip()
    if v == "" or (v == "tt" and max(record.width, record.height) <= 19):
        raise parser.error(
            f"{_shown(prop.ident, value)}: passes are not supported in Gomoku records", prop.line
        )
    if len(v) != 2 or v[0] not in _LETTERS or v[1] not in _LETTERS:
        raise parser.error(
            f"{_shown(prop.ident, value)}: expected two lowercase letters (column, row; 'a' = 0)",
            prop.line,
        )
    return Move(_LETTERS.index(v[0]), _LETTERS.index(v[1]))


def read_sgf(text: str, source: str | None = None, rule: str | None = None) -> GameRecord:
    """Parse a Gomoku SGF record (main line of the first game tree).

    ``rule`` (a rule name) replaces the file's ``RU`` and skips its check. Raises
    :class:`InvalidRecord` naming the line of any problem.
    """
    parser = _Parser(text, source)
    trees = parser.collection()
    if len(trees) > 1:
        raise InvalidRecord(
            f"the file holds {len(trees)} games; plies reads one game per SGF file",
            line=trees[1].line,
            source=source,
        )
    nodes: list[list[_Prop]] = []
    tree: _Tree | None = trees[0]
    while tree is not None:
        nodes.extend(tree.nodes)
        tree = tree.children[0] if tree.children else None

    root = nodes[0]
    record = GameRecord(source=source)
    first = {}
    for prop in root:
        first.setdefault(prop.ident, prop)
    if "GM" in first:
        gm = first["GM"].values[0].strip()
        if gm != "4":
            raise parser.error(
                f"{_shown('GM', gm)} is not a Gomoku/Renju record (expected GM[4])",
                first["GM"].line,
            )
    if "SZ" in first:
        prop = first["SZ"]
        try:
            record.width, record.height = parse_size(prop.values[0])
        except (ValueError, InvalidOption) as exc:
            raise parser.error(f"{_shown('SZ', prop.values[0])}: {exc}", prop.line) from None
    if rule is not None:
        record.rule = parse_rule(rule)
    elif "RU" in first:
        prop = first["RU"]
        if prop.values[0].strip():
            name = parse_rule(prop.values[0])
            if name is None:
                raise parser.error(
                    f"unknown rule {_shown('RU', prop.values[0])}: expected freestyle, standard, "
                    "renju, "
                    "caro or caro5",
                    prop.line,
                )
            record.rule = name
    black = first["PB"].values[0].strip() if "PB" in first else None
    white = first["PW"].values[0].strip() if "PW" in first else None
    record.players = (black or None, white or None)
    if "EV" in first:
        record.event = first["EV"].values[0].strip() or None
    if "DT" in first:
        record.date = first["DT"].values[0].strip() or None
    if "RE" in first:
        raw = first["RE"].values[0].strip()
        try:
            record.result = parse_result(raw)
        except ValueError as exc:
            raise parser.error(f"{_shown('RE', raw)}: {exc}", first["RE"].line) from None
        if raw and raw != _RESULT_SGF.get(record.result or "", ""):
            record.properties["RE"] = raw
    for ident, prop in first.items():
        if ident not in _HANDLED and ident not in _SETUP:
            record.properties[ident] = " ".join(v.strip() for v in prop.values)

    for node in nodes:
        colours = [p for p in node if p.ident in ("B", "W")]
        for prop in node:
            if prop.ident in _SETUP:
                raise parser.error(
                    f"setup property {prop.ident} is not supported: records must be plain "
                    "move sequences",
                    prop.line,
                )
        if len(colours) > 1:
            raise parser.error("a node holds more than one move", colours[1].line)
        if not colours:
            continue
        prop = colours[0]
        if len(prop.values) != 1:
            raise parser.error(f"{prop.ident} must have exactly one value", prop.line)
        expected = "B" if len(record.moves) % 2 == 0 else "W"
        if prop.ident != expected:
            colour = "black" if expected == "B" else "white"
            raise parser.error(
                f"move {len(record.moves) + 1} should be {colour} ({expected}[..]), "
                f"found {_shown(prop.ident, prop.values[0])}",
                prop.line,
            )
        record.moves.append(_point(prop.values[0], prop, record, parser))
        record.move_lines.append(prop.line)
        record.move_texts.append(_shown(prop.ident, prop.values[0]))
    return record


def _escape(value: str) -> str:
    return " ".join(value.split()).replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(record: GameRecord) -> str:
    """The record as SGF text: root properties on the first line, ten moves per line."""
    size = str(record.width) if record.width == record.height else f"{record.width}:{record.height}"
    root = [f"GM[4]FF[4]CA[UTF-8]AP[plies:{__version__}]SZ[{size}]"]
    if record.rule:
        root.append(f"RU[{record.rule}]")
    for ident, value in (
        ("PB", record.players[0]),
        ("PW", record.players[1]),
        ("EV", record.event),
        ("DT", record.date),
    ):
        if value:
            root.append(f"{ident}[{_escape(value)}]")
    if record.result:
        raw = record.properties.get("RE")
        try:
            keep = raw is not None and parse_result(raw) == record.result
        except ValueError:
            keep = False
        root.append(f"RE[{_escape(raw if keep and raw else _RESULT_SGF[record.result])}]")
    for key, value in record.properties.items():
        if re.fullmatch(r"[A-Z]+", key) and key not in _HANDLED and key not in _SETUP:
            root.append(f"{key}[{_escape(value)}]")
    lines = ["(;" + "".join(root)]
    row: list[str] = []
    for i, m in enumerate(record.moves):
        if not (0 <= m.x < len(_LETTERS) and 0 <= m.y < len(_LETTERS)):
            raise InvalidOption(f"move {i + 1} ({m.x},{m.y}) cannot be written in SGF")
        colour = "B" if i % 2 == 0 else "W"
        row.append(f";{colour}[{_LETTERS[m.x]}{_LETTERS[m.y]}]")
        if len(row) == 10:
            lines.append("".join(row))
            row = []
    if row:
        lines.append("".join(row))
    return "\n".join(lines) + ")\n"
