"""``plies serve``: the review and play service over HTTP.

What lives here: :mod:`.inputs` (the requests a client sends, checked and turned into review
and move specifications, with the same one-line errors as the CLI), :mod:`.store` (the SQLite
job store: jobs, reviews and, in the same file, the review's position cache), :mod:`.jobs`
(the runner that takes queued jobs and reviews them with :mod:`plies.analysis`), :mod:`.play`
(the engine's move and the board's state for a game client, with levels), :mod:`.app` (the
ASGI application: routes, limits, the token, server-sent events) and ``web/`` (the browser
board: static files, ES modules, no build step, no CDN).

Imports point down: this package may import :mod:`plies.analysis`, :mod:`plies.arena`, the
game packages and :mod:`plies.search`; nothing imports it but :mod:`plies.cli`. Starlette and
uvicorn (the ``serve`` extra) are imported only by :mod:`.app` and the ``serve`` command.
"""
