"""plies: play, solve and review two-player board games at compiled speed."""

__version__ = "0.1.0"
