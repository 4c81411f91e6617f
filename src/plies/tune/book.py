"""``plies book build``: grow an opening book (:mod:`plies.gomoku.book`) by plies' own searches.

The build expands the opening tree breadth first, from the empty board or from given root
positions (``roots``: the 26 Renju openings, a balanced set; every Renju game under the
tournament rules starts from one of the 26). Each position met with fewer than ``plies``
stones is searched once: with ``search="best"`` (the default for a new book) a single-line
search of ``nodes`` nodes gives the best move, then a MultiPV search of ``nodes`` nodes the
alternatives; with ``search="multipv"`` (books built before session 40) one MultiPV search
gives all. The moves become the position's book moves, and those within ``window``
centi-units of the best lead to the positions searched next. Positions are keyed under the
board's symmetries, so mirror images and transpositions are searched once.

Searches run ``workers`` at a time in spawned processes (one engine each), or as Ray tasks
on a cluster (``backend="ray"``, the arena's :func:`~plies.arena.runners.ray_map`). Every
finished search is committed to the SQLite file at once: a build stopped by Ctrl-C, or by
``max_positions``, resumes where it was when run again with the same file.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path

from plies.errors import InvalidOption
from plies.gomoku.book import Book
from plies.gomoku.notation import Move, parse_move
from plies.pool import ignore_interrupt

Stones = list[tuple[int, int, int]]


@dataclass(frozen=True)
class BookSettings:
    """The game and the searches of a build."""

    rule: str = "freestyle"
    width: int = 15
    height: int = 15
    opening: str = "free"
    plies: int = 4
    nodes: int = 20000
    multipv: int = 3
    window: int = 60
    search: str | None = None  # "best" or "multipv"; None: the book's own ("best" when new)

    def check(self) -> None:
        for name, low in (("plies", 1), ("nodes", 1), ("multipv", 1), ("window", 0)):
            if getattr(self, name) < low:
                raise InvalidOption(f"{name} must be at least {low}, not {getattr(self, name)}")
        if self.search not in (None, *SEARCHES):
            raise InvalidOption(f"unknown book search {self.search!r}: expected best or multipv")


SEARCHES = ("best", "multipv")


_engine = None  # one engine (and key maker) per worker process, for _engine_key's game
_engine_key: tuple | None = None
_keys = None


def search_position(settings: BookSettings, stones: Stones) -> tuple[Stones, list]:
    """One book search (run in a worker): ``(stones, [(x, y, score, depth), ...])``, best
    first. The stones are replayed in order, so the opening rule applies to the lines. A
    MultiPV search asks for three times ``multipv`` lines and keeps the first that lead to
    different positions (symmetric twins, common near the centre, count once). With
    ``search="best"`` the best move comes from a single-line search first (a MultiPV search
    of k lines reaches a few plies less deep in the same nodes), and the MultiPV search,
    which starts from its table, adds the alternatives, scored as far below the best move's
    score as they are below the MultiPV search's own best line."""
    global _engine, _engine_key, _keys
    from plies.gomoku.board import Board
    from plies.gomoku.book import Keys
    from plies.gomoku.engine import Engine

    key = (settings.rule, settings.width, settings.height)
    if _engine is None or _engine_key != key:
        _engine = Engine(settings.rule, width=settings.width, height=settings.height, hash_mb=32)
        _keys = Keys(settings.width, settings.height)
        _engine_key = key
    board = Board(
        width=settings.width, height=settings.height, rule=settings.rule, opening=settings.opening
    )
    for x, y, _ in stones:
        board.play((x, y))
    if board.is_over:
        return stones, []
    _engine.new_game()
    color = 1 if len(stones) % 2 == 0 else 2
    seen: set[int] = set()
    kept = []
    best = None
    if settings.search == "best":
        first = _engine.search(board, nodes=settings.nodes)
        if first.move is None:
            return stones, []
        best = int(first.score)
        seen.add(_keys.key_of([*stones, (first.move.x, first.move.y, color)])[0])
        kept.append((first.move.x, first.move.y, best, int(first.depth)))
        if settings.multipv == 1:
            return stones, kept
    result = _engine.search(board, nodes=settings.nodes, multipv=3 * settings.multipv)
    lines = result.lines or ([] if result.move is None else [result])
    top = int(lines[0].score) if lines else 0
    for ln in lines:
        child, _ = _keys.key_of([*stones, (ln.move.x, ln.move.y, color)])
        if child not in seen and len(seen) < settings.multipv:
            seen.add(child)
            score = int(ln.score) if best is None else anchored_score(int(ln.score), top, best)
            kept.append((ln.move.x, ln.move.y, score, int(result.depth)))
    return stones, kept


def anchored_score(score: int, top: int, best: int) -> int:
    """An alternative's book score: as far below ``best`` (the single-line search's score)
    as ``score`` is below ``top`` (the MultiPV search's best line), and below ``best`` (so
    the single-line search's move wins ties); won and lost scores (which count plies, not
    centi-units) are kept as they are, capped at ``best``."""
    from plies.gomoku.engine.search import WIN_BOUND

    if max(abs(score), abs(top), abs(best)) > WIN_BOUND:
        return min(score, best)
    return min(best - 1, best - (top - score))


def _local(
    settings: BookSettings, todo: list[Stones], workers: int, stop: Callable[[], bool]
) -> Iterator[tuple[Stones, list]]:
    if workers <= 1:
        for stones in todo:
            if stop():
                return
            yield search_position(settings, stones)
        return
    pool = ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=ignore_interrupt
    )
    queue = iter(todo)
    pending: set = set()
    try:
        while True:
            while len(pending) < workers and not stop():
                stones = next(queue, None)
                if stones is None:
                    break
                pending.add(pool.submit(search_position, settings, stones))
            if not pending:
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def _ray_search(stones: Stones, settings: BookSettings) -> tuple[Stones, list]:
    return search_position(settings, stones)


