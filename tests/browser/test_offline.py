"""No request leaves the server: every page loads and works offline (a school's network)."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser

PAGES = ["/", "/worked_examples", "/step_through", "/compare_solvers", "/kernels",
         "/generalisation", "/more_classes", "/regression", "/losses_perceptron"]


@pytest.mark.parametrize("path", PAGES)
def test_a_page_asks_only_the_app_for_anything(page, path):
    app_host = urlparse(page.app_url).netloc
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    page.goto(page.app_url + path)
    page.wait_for_selector("[data-testid=stSidebarNav], [data-testid=stSidebar]")
    page.wait_for_timeout(3000)  # icons, fonts and the plots' scripts load after the page
    foreign = sorted({u for u in seen if urlparse(u).scheme in ("http", "https", "ws", "wss")
                      and urlparse(u).netloc != app_host})  # fmt: skip
    assert seen and not foreign, foreign
