"""The 26 Renju openings (names, recognition under symmetry) and opening books."""

from plies.gomoku.notation import parse_moves
from plies.gomoku.openings import OpeningBook, identify_renju_opening, renju_openings


def test_names_and_kinds():
    openings = renju_openings()
    assert len(openings) == 26
    assert (openings[0].name, openings[3].name, openings[13].name) == (
        "Kansei",
        "Kagetsu",
        "Chosei",
    )
    assert openings[3].name_vi == "Hoa Nguyệt"
    assert [o.kind for o in openings].count("direct") == 13


def test_identify_under_symmetry():
    assert identify_renju_opening(parse_moves("h8 h9 i9")).name == "Kagetsu"
    assert identify_renju_opening(parse_moves("h8 g8 g7")).name == "Kagetsu"  # rotated
    assert identify_renju_opening(parse_moves("h8 i9 j10")).name == "Chosei"
    assert identify_renju_opening(parse_moves("h8 g7 f6")).name == "Chosei"  # reflected
    assert identify_renju_opening(parse_moves("a1 h9 i9")) is None
    assert identify_renju_opening(parse_moves("h8 h9")) is None
    # centred on other boards
    assert identify_renju_opening(parse_moves("j10 j11 k11", 19), 19, 19).name == "Kagetsu"


def test_books(tmp_path):
    book = OpeningBook.renju()
    assert book.book_plies(parse_moves("h8 h9 i9 j10 k11")) == 3
    assert book.book_plies(parse_moves("h8 a1")) == 1
    assert book.book_plies(parse_moves("a1 h8")) == 0
    path = tmp_path / "book.txt"
    path.write_text("# my book\nh8 h9 i9 g7 j10\n")
    mine = OpeningBook.load(path).merge(book)
    assert mine.book_plies(parse_moves("h8 h9 i9 g7 j10 k11")) == 5
    assert mine.book_plies(parse_moves("h8 g8 g7 i9 f6")) == 5  # the same line, reflected
