"""Piskvork ``.psq`` game records (the Gomocup tournament format).

What Piskvork writes (``savePsq`` in its source) and reads (``openPsq``)::

    Piskvorky 15x15, 11:11, 0       header: WIDTHxHEIGHT, level1:level2, first-player slot
    8,8,1200                        one move per line: x,y,time_ms, 1-based, x = column from
    9,9,850                           the left, y = row from the top
    ...
    pbrain-one.exe                  optional: the two players (tournament and command-line
    pbrain-two.exe                    games only; "homo-1"/"homo-2" for humans)
    -1                              a final number (Piskvork's end-of-game code)

Piskvork reads moves with ``fscanf("%d,%d,%d")`` and accepts two-number lines without the
time, so this reader does too. In the header, the two levels are ``(level + 1) * is_computer``
for Piskvork's two player slots and the last number (0 or 1) is the slot that moved first;
the player lines are in slot order, so the first line is black when that number is 0.

The format has no rule field. When the record has a rule, the writer adds one line
``rule=NAME`` after the final number, where Piskvork (which stops after the player lines) and
the usual readers (which stop at the final number or skip non-move lines) ignore it; the
writer then always writes the two player lines (``homo-1``/``homo-2`` when unknown) so that
Piskvork does not take the number or the rule for a player. This reader also accepts
``rule: NAME`` and the ``1,Freestyle`` style trailer seen in some generated files.
"""

from __future__ import annotations

import re

from plies.errors import InvalidOption, InvalidRecord
from plies.gomoku.notation import Move
from plies.gomoku.records.model import GameRecord, parse_rule

_HEADER_RE = re.compile(
    r"^\s*Piskvorky\s+(\d+)\s*x\s*(\d+)\s*,\s*(-?\d+)\s*:\s*(-?\d+)\s*,\s*(-?\d+)(.*)$",
    re.IGNORECASE,
)
_MOVE_RE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*(?:,\s*(-?\d+)\s*)?$")
_MOVE_LIKE_RE = re.compile(r"^\s*-?\d+\s*,")
_INT_RE = re.compile(r"^\s*(-?\d+)\s*$")
_RULE_LINE_RE = re.compile(r"^\s*rule\s*[=:]\s*(.*?)\s*$", re.IGNORECASE)
_WINNER_RULE_RE = re.compile(r"^\s*(-?\d+)\s*,\s*([A-Za-z][\w +-]*?)\s*$")
HUMAN_NAMES = ("homo-1", "homo-2")


def looks_like_psq(text: str) -> bool:
    """Whether ``text`` starts with a Piskvork header."""
    return text.lstrip("\ufeff \t\r\n")[:9].lower() == "piskvorky"


