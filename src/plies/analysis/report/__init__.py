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


def shown_categories(move) -> list[str]:
    """The categories the table shows for a move: those that do not repeat its class (the
    JSON keeps them all)."""
    return [c for c in move.categories if c != move.classification]


def summary_moments(review, t) -> tuple[str, str]:
    """The critical moments and the turning point as the table names the moves (``"15. h7"``,
    chess ``"3. Qh5"``), each ``t("none")`` when there is none; a winner who was ahead in
    every position is said to be so."""
    s = review.summary
    labels = s.critical_moment_labels or [
        f"{move_number(review.game, p)} {_move_at(review, p)}" for p in s.critical_moments
    ]
    moments = ", ".join(labels) or t("none")
    if s.turning_point_label:
        turning = s.turning_point_label
    elif s.turning_point:
        turning = f"{move_number(review.game, s.turning_point)} {_move_at(review, s.turning_point)}"
    elif s.winner_ahead_throughout and s.result:
        turning = t("ahead_throughout", player=t(s.result))
    else:
        turning = t("none")
    return moments, turning


def _move_at(review, ply: int) -> str:
    moves = review.game.get("moves") or []
    return moves[ply - 1] if 0 < ply <= len(moves) else ""
