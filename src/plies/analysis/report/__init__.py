"""Review outputs: JSON (:mod:`.json`), the terminal table (:mod:`.terminal`), the
self-contained HTML report (:mod:`.html`) and its SVG board (:mod:`.svg`)."""


def move_number(game: dict, ply: int) -> str:
    """How the ``ply``-th move is numbered in the reports: ``"12."`` (Gomoku: the stone
    count), chess as players write it, ``"8."`` for White's move and ``"8..."`` for Black's
    (from the FEN before the move)."""
    fens = game.get("fens") if game.get("game") == "chess" else None
    if fens and 0 < ply <= len(fens):
        fields = fens[ply - 1].split()
        return f"{fields[5]}." if fields[1] == "w" else f"{fields[5]}..."
    return f"{ply}."
