"""Dots and Boxes: rules with the extra turn, chain analysis, agents, an exact solver, display.

``Board`` (rules), ``solve`` / ``Solver`` (the compiled exact solver), ``ascii_board`` /
``svg_board`` (display) are imported on first use so that ``import plies.dots`` stays light.
"""

from plies.kernel_cache import ensure_fresh

ensure_fresh()  # before any kernel is loaded from numba's cache (see plies.kernel_cache)

__all__ = ["Board", "Solver", "ascii_board", "parse_size", "solve", "svg_board"]


def __getattr__(name: str):
    if name in ("Board", "parse_size"):
        from plies.dots import rules

        return getattr(rules, name)
    if name in ("Solver", "solve"):
        from plies.dots import solver

        return getattr(solver, name)
    if name in ("ascii_board", "svg_board"):
        from plies.dots import display

        return getattr(display, name)
    raise AttributeError(f"module 'plies.dots' has no attribute {name!r}")
