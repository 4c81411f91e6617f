"""Opening books: symmetric keys against a brute-force reference, store/probe round trips,
a resumable build, the engine's book moves, the review's book label and the CLI."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from plies.analysis.gomoku import review_record
from plies.analysis.review import Budget
from plies.cli import main
from plies.errors import InvalidOption
from plies.gomoku.board import Board
from plies.gomoku.book import Book, Keys, symmetries
from plies.gomoku.engine import Engine
from plies.gomoku.notation import Move
from plies.gomoku.records import GameRecord
from plies.tune.book import BookSettings, build


def reference_images(stones, width, height):
    """Every image of the stones under the board's symmetries, written out by hand."""
    w, h = width - 1, height - 1
    maps = [lambda x, y: (x, y), lambda x, y: (w - x, y), lambda x, y: (x, h - y),
            lambda x, y: (w - x, h - y)]  # fmt: skip
    if width == height:
        maps += [lambda x, y: (y, x), lambda x, y: (w - y, x), lambda x, y: (y, h - x),
                 lambda x, y: (w - y, h - x)]  # fmt: skip
    return [frozenset((*f(x, y), c) for x, y, c in stones) for f in maps]


@settings(max_examples=60, deadline=None)
@given(
    size=hs.sampled_from([(15, 15), (9, 9), (12, 9)]),
    cells=hs.lists(hs.tuples(hs.integers(0, 14), hs.integers(0, 14)), max_size=8, unique=True),
)
def test_keys_are_the_same_for_every_symmetric_image(size, cells):
    width, height = size
    stones = [(x % width, y % height, 1 + i % 2) for i, (x, y) in enumerate(cells)]
    stones = list({(x, y): (x, y, c) for x, y, c in stones}.values())
    keys = Keys(width, height)
    key, _ = keys.key_of(stones)
    images = reference_images(stones, width, height)
    assert len(symmetries(width, height)) == len(images)
    for image in images:
        assert keys.key_of(sorted(image))[0] == key
    # a position that is no image of these stones has another key (hash collisions aside)
    if stones:
        x, y, c = stones[0]
        other = [(x, y, 3 - c), *stones[1:]]
        if frozenset(other) not in images:
            assert keys.key_of(other)[0] != key


def test_store_and_probe_through_a_mirror(tmp_path):
    book = Book.create(tmp_path / "b.sqlite", "freestyle", 15, 15, "free")
    stones = [(7, 7, 1), (8, 5, 2)]  # h8, i10: no symmetry of its own
    book.store(stones, [(Move(5, 9), 40, 6), (Move(9, 9), 10, 6)])
    book.commit()
    board = Board.from_moves(["h8", "g10"], 15)  # the mirror image (x -> 14 - x)
    found = book.probe(board)
    assert [(m.move, m.score, m.depth) for m in found] == [(Move(9, 9), 40, 6), (Move(5, 9), 10, 6)]
    assert book.probe(Board.from_moves(["h8", "h9"], 15)) == []
    # a symmetric position: a stored move comes with its twins
    book.store([(7, 7, 1)], [(Move(8, 7), 5, 4)])
    twins = {m.move for m in book.probe(Board.from_moves(["h8"], 15))}
    assert twins == {Move(8, 7), Move(6, 7), Move(7, 8), Move(7, 6)}
    with pytest.raises(InvalidOption, match="is a book for freestyle 15, not renju 15"):
        Book.create(tmp_path / "b.sqlite", "renju", 15, 15, "free")


SMALL = BookSettings("freestyle", 9, 9, "free", plies=3, nodes=300, multipv=2, window=80)


def rows(path):
    book = Book(path)
    out = sorted(book.db.execute("SELECT key, move, score, depth, visits FROM moves"))
    book.close()
    return out


@pytest.fixture(scope="module")
def small_book(tmp_path_factory):
    path = tmp_path_factory.mktemp("book") / "small.sqlite"
    stats = build(path, SMALL)
    assert stats["queued"] == 0 and stats["positions"] >= 3
    return path


def test_a_stopped_build_resumes_to_the_same_book(small_book, tmp_path):
    path = tmp_path / "resumed.sqlite"
    first = build(path, SMALL, max_positions=1)
    assert first["positions"] == 1 and first["queued"] >= 1
    build(path, SMALL, max_positions=1)
    final = build(path, SMALL)
    assert final["queued"] == 0
    assert rows(path) == rows(small_book)
    other = BookSettings(**{**SMALL.__dict__, "nodes": 999})
    with pytest.raises(InvalidOption, match="was built with nodes 300: resume it with the same"):
        build(path, other)


