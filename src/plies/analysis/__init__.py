"""Game review: every move judged, mistakes and missed wins found and explained.

:mod:`plies.analysis.review` is game-agnostic (evaluations -> classifications -> summary),
as are :mod:`plies.analysis.scoring` (a position's lines, a move's scores and record) and
:mod:`plies.analysis.session` (budget, cache, progress, reports);
:mod:`plies.analysis.gomoku` and :mod:`plies.analysis.chess` review Gomoku-family and chess
games; :mod:`plies.analysis.report` writes the JSON, the terminal table and the HTML report;
:mod:`plies.analysis.i18n` holds the English and Vietnamese messages.
"""

from plies.analysis.review import Budget, MoveReview, Review

__all__ = ["Budget", "MoveReview", "Review"]