def read_psq(text: str, source: str | None = None) -> GameRecord:
    """Parse a ``.psq`` record. Raises :class:`InvalidRecord` naming the line of any problem."""
    lines = text.splitlines()
    index = 0
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index == len(lines):
        raise InvalidRecord(
            "empty file: expected a header like 'Piskvorky 15x15, 11:11, 0'", line=1, source=source
        )
    header = _HEADER_RE.match(lines[index].lstrip("\ufeff"))
    header_line = index + 1
    if not header:
        raise InvalidRecord(
            f"expected a Piskvork header like 'Piskvorky 15x15, 11:11, 0', "
            f"found {lines[index].strip()[:40]!r}",
            line=header_line,
            source=source,
        )
    width, height = int(header.group(1)), int(header.group(2))
    levels = f"{header.group(3)}:{header.group(4)}"
    first_slot = int(header.group(5))
    if first_slot not in (0, 1):
        raise InvalidRecord(
            f"the header's last number must be 0 or 1 (the player who began), not {first_slot}",
            line=header_line,
            source=source,
        )
    try:
        record = GameRecord(width=width, height=height, source=source)
    except InvalidOption as exc:
        raise InvalidRecord(str(exc), line=header_line, source=source) from None

    moves: list[Move] = []
    times: list[int] = []
    move_lines: list[int] = []
    move_texts: list[str] = []
    names: list[str] = []
    code: int | None = None
    rule: str | None = None
    trailer = False
    for lineno in range(header_line + 1, len(lines) + 1):
        raw = lines[lineno - 1]
        s = raw.strip()
        if not s:
            continue
        m = _MOVE_RE.match(s)
        if m:
            if trailer:
                raise InvalidRecord(
                    f"move line {s[:40]!r} after the end of the move list",
                    line=lineno,
                    source=source,
                )
            moves.append(Move(int(m.group(1)) - 1, int(m.group(2)) - 1))
            times.append(int(m.group(3)) if m.group(3) is not None else 0)
            move_lines.append(lineno)
            move_texts.append(f"{m.group(1)},{m.group(2)}")
            continue
        wr = _WINNER_RULE_RE.match(s)
        if not trailer and _MOVE_LIKE_RE.match(s) and not (wr and parse_rule(wr.group(2))):
            raise InvalidRecord(
                f"cannot read move {s[:40]!r}: expected x,y or x,y,time_ms",
                line=lineno,
                source=source,
            )
        trailer = True
        if rule is not None:
            raise InvalidRecord(
                f"unexpected line {s[:40]!r} after the rule line", line=lineno, source=source
            )
        rm = _RULE_LINE_RE.match(s) or _WINNER_RULE_RE.match(s)
        if rm:
            value = rm.group(rm.lastindex or 1)
            parsed = parse_rule(value)
            if parsed is not None:
                rule = parsed
                continue
            if _RULE_LINE_RE.match(s):
                raise InvalidRecord(f"unknown rule {value!r}", line=lineno, source=source)
        im = _INT_RE.match(s)
        if im:
            if code is not None:
                raise InvalidRecord(
                    f"unexpected line {s[:40]!r} after the final number", line=lineno, source=source
                )
            code = int(im.group(1))
            continue
        if code is not None:
            raise InvalidRecord(
                f"unexpected line {s[:40]!r} after the final number", line=lineno, source=source
            )
        if len(names) == 2:
            raise InvalidRecord(
                f"unexpected line {s[:40]!r}: a .psq file ends with at most two player lines "
                "and a number",
                line=lineno,
                source=source,
            )
        names.append(s)

    record.moves = moves
    record.move_lines = move_lines
    record.move_texts = move_texts
    record.times_ms = times if any(times) else None
    record.rule = rule
    players = [None if n.lower() in HUMAN_NAMES else n for n in names] + [None, None]
    if first_slot == 1 and names:
        players[0], players[1] = players[1], players[0]
    record.players = (players[0], players[1])
    if levels != "0:0":
        record.properties["psq.levels"] = levels
    if code is not None and code != -1:
        record.properties["psq.code"] = str(code)
    return record


def _name_line(name: str | None, slot: int) -> str:
    if not name:
        return HUMAN_NAMES[slot]
    s = " ".join(name.split())
    if _MOVE_RE.match(s) or _INT_RE.match(s) or _RULE_LINE_RE.match(s) or _MOVE_LIKE_RE.match(s):
        s = f"'{s}'"  # keep a name that would read as a move, a number or a rule a name
    return s


def write_psq(record: GameRecord) -> str:
    """The record as ``.psq`` text (1-based ``x,y,time`` lines, ``\\n`` line ends)."""
    levels = record.properties.get("psq.levels", "0:0")
    if not re.fullmatch(r"-?\d+:-?\d+", levels):
        levels = "0:0"
    out = [f"Piskvorky {record.width}x{record.height}, {levels}, 0"]
    times = record.times_ms or []
    for i, m in enumerate(record.moves):
        t = times[i] if i < len(times) else 0
        out.append(f"{m.x + 1},{m.y + 1},{t}")
    black, white = record.players
    if black or white or record.rule:
        out.append(_name_line(black, 0))
        out.append(_name_line(white, 1))
    code = record.properties.get("psq.code", "-1")
    out.append(code if _INT_RE.match(code) else "-1")
    if record.rule:
        out.append(f"rule={record.rule}")
    return "\n".join(out) + "\n"