def test_the_engine_plays_book_moves_and_can_stop(small_book):
    book = Book(small_book)
    engine = Engine("freestyle", 9, hash_mb=1, book=book)
    board = Board.from_moves(["e5"], 9)
    r = engine.search(board, nodes=500)
    assert r.book and r.nodes == 0
    assert r.move in {m.move for m in book.probe(board)}
    engine.set_book(None)
    r = engine.search(board, nodes=500)
    assert not r.book and r.nodes > 0
    with pytest.raises(InvalidOption, match="book small.sqlite is for freestyle 9"):
        Engine("renju", 9, hash_mb=1, book=book)


def test_book_moves_obey_the_search_opening_rule(tmp_path):
    book = Book.create(tmp_path / "p.sqlite", "caro", 15, 15, "free")
    book.store([(7, 7, 1), (8, 7, 2)], [(Move(8, 8), 90, 5), (Move(4, 7), 10, 5)])
    book.commit()
    engine = Engine("caro", 15, hash_mb=1, book=book)
    board = Board.from_moves(["h8", "i8"], 15, "caro")
    assert engine.search(board, nodes=200).move == Move(8, 8)
    r = engine.search(board, nodes=200, opening="pro")
    assert r.book and r.move == Move(4, 7)  # i7 is too close to the centre under pro


def test_probing_is_fast(small_book):
    book = Book(small_book)
    board = Board.from_moves(["e5", "f4"], 9)
    book.probe(board)
    t0 = time.process_time()
    for _ in range(200):
        book.probe(board)
    per_probe = (time.process_time() - t0) / 200
    assert per_probe < 0.005  # the documented figure is under 1 ms; room for a loaded machine


def test_review_labels_book_moves(small_book):
    book = Book(small_book)
    board = Board(9)
    for _ in range(2):
        board.play(max(book.probe(board), key=lambda m: m.score).move)
    board.play("a1")
    review = review_record(
        GameRecord.from_board(board), Budget(nodes=200, solver_nodes=200), position_book=book
    )
    labels = [m.classification for m in review.moves]
    assert labels[:2] == ["book", "book"] and labels[2] != "book"


def test_cli_build_show_probe(tmp_path, capsys):
    path = str(tmp_path / "cli.sqlite")
    main(["book", "build", path, "--size", "9", "--plies", "2", "--nodes", "200",
          "--workers", "1"])  # fmt: skip
    main(["book", "show", path])
    out = capsys.readouterr().out
    assert "freestyle 9" in out and "0 positions queued" in out
    assert "grown from the empty board" in out
    main(["book", "probe", path, "--moves", "e5"])
    out = capsys.readouterr().out
    assert "book moves (" in out and " ms)" in out
    with pytest.raises(SystemExit) as info:
        main(["book", "probe", str(tmp_path / "missing.sqlite")])
    assert info.value.code == 2
    assert capsys.readouterr().err.strip().startswith("error: no opening book at")


def test_play_line_and_arena_option(small_book):
    from plies.arena import build_config
    from plies.gomoku.play import engine_line

    board = Board.from_moves(["e5"], 9)
    r = Engine("freestyle", 9, hash_mb=1, book=Book(small_book)).search(board, nodes=100)
    assert "book move (score" in engine_line(board, r)
    with pytest.raises(InvalidOption, match="no opening book at"):
        build_config(["plies:gomoku?book=/no/such.sqlite", "plies:random"], size="9")
    config = build_config([f"plies:gomoku?book={small_book}&nodes=100", "plies:random"],
                          size="9")  # fmt: skip
    assert config.engines[0].name


@pytest.mark.slow
def test_a_ray_build_makes_the_same_book(small_book, tmp_path):
    pytest.importorskip("ray")
    path = tmp_path / "ray.sqlite"
    stats = build(path, SMALL, workers=2, backend="ray")
    assert stats["queued"] == 0
    assert rows(path) == rows(small_book)


