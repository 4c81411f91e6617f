"""Opening positions for matches: Gomoku offset files, .psq/.sgf records, the 26 Renju
openings, and EPD/PGN for chess; in file order or shuffled with a seed.

Gomoku offset format (Gomocup and c-gomoku-cli): one opening per line, moves as ``dx,dy``
offsets from the centre ``(width // 2, height // 2)``, ``dy`` growing downwards like pbrain's
``y``; pairs are separated by spaces and/or commas (``0,0, 1,0, -1,1`` or ``0,0 1,0 -1,1``).
Black plays the first move. Blank lines and ``#`` comments are skipped.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from plies.arena.game import GameSetup, Opening
from plies.errors import InvalidOption, InvalidRecord, PliesError
from plies.gomoku import openings as gomoku_openings

RENJU26 = "renju26"
BALANCED = "balanced"  # the shipped balanced set for the match's rule, size and opening rule
STDIN = "-"  # openings read from standard input
_INT = re.compile(r"[+-]?\d+")


def renju_openings(setup: GameSetup) -> list[Opening]:
    """The 26 standard Renju openings (first three stones), centred on the board."""
    return [
        Opening(
            tuple(m.pbrain() for m in o.moves_on(setup.width, setup.height)),
            name=f"{RENJU26}:{o.number}",
        )
        for o in gomoku_openings.renju_openings()
    ]


def parse_offsets(line: str) -> list[tuple[int, int]]:
    """The ``(dx, dy)`` moves of one offset-format line; ValueError naming what is wrong."""
    body = line.split("#", 1)[0]
    junk = re.sub(r"[+-]?\d+|[\s,]", "", body)
    if junk:
        raise ValueError(f"unexpected {junk[:10]!r}: expected dx,dy offsets")
    values = [int(v) for v in _INT.findall(body)]
    if len(values) % 2:
        raise ValueError("an odd number of coordinates")
    return [(values[i], values[i + 1]) for i in range(0, len(values), 2)]


def parse_offset_line(line: str, setup: GameSetup) -> tuple[str, ...]:
    """The moves of one offset-format line, as ``x,y`` on the ``setup`` board."""
    cx, cy = setup.width // 2, setup.height // 2
    return tuple(f"{dx + cx},{dy + cy}" for dx, dy in parse_offsets(line))


def _read_text(path: Path) -> str:
    if str(path) == STDIN:
        return _stdin_text()
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InvalidOption(f"cannot read openings file {path}: {exc.strerror or exc}") from None


_stdin_cache: list[str] = []


def _stdin_text() -> str:
    """Standard input, read once (a match asks for its openings' text only once, but a
    record read from stdin is looked at twice: to tell its format, then to read it)."""
    if not _stdin_cache:
        _stdin_cache.append(sys.stdin.read())
    return _stdin_cache[0]


def _name(path: Path) -> str:
    return "<stdin>" if str(path) == STDIN else path.name


def _gomoku_offsets(path: Path, setup: GameSetup) -> list[Opening]:
    openings = []
    for number, line in enumerate(_read_text(path).splitlines(), 1):
        if not line.split("#", 1)[0].strip():
            continue
        try:
            moves = parse_offset_line(line, setup)
        except ValueError as exc:
            raise InvalidRecord(str(exc), line=number, source=_name(path)) from None
        openings.append(Opening(moves, name=f"{_name(path)}:{number}"))
    return openings


def _gomoku_record(path: Path, setup: GameSetup, plies: int | None) -> list[Opening]:
    from plies.gomoku.records import load_record, read_record

    if str(path) == STDIN:
        record = read_record(_stdin_text(), source="<stdin>")
    elif not path.is_file():
        raise InvalidOption(f"cannot read openings file {path}: no such file")
    else:
        record = load_record(str(path))
    if (record.width, record.height) != (setup.width, setup.height):
        raise InvalidOption(
            f"openings file {path} is for a {record.size_text} board, the match is on "
            f"{setup.width}x{setup.height}"
        )
    moves = tuple(m.pbrain() for m in record.moves)
    return [Opening(moves[:plies] if plies is not None else moves, name=_name(path))]


def _epd(path: Path) -> list[Opening]:
    import chess

    openings = []
    for number, line in enumerate(_read_text(path).splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split()
        board = chess.Board(None)
        try:
            if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
                board.set_fen(" ".join(fields[:6]))
            else:
                board.set_epd(line.strip())
        except ValueError as exc:
            raise InvalidRecord(f"bad EPD/FEN: {exc}", line=number, source=_name(path)) from None
        if not board.is_valid():
            raise InvalidRecord("illegal position", line=number, source=_name(path))
        openings.append(Opening(fen=board.fen(), name=f"{_name(path)}:{number}"))
    return openings


def _dots_lines(path: Path, plies: int | None) -> list[Opening]:
    """Dots openings: a ``.dots`` game record (its moves), or one opening per line, lines
    separated by spaces (``h1,1 v0,2``); ``#`` starts a comment."""
    text = _read_text(path)
    if path.suffix.lower() == ".dots":
        from plies.arena.referees.dots import load_dots_record

        _, moves = load_dots_record(text)
        return [Opening(tuple(moves[:plies] if plies is not None else moves), name=path.name)]
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        moves = line.split("#", 1)[0].split()
        if moves:
            openings.append(Opening(tuple(moves), name=f"{_name(path)}:{number}"))
    return openings


