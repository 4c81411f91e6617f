"""The browser board in headless Chromium against a real server: play moves against the engine
(Gomoku and chess), undo, Renju's forbidden points shown and refused, submit a game for
review, see the badges and the graph, step with the keyboard, no console errors. Skipped (with
the reason) where Playwright or Chromium is missing, as the HTML report's browser test."""

from __future__ import annotations

import shutil

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")
CHROMIUM = next(
    (p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p),
    None,
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)"
)

GAME = "e5 k11 f5 m9 g5 c12 a15 c13 h5"  # white's a15 misses the win (the report's test game)


def test_board_in_browser(serve, tmp_path):
    s = serve()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(600_000)  # a cold numba cache compiles on the first move
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(s.url + "/")
            page.wait_for_selector("body[data-moves='0']")
            assert page.locator("#board rect.hit").count() == 15 * 15
            # play against the engine at level 1
            page.select_option("#level", "1")
            page.click("#board rect.hit[data-cell='h8']")
            page.wait_for_selector("body[data-moves='2']:not([data-thinking])")
            assert page.locator("#board circle.stone").count() == 2
            assert "plies:" in page.inner_text("#engine-line")
            page.click("#board rect.hit[data-cell='h8']")  # occupied: refused, said so
            page.wait_for_function("document.getElementById('status').textContent.length > 0")
            assert "occupied" in page.inner_text("#status")
            # the browser logs the refused request (400) as a console error: that one only
            assert len(errors) == 1 and "400" in errors[0], errors
            errors.clear()
            page.click("#btn-undo")
            page.wait_for_selector("body[data-moves='0']")
            # 19x19 Renju: the engine plays black after swapping sides
            page.select_option("#size", "19")
            page.wait_for_selector("body[data-moves='0']")
            page.select_option("#game", "renju")
            page.wait_for_selector("body[data-moves='0']")
            assert page.locator("#board rect.hit").count() == 19 * 19
            page.click("#btn-swap")
            page.wait_for_selector("body[data-moves='1']:not([data-thinking])")
            # a Renju position from the address: black to move, g8 is a double three
            page.goto(s.url + "/?game=renju&moves=h8,a1,i8,a3,g10,a5,g11,a7")
            page.wait_for_selector("body[data-moves='8']")
            forbidden = page.locator("#board g.forbidden")
            assert forbidden.count() == 1 and forbidden.get_attribute("data-cell") == "g8"
            page.click("#board rect.hit[data-cell='g8']")
            page.wait_for_function("document.getElementById('status').textContent.length > 0")
            assert "forbidden" in page.inner_text("#status")
            assert len(errors) == 1 and "400" in errors[0], errors
            errors.clear()
            # chess: e2-e4 by clicks, the engine answers
            page.select_option("#game", "chess")
            page.wait_for_selector("body[data-moves='0']")
            page.wait_for_selector("#board text.piece")
            assert page.locator("#board text.piece").count() == 32
            page.click("#board rect.square[data-square='e2']")
            page.click("#board rect.square[data-square='e4']")
            page.wait_for_selector("body[data-moves='2']:not([data-thinking])")
            # a review: paste, submit, follow the progress, browse
            page.click("#tab-review")
            page.fill("#game-text", GAME)
            page.select_option("#r-tier", "quick")
            page.click("#btn-submit")
            page.wait_for_selector("#moves-table tr[data-ply='9']")
            assert page.locator("#moves-table .badge").count() == 9
            assert page.locator("#chart circle.pt").count() == 10
            assert "Missed win" in page.inner_text("#movelist")
            assert page.get_attribute("body", "data-ply") == "9"
            page.keyboard.press("Home")
            assert page.get_attribute("body", "data-ply") == "0"
            for _ in range(7):
                page.keyboard.press("ArrowRight")
            assert page.get_attribute("body", "data-ply") == "7"
            assert "Missed win" in page.inner_text("#detail")
            assert page.inner_text("#explanation")
            page.keyboard.press("b")  # the best line as numbered ghost stones
            assert page.locator("#board circle.ghost").count() >= 1
            page.click("#chart circle.pt[data-ply='3']")
            assert page.get_attribute("body", "data-ply") == "3"
            link = page.get_attribute("#permalink", "href")
            job_id = link.split("=")[1]
            # the link reopens the review in a new page
            other = browser.new_page()
            other.set_default_timeout(600_000)
            other.on("pageerror", lambda e: errors.append(str(e)))
            other.goto(s.url + link)
            other.wait_for_selector("#moves-table tr[data-ply='9']")
            assert s.client.get(f"/api/reviews/{job_id}").json()["status"] == "done"
            page.screenshot(path=str(tmp_path / "board.png"), full_page=True)
            assert errors == []
        finally:
            browser.close()