def test_a_book_grown_from_the_renju_openings(tmp_path, capsys):
    from plies.gomoku.openings import renju_openings
    from plies.tune.book import roots_from_openings

    settings = BookSettings("renju", 15, 15, "free", plies=4, nodes=300, multipv=1, window=0)
    roots = roots_from_openings("renju26", settings)
    assert len(roots) == 26 and roots[0] == [(7, 7, 1), (7, 6, 2), (7, 5, 1)]
    path = tmp_path / "r26.sqlite"
    stats = build(path, settings, roots=roots[:3], max_positions=2)
    assert stats["positions"] == 2 and stats["queued"] == 1
    # a resume with all 26 roots grows every opening (each searched once, no empty board)
    path_text = str(path)
    main(["book", "build", path_text, "--rule", "renju", "--plies", "4", "--nodes", "300",
          "--multipv", "1", "--window", "0", "--workers", "1", "--roots", "renju26"])  # fmt: skip
    assert "26 positions" in capsys.readouterr().out
    main(["book", "show", path_text])
    assert "grown from 26 root positions" in capsys.readouterr().out
    book = Book(path)
    assert len(book.root_keys()) == 26 and book.probe(Board(15, rule="renju")) == []
    engine = Engine("renju", 15, hash_mb=1, book=book)
    for opening in renju_openings()[:4]:
        board = Board.from_moves(list(opening.moves), 15, "renju")
        r = engine.search(board, nodes=200)
        assert r.book and r.move == book.probe(board)[0].move
        # the opening's three stones and the book's reply are the game's book plies
        assert book.book_plies([*opening.moves, r.move, Move(0, 0)]) == 4
        assert book.book_plies([*opening.moves[:2], Move(0, 0)]) == 0


def test_a_root_that_cannot_be_played_is_a_clear_error(tmp_path):
    settings = BookSettings("freestyle", 9, 9, "free", plies=3, nodes=100, multipv=1)
    with pytest.raises(InvalidOption, match=r"root 4,4 4,4: move 2 is not playable"):
        build(tmp_path / "bad.sqlite", settings, roots=[[(4, 4, 1), (4, 4, 2)]])
    with pytest.raises(InvalidOption, match=r"root 4,4 5,5: move 2 is not playable"):
        build(tmp_path / "bad.sqlite", settings, roots=[[(4, 4, 1), (5, 5, 1)]])


def test_a_best_first_book_plays_the_single_line_search_move(small_book, tmp_path):
    # a new book's default: each best move from a single-line search of the build's nodes
    book = Book(small_book)
    assert book.meta["search"] == "best"
    for moves in ([], ["e5"], ["e5", "f4"]):
        board = Board.from_moves(moves, 9)
        found = book.probe(board)
        if not found:
            continue
        engine = Engine("freestyle", 9, hash_mb=32)
        engine.new_game()
        r = engine.search(board, nodes=SMALL.nodes)
        assert found[0].move in _twins(board, r.move) and found[0].score == r.score
    # a book keeps its search: another is an error; a book without one was built by MultiPV
    multipv = BookSettings(**{**SMALL.__dict__, "search": "multipv"})
    with pytest.raises(InvalidOption, match="was built with search best: resume it with"):
        build(small_book, multipv)
    old = tmp_path / "old.sqlite"
    build(old, multipv, max_positions=1)
    legacy = Book(old)
    legacy.db.execute("DELETE FROM meta WHERE key = 'search'")
    legacy.commit()
    legacy.close()
    assert build(old, SMALL)["queued"] == 0  # resumed as the MultiPV book it is
    assert Book(old).meta.get("search") is None
    with pytest.raises(InvalidOption, match="unknown book search 'deep'"):
        build(old, BookSettings(**{**SMALL.__dict__, "search": "deep"}))


def _twins(board, move):
    """``move`` and its images under the symmetries that map ``board``'s stones to themselves."""
    keys = Keys(board.width, board.height)
    grid = board.to_array()
    stones = [(x, y, int(grid[y, x])) for y in range(board.height) for x in range(board.width)
              if grid[y, x]]  # fmt: skip
    base = keys.key_of(stones)[0]
    out = set()
    for f in symmetries(board.width, board.height):
        if keys.key_of([(*f(x, y), c) for x, y, c in stones])[0] == base:
            out.add(Move(*f(move.x, move.y)))
    return out


def test_alternatives_are_scored_below_the_best_move_as_in_their_own_search():
    from plies.gomoku.engine.search import WIN
    from plies.tune.book import anchored_score

    assert anchored_score(80, 100, 40) == 20  # 20 below the MultiPV best: 20 below 40
    assert anchored_score(150, 100, 40) == 39  # below the best move: it wins ties
    assert anchored_score(100, 100, 40) == 39
    assert anchored_score(WIN - 9, WIN - 7, 40) == 40  # won scores count plies: capped only
    assert anchored_score(-WIN + 4, 100, 40) == -WIN + 4
