"""The ``pbrain-plies`` console script: a Gomocup (Piskvork protocol) brain.

A placeholder until the engine exists: it answers every start with an ERROR line.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Print the protocol's ``ERROR`` line and exit with status 1."""
    sys.stdout.write("ERROR pbrain-plies is not implemented yet\n")
    sys.stdout.flush()
    return 1


if __name__ == "__main__":
    sys.exit(main())
