"""Game review: every move judged, mistakes and missed wins found and explained.

:mod:`plies.analysis.review` is game-agnostic (evaluations -> classifications -> summary);
:mod:`plies.analysis.gomoku` reviews Gomoku-family games; :mod:`plies.analysis.report` writes
the JSON, the terminal table and the HTML report; :mod:`plies.analysis.i18n` holds the
English and Vietnamese messages.
"""

from plies.analysis.review import Budget, MoveReview, Review

__all__ = ["Budget", "MoveReview", "Review"]