def build(
    path: str | Path,
    settings: BookSettings,
    *,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    max_positions: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] = lambda: False,
    roots: list[Stones] | None = None,
) -> dict[str, int]:
    """Build (or resume) the book at ``path``; return its :meth:`Book.stats`.
    ``on_progress(searched, pending)`` after each search; ``max_positions`` caps the searches
    of this run. ``roots``: the positions the tree grows from (stones ``(x, y, colour)`` in
    playing order; default the empty board), added to a book that has them already or
    another tree (a resume with more roots grows those too)."""
    settings.check()
    if backend not in ("local", "ray"):
        raise InvalidOption(f"unknown backend {backend!r}: expected local or ray")
    from plies.gomoku.board import Board

    Board(width=settings.width, height=settings.height, rule=settings.rule,
          opening=settings.opening)  # fmt: skip
    book = Book.create(
        path, settings.rule, settings.width, settings.height, settings.opening,
        nodes=str(settings.nodes), multipv=str(settings.multipv),
        window=str(settings.window), plies=str(settings.plies),
        search=settings.search or "best",
    )  # fmt: skip
    stored = book.meta.get("search", "multipv")  # books before session 40: one MultiPV search
    if settings.search not in (None, stored):
        book.close()
        raise InvalidOption(
            f"{path} was built with search {stored}: resume it with the same search"
        )
    settings = replace(settings, search=stored)
    for name in ("nodes", "multipv", "window"):
        if book.meta.get(name) != str(getattr(settings, name)):
            book.close()
            raise InvalidOption(
                f"{path} was built with {name} {book.meta.get(name)}: resume it with the same "
                f"{name} (only plies may change)"
            )
    if book.meta.get("plies") != str(settings.plies):  # a deeper (or shallower) book
        book.db.execute("UPDATE meta SET value = ? WHERE key = 'plies'", (str(settings.plies),))
        book.meta["plies"] = str(settings.plies)
        book.commit()
    done = 0
    try:
        if roots:
            _add_roots(book, settings, roots)
        elif book.stats()["nodes"] == 0:
            book.add_node([], 0)
            book.commit()
        while max_positions is None or done < max_positions:
            todo = [s for _, s in book.pending(settings.plies - 1)]
            if not todo:
                break
            if max_positions is not None:
                todo = todo[: max_positions - done]
            left = len(todo)

            def stop() -> bool:
                return should_stop()

            if backend == "ray":
                from plies.arena.runners import ray_map

                results = ray_map(_ray_search, todo, max(1, workers), stop, ray_address,
                                  (settings,))  # fmt: skip
            else:
                results = _local(settings, todo, workers, stop)
            for stones, lines in results:
                _record(book, settings, stones, lines)
                done += 1
                left -= 1
                if on_progress is not None:
                    on_progress(done, left)
            if should_stop():
                break
        book.finish()
        return book.stats()
    finally:
        book.close()


def _add_roots(book: Book, settings: BookSettings, roots: list[Stones]) -> None:
    """Note the root positions (each replayed on the build's board first: an illegal one is
    an error naming it) and keep their keys in the book (``Book.root_keys``)."""
    from plies.gomoku.board import Board

    for stones in roots:
        board = Board(width=settings.width, height=settings.height, rule=settings.rule,
                      opening=settings.opening)  # fmt: skip
        for i, (x, y, colour) in enumerate(stones):
            if colour != 1 + i % 2 or not board.is_legal(Move(x, y)):
                raise InvalidOption(f"root {_stones_text(stones)}: move {i + 1} is not playable")
            board.play(Move(x, y))
        if board.is_over:
            raise InvalidOption(f"root {_stones_text(stones)}: the game is over there")
    keys = book.root_keys()
    for stones in roots:
        book.add_node(stones, len(stones))
        keys.add(book.key_of(stones)[0])
    book.set_meta("roots", " ".join(str(k) for k in sorted(keys)))
    most = max(len(stones) for stones in roots)
    book.set_meta("root_plies", str(max(most, int(book.meta.get("root_plies", 0)))))
    book.commit()


def _stones_text(stones: Stones) -> str:
    return " ".join(f"{x},{y}" for x, y, _ in stones)


def roots_from_openings(source: str, settings: BookSettings) -> list[Stones]:
    """The openings of ``source`` (as the arena reads ``--openings``: ``renju26``,
    ``balanced``, a file) as root positions for :func:`build`."""
    from plies.arena.game import GameSetup
    from plies.arena.openings import load_openings

    setup = GameSetup("gomoku", settings.rule, settings.width, settings.height, settings.opening)
    out = []
    for opening in load_openings(source, setup):
        cells = [parse_move(m, settings.width, settings.height) for m in opening.moves]
        out.append([(c.x, c.y, 1 + i % 2) for i, c in enumerate(cells)])
    if not out:
        raise InvalidOption(f"no openings in {source}")
    return out


def _record(book: Book, settings: BookSettings, stones: Stones, lines: list) -> None:
    """Store one search and note the positions its good lines lead to (one transaction)."""
    moves = [(Move(x, y), score, depth) for x, y, score, depth in lines]
    book.store(stones, moves)
    if moves:
        best = moves[0][1]
        color = 1 if len(stones) % 2 == 0 else 2
        for m, score, _ in moves:
            if score < best - settings.window:
                continue
            book.arrive([*stones, (m.x, m.y, color)])
    book.commit()
