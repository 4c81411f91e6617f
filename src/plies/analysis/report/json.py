"""The review as JSON (schema: docs/review-schema.json, ``schema_version`` 1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from plies.analysis.review import Review


def review_json(review: Review) -> dict[str, Any]:
    """The review as a JSON-ready dict."""
    return review.to_dict()


def write_json(review: Review, path: str | Path) -> None:
    """Write the review's JSON to ``path`` (UTF-8, indented)."""
    Path(path).write_text(
        json.dumps(review_json(review), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
