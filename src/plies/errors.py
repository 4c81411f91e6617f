"""The exception family for bad input.

Every error a user can cause (an illegal move, a malformed record, a broken protocol line)
raises a subclass of :class:`PliesError` with a one-line message. The CLI prints the message
and exits with status 2; protocol front ends answer ``ERROR <message>`` and keep running.
"""


class PliesError(Exception):
    """Base class of every error caused by bad input."""


class InvalidMove(PliesError):
    """A move that cannot be played: unparsable, off the board, occupied, or after the end."""


class ForbiddenMove(InvalidMove):
    """A Renju forbidden move (overline, double four, double three) when forbidden means illegal."""


class GameOver(InvalidMove):
    """A move played after the game has already ended."""


class InvalidRecord(PliesError):
    """A malformed game record; the message names the line where the problem is."""

    def __init__(self, message: str, line: int | None = None, source: str | None = None):
        where = ""
        if source:
            where = f"{source}:"
        if line is not None:
            where += f"{line}:" if source else f"line {line}:"
        super().__init__(f"{where} {message}" if where else message)
        self.line = line
        self.source = source


class InvalidOption(PliesError):
    """A bad option value: unknown rule, unsupported board size, bad limit."""


class ProtocolError(PliesError):
    """A malformed protocol line (pbrain, UCI)."""
