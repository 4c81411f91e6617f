"""Saving games (Gomoku .psq or SGF, one file per game; chess PGN, one file for all) and the
JSON summary."""

from __future__ import annotations

import datetime as _dt
import io
import json
import re
from pathlib import Path

from plies.arena.play import GameResult
from plies.arena.timecontrol import TimeControl
from plies.errors import InvalidOption

GOMOKU_FORMATS = ("psq", "sgf")


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", name).strip("_")[:40] or "engine"


def gomoku_record_text(result: GameResult, fmt: str, event: str) -> str:
    """The game as .psq or SGF text (the reason and any failure in the SGF game comment)."""
    from plies.gomoku.notation import parse_move
    from plies.gomoku.records import GameRecord, write_record

    setup = result.job.setup
    winner = result.outcome.winner
    comment = result.outcome.reason
    if result.failure is not None:
        comment += f": {result.failure.message}"
        if result.failure.output:
            comment += "\nlast output:\n" + "\n".join(result.failure.output[-10:])
    record = GameRecord(
        width=setup.width,
        height=setup.height,
        rule=setup.rule,
        opening=setup.opening if setup.opening != "free" else None,
        moves=[parse_move(m, setup.width, setup.height) for m in result.moves],
        players=result.names,
        result={0: "black", 1: "white", None: "draw"}[winner],
        event=event,
        date=_dt.date.today().isoformat(),
        properties={"GC": comment, "GN": f"game {result.job.index + 1}"} if fmt == "sgf" else {},
        times_ms=[0] * result.opening_length + result.times_ms if fmt == "psq" else None,
    )
    return write_record(record, fmt)


def pgn_text(result: GameResult, tc: TimeControl, event: str) -> str:
    """The chess game as PGN: opening moves marked ``book``, engine moves with
    ``{score/depth time}`` comments, and a Termination tag."""
    import chess
    import chess.pgn

    game = chess.pgn.Game()
    board = chess.Board(result.start_fen) if result.start_fen else chess.Board()
    if result.start_fen:
        game.setup(board)
    h = game.headers
    h["Event"] = event
    h["Site"] = "plies arena"
    h["Date"] = _dt.date.today().strftime("%Y.%m.%d")
    h["Round"] = str(result.job.index + 1)
    h["White"], h["Black"] = result.names
    h["Result"] = result.outcome.result_text()
    h["TimeControl"] = tc.pgn_tag()
    h["Termination"] = result.outcome.reason
    node: chess.pgn.GameNode = game
    for i, uci in enumerate(result.moves):
        node = node.add_variation(chess.Move.from_uci(uci))
        if i < result.opening_length:
            node.comment = "book"
        elif i - result.opening_length < len(result.comments):
            node.comment = result.comments[i - result.opening_length]
    if result.failure is not None:
        text = result.failure.message
        if result.failure.output:
            text += " | last output: " + " / ".join(result.failure.output[-5:])
        node.comment = (node.comment + " " if node.comment else "") + text.replace("}", ")")
    out = io.StringIO()
    print(game, file=out, end="\n\n")
    return out.getvalue()


class GameWriter:
    """Writes each finished game into ``directory``: Gomoku games as
    ``NNNN-black-white.psq|sgf``, chess games appended to ``games.pgn``."""

    def __init__(
        self, directory: str | Path, gomoku_format: str = "psq", event: str = "plies match"
    ):
        if gomoku_format not in GOMOKU_FORMATS:
            raise InvalidOption(f"unknown game format {gomoku_format!r}: expected psq or sgf")
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InvalidOption(f"cannot create {self.directory}: {exc.strerror or exc}") from None
        self.format = gomoku_format
        self.event = event
        self.files: dict[int, str] = {}

    def write(self, result: GameResult) -> str:
        """Save one game; return the file it went to."""
        job = result.job
        if job.setup.game == "dots":
            from plies.arena.referees.dots import dots_record_text

            first, second = (_slug(n) for n in result.names)
            path = self.directory / f"{job.index + 1:04d}-{first}-{second}.dots"
            path.write_text(dots_record_text(result, self.event), encoding="utf-8")
        elif job.setup.game == "chess":
            path = self.directory / "games.pgn"
            with path.open("a", encoding="utf-8") as f:
                f.write(pgn_text(result, job.tcs[0], self.event))
        else:
            black, white = (_slug(n) for n in result.names)
            path = self.directory / f"{job.index + 1:04d}-{black}-{white}.{self.format}"
            path.write_text(gomoku_record_text(result, self.format, self.event), encoding="utf-8")
        self.files[job.index] = str(path)
        return str(path)


def write_json(data: dict, path: str | Path) -> None:
    """Write the summary (InvalidOption if the file cannot be written)."""
    try:
        Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InvalidOption(f"cannot write {path}: {exc.strerror or exc}") from None
