"""The HTML report in headless Chromium: it renders, stepping moves updates board and chart,
no console errors. Skipped (with the reason) where Playwright or Chromium is missing."""

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from plies.analysis.gomoku import review_record
from plies.analysis.report.html import write_html
from plies.analysis.review import Budget
from plies.gomoku.records import read_record

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")
CHROMIUM = next(
    (p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p),
    None,
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)"
)


@contextmanager
def open_report(review, path) -> Iterator[tuple[Any, list[str]]]:
    """Write the HTML report of ``review`` to ``path`` and open it in a headless Chromium
    page; yield the page and the list that collects its console errors and exceptions."""
    write_html(review, path)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(path.as_uri())
            yield page, errors
        finally:
            browser.close()


def test_report_in_browser(tmp_path):
    record = read_record("e5 k11 f5 m9 g5 c12 a15 c13 h5", rule="freestyle")
    review = review_record(record, Budget(nodes=2000, solver_nodes=2000))
    path = tmp_path / "review.html"
    with open_report(review, path) as (page, errors):
        stones = "#board .stones circle[r='14.4']"
        assert page.get_attribute("body", "data-ply") == "9"
        assert page.locator(stones).count() == 9
        page.keyboard.press("Home")
        assert page.locator(stones).count() == 0
        for _ in range(7):
            page.keyboard.press("ArrowRight")
        assert page.get_attribute("body", "data-ply") == "7"
        assert page.locator(stones).count() == 7
        assert "a15" in page.inner_text("#detail")
        assert "Missed win" in page.inner_text("#detail")
        cursor = page.get_attribute("#chart #cursor", "x1")
        page.click("#btn-prev")
        assert page.get_attribute("body", "data-ply") == "6"
        assert page.get_attribute("#chart #cursor", "x1") != cursor
        page.click("#chart circle.pt[data-ply='3']")
        assert page.get_attribute("body", "data-ply") == "3"
        page.click("#btn-next")
        page.keyboard.press("b")  # the best line as numbered ghost stones
        assert page.locator("#board .ghost").count() >= 1
        page.screenshot(path=str(tmp_path / "review.png"), full_page=True)
        assert errors == []


def test_chess_report_in_browser(tmp_path):
    from plies.analysis.chess import load_pgn, review_game

    game = load_pgn(text="1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Nc3 a6 5. Qxf7# 1-0")
    review = review_game(game, Budget(nodes=3000))
    path = tmp_path / "chess.html"
    with open_report(review, path) as (page, errors):
        pieces = "#board .stones text.piece"
        assert page.get_attribute("body", "data-ply") == "9"
        assert page.locator(pieces).count() == 31  # Qxf7# took the f7 pawn
        page.keyboard.press("Home")
        assert page.locator(pieces).count() == 32
        for _ in range(7):
            page.keyboard.press("ArrowRight")
        assert page.get_attribute("body", "data-ply") == "7"
        assert "4. White Nc3" in page.inner_text("#detail")
        assert "Missed win" in page.inner_text("#detail")
        page.keyboard.press("b")  # the best line as numbered arrows on the position before
        assert page.locator("#board .ghost").count() >= 1
        page.click("#chart circle.pt[data-ply='3']")
        assert page.get_attribute("body", "data-ply") == "3"
        page.screenshot(path=str(tmp_path / "chess.png"), full_page=True)
        assert errors == []
