"""Issue 16 item 9: a server restart silently lost the student's edits (the new session was
rebuilt from an address bar the lazy sync had not brought up to date, and the next click
dropped the edits). Now the canvas hands its points to the new session, which says so."""

from __future__ import annotations

import pytest
from appserver import AppServer
from canvas_page import CANVAS, open_app, wait_refit
from conftest import open_page

pytestmark = pytest.mark.browser


def test_a_restarted_server_gets_the_points_back_from_the_browser(browser):
    first = AppServer(timeout=120)
    url = first.start()
    try:
        page = open_page(browser, url, viewport={"width": 1400, "height": 950})
        open_app(page)
        n0 = int(page.evaluate(f"document.querySelector('{CANVAS}').dataset.nPoints"))
        box = page.locator(f"{CANVAS} .nsewdrag").bounding_box()
        for k in range(3):  # clicks the session has not heard of yet (no pause, no sync)
            page.mouse.click(box["x"] + 30 + 25 * k, box["y"] + 30)
            wait_refit(page, k + 1)
        assert int(page.evaluate(f"document.querySelector('{CANVAS}').dataset.syncs")) == 0
    finally:
        first.stop()
    second = AppServer(timeout=120)
    second.port, second.url = first.port, first.url  # the same address: the tab reconnects
    second.start()
    try:
        page.get_by_text("A new session started").wait_for()  # the tab reloaded itself
        assert f"your {n0 + 3} points came back" in page.inner_text("body")
        # the new session has them: the Step-through uses them, and a click adds to them
        page.wait_for_function(
            f"(() => {{ const r = document.querySelector('{CANVAS}');"
            f" return r && r.__state && r.__state.drawn && Number(r.dataset.nPoints) === {n0 + 3}"
            " && Number(r.dataset.fitSeq) >= Number(r.dataset.seq); })()")
        box = page.locator(f"{CANVAS} .nsewdrag").bounding_box()
        page.mouse.click(box["x"] + 30, box["y"] + 90)
        page.wait_for_function(
            f"Number(document.querySelector('{CANVAS}').dataset.nPoints) === {n0 + 4}")
        page.locator('[data-testid="stSidebarNav"] a', has_text="Step-through").click()
        page.wait_for_function(f"document.body.innerText.includes('· n = {n0 + 4} ·')")
        assert not page.js_errors
    finally:
        page.context.close()
        second.stop()
