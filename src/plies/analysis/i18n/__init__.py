"""Message catalogues of the review (English and Vietnamese).

Every user-facing string of the review goes through :func:`translator`: ``t = translator("vi")``
then ``t("note_blocks_four", move="h8", opp="Trắng")``. The catalogues are plain dicts of
``str.format`` templates in :mod:`plies.analysis.i18n.en` and :mod:`plies.analysis.i18n.vi`;
both hold the same keys (a test checks it).
"""

from __future__ import annotations

from collections.abc import Callable

from plies.analysis.i18n import en, vi
from plies.errors import InvalidOption

CATALOGUES: dict[str, dict[str, str]] = {"en": en.MESSAGES, "vi": vi.MESSAGES}
LANGUAGES = tuple(CATALOGUES)

Translator = Callable[..., str]


def translator(lang: str = "en") -> Translator:
    """The message function of ``lang`` (``en`` or ``vi``)."""
    try:
        messages = CATALOGUES[lang]
    except KeyError:
        raise InvalidOption(
            f"unknown language {lang!r}: expected {' or '.join(LANGUAGES)}"
        ) from None

    def t(key: str, **params: object) -> str:
        return messages[key].format(**params) if params else messages[key]

    return t


def messages(lang: str = "en") -> dict[str, str]:
    """The whole catalogue of ``lang`` (the HTML report embeds its interface strings)."""
    return dict(CATALOGUES[lang])