def _pgn(path: Path, plies: int | None) -> list[Opening]:
    import io

    import chess.pgn

    stream = io.StringIO(_read_text(path))
    openings = []
    while True:
        try:
            game = chess.pgn.read_game(stream)
        except (ValueError, KeyError) as exc:
            raise InvalidRecord(f"cannot read PGN: {exc}", source=_name(path)) from None
        if game is None:
            break
        if game.errors:
            raise InvalidRecord(f"game {len(openings) + 1}: {game.errors[0]}", source=_name(path))
        board = game.board()
        fen = board.fen() if "FEN" in game.headers else None
        moves = tuple(m.uci() for m in game.mainline_moves())
        if plies is not None:
            moves = moves[:plies]
        openings.append(Opening(moves, fen=fen, name=f"{_name(path)}#{len(openings) + 1}"))
    return openings


def _stdin_suffix(game: str, text: str) -> str:
    """The extension a file holding ``text`` would have, for openings read from stdin."""
    if game == "gomoku":
        from plies.gomoku.records import detect_format

        fmt = detect_format(text)
        return f".{fmt}" if fmt in ("psq", "sgf") else ""
    if game == "chess":
        return ".pgn" if text.lstrip().startswith("[") else ".epd"
    return ""


def load_openings(source: str, setup: GameSetup, plies: int | None = None) -> list[Opening]:
    """The openings in ``source``: ``renju26``, ``balanced`` (the set shipped for the setup's
    rule, size and opening rule, :mod:`plies.gomoku.balanced`), or a file by extension
    (Gomoku: ``.psq``, ``.sgf``, anything else offset lines; chess: ``.epd``/``.fen``/``.txt``
    FENs, ``.pgn``).
    ``plies`` cuts record and PGN openings to their first moves. Every opening is checked
    by replaying it; a bad one is an error naming the file and line. ``-`` reads standard
    input, its kind told by the content: a .psq/.sgf record or offset lines (Gomoku), PGN
    when it starts with a tag pair or EPD/FEN lines (chess), move lines (dots)."""
    from plies.arena.referees import make_referee

    if plies is not None and plies < 0:
        raise InvalidOption(f"opening plies must not be negative, not {plies}")
    path = Path(source)
    suffix = path.suffix.lower()
    if source == STDIN:
        _stdin_cache.clear()
        suffix = _stdin_suffix(setup.game, _stdin_text())
    if setup.game == "gomoku":
        if source == RENJU26:
            openings = renju_openings(setup)
        elif source == BALANCED:
            from plies.gomoku.balanced import shipped_path

            found = shipped_path(setup.rule, setup.width, setup.height, setup.opening)
            openings = [
                Opening(o.moves, name=f"{BALANCED}:{o.name.rsplit(':', 1)[-1]}")
                for o in _gomoku_offsets(found, setup)
            ]
        elif suffix in (".psq", ".sgf"):
            openings = _gomoku_record(path, setup, plies)
        else:
            openings = _gomoku_offsets(path, setup)
    elif setup.game == "chess":
        openings = _pgn(path, plies) if suffix == ".pgn" else _epd(path)
    elif setup.game == "dots":
        openings = _dots_lines(path, plies)
    else:
        raise InvalidOption(f"no openings for game {setup.game!r}")
    if not openings:
        raise InvalidOption(f"openings file {source} holds no openings")
    for opening in openings:
        try:
            make_referee(setup, opening)
        except PliesError as exc:
            raise InvalidOption(f"{source}: {exc}") from None
    return openings


def order_openings(
    openings: list[Opening], order: str = "sequential", seed: int | None = None
) -> list[Opening]:
    """The openings ``sequential`` (as given) or ``random`` (shuffled with ``seed``)."""
    if order == "sequential":
        return list(openings)
    if order == "random":
        shuffled = list(openings)
        random.Random(seed).shuffle(shuffled)
        return shuffled
    raise InvalidOption(f"unknown openings order {order!r}: expected sequential or random")
