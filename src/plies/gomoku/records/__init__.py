"""Gomoku game records: Piskvork ``.psq``, Gomoku SGF (``GM[4]``) and plain move lists.

::

    from plies.gomoku.records import load_record, read_record, write_record, save_record

    record = load_record("game.psq")          # format from the extension, else the content
    board = record.to_board()                 # replay with the record's rule (or rule=...)
    print(write_record(record, "sgf"))
    save_record(record, "game.txt")

Every malformed input raises :class:`plies.errors.InvalidRecord` with a one-line message
naming the line (and the file, when read from one). See docs/formats.md for the formats.
"""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

from plies.errors import InvalidOption, InvalidRecord
from plies.gomoku.records.model import GameRecord, parse_result, parse_rule, parse_size
from plies.gomoku.records.psq import looks_like_psq, read_psq, write_psq
from plies.gomoku.records.sgf import looks_like_sgf, read_sgf, write_sgf
from plies.gomoku.records.text import read_text, write_text

__all__ = [
    "FORMATS",
    "GameRecord",
    "detect_format",
    "example_record",
    "load_record",
    "parse_result",
    "parse_rule",
    "parse_size",
    "read_record",
    "save_record",
    "write_record",
]

FORMATS = ("psq", "sgf", "text")
_EXTENSIONS = {".psq": "psq", ".sgf": "sgf", ".txt": "text", ".text": "text", ".moves": "text"}
_ALIASES = {"psq": "psq", "piskvork": "psq", "sgf": "sgf", "text": "text", "txt": "text"}


def _format_name(fmt: str) -> str:
    name = _ALIASES.get(str(fmt).lower().lstrip("."))
    if name is None:
        raise InvalidOption(f"unknown record format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return name


def detect_format(text: str | None = None, path: str | os.PathLike | None = None) -> str:
    """``psq``, ``sgf`` or ``text``: from the file extension when it is one of ``.psq``,
    ``.sgf``, ``.txt``, ``.text``, ``.moves``; otherwise from the content (a ``Piskvorky``
    header, an SGF ``(;``, anything else is a move list)."""
    if path is not None:
        fmt = _EXTENSIONS.get(Path(path).suffix.lower())
        if fmt:
            return fmt
    if text is not None:
        if looks_like_psq(text):
            return "psq"
        if looks_like_sgf(text):
            return "sgf"
    return "text"


def _size_arg(size: int | str | tuple[int, int] | None) -> tuple[int, int] | None:
    if size is None:
        return None
    if isinstance(size, tuple):
        width, height = size
        return parse_size(f"{width}x{height}")
    try:
        return parse_size(str(size))
    except ValueError as exc:
        raise InvalidOption(str(exc)) from None


def read_record(
    text_or_path: str | os.PathLike,
    fmt: str | None = None,
    *,
    rule: str | None = None,
    size: int | str | tuple[int, int] | None = None,
    source: str | None = None,
    allow_path: bool = True,
) -> GameRecord:
    """Read a record from text, or from a file when given a :class:`~pathlib.Path` or a
    one-line string naming an existing file (unless ``allow_path`` is False: text from a
    client of the service is always text).

    ``fmt`` (psq, sgf, text) skips the detection. ``rule`` replaces the record's rule (and for
    SGF skips the check of ``RU``); ``size`` (``15``, ``"20x15"`` or ``(20, 15)``) replaces the
    board size (for move lists it also fixes how algebraic rows are read). ``source`` names
    the text in error messages.
    """
    if allow_path and (
        isinstance(text_or_path, os.PathLike)
        or (
            isinstance(text_or_path, str)
            and "\n" not in text_or_path
            and len(text_or_path) < 4096
            and os.path.isfile(text_or_path)
        )
    ):
        return load_record(text_or_path, fmt, rule=rule, size=size)
    text = str(text_or_path)
    name = _format_name(fmt) if fmt else detect_format(text)
    rule_name = None
    if rule is not None:
        rule_name = parse_rule(rule)
        if rule_name is None:
            raise InvalidOption(
                f"unknown rule {rule!r}: expected freestyle, standard, renju, caro or caro5"
            )
    dims = _size_arg(size)
    if name == "text":
        return read_text(text, source=source, rule=rule_name, size=dims)
    if name == "sgf":
        record = read_sgf(text, source=source, rule=rule_name)
    else:
        record = read_psq(text, source=source)
        if rule_name is not None:
            record.rule = rule_name
    if dims is not None:
        record.width, record.height = dims
    return record


def load_record(
    path: str | os.PathLike,
    fmt: str | None = None,
    *,
    rule: str | None = None,
    size: int | str | tuple[int, int] | None = None,
) -> GameRecord:
    """Read the record stored in the file ``path`` (UTF-8; Latin-1 accepted as a fallback).

    The format comes from ``fmt``, else the extension, else the content. A file that cannot
    be read raises :class:`InvalidRecord` too. The path ``-`` reads standard input.
    """
    source = os.fspath(path)
    if source == "-":
        text = sys.stdin.read().lstrip("\ufeff")
        name = _format_name(fmt) if fmt else detect_format(text)
        return read_record(text, name, rule=rule, size=size, source="<stdin>")
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InvalidRecord(f"cannot read file: {exc.strerror or exc}", source=source) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    name = _format_name(fmt) if fmt else detect_format(text, path)
    return read_record(text, name, rule=rule, size=size, source=source)


def write_record(record: GameRecord, fmt: str, **options) -> str:
    """The record as text in ``fmt`` (psq, sgf or text). ``text`` takes
    ``notation="algebraic"|"pbrain"``."""
    name = _format_name(fmt)
    if name == "psq":
        return write_psq(record, **options)
    if name == "sgf":
        return write_sgf(record, **options)
    return write_text(record, **options)


def save_record(
    record: GameRecord, path: str | os.PathLike, fmt: str | None = None, **options
) -> None:
    """Write the record to ``path``; the format is ``fmt`` or comes from the extension."""
    if fmt is None:
        fmt = _EXTENSIONS.get(Path(path).suffix.lower())
        if fmt is None:
            raise InvalidOption(
                f"cannot tell the record format from {os.fspath(path)!r}: "
                "use .psq, .sgf or .txt, or pass fmt"
            )
    Path(path).write_text(write_record(record, fmt, **options), encoding="utf-8", newline="\n")


EXAMPLE_GAME = "renju-example.sgf"


def example_record(name: str = EXAMPLE_GAME) -> GameRecord:
    """A sample game shipped with plies (``plies/data/``; ``examples/`` in a source checkout).

    The default is a 15x15 Renju game won by black with exactly five, whose final position
    has forbidden points for black.
    """
    packaged = resources.files("plies").joinpath("data").joinpath(name)
    if packaged.is_file():
        return read_record(packaged.read_text(encoding="utf-8"), source=name)
    checkout = Path(__file__).resolve().parents[4] / "examples" / name
    if checkout.is_file():
        return load_record(checkout)
    raise InvalidRecord(f"the sample game {name!r} is not installed", source=name)
