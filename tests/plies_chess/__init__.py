"""Tests of plies.chess (not named tests/chess: that would shadow the python-chess package)."""
