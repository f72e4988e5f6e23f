"""No request leaves the server: every page loads and works offline (a school's network).

Each page is opened, its own content waited for (its plots drawn, or its marker), then what
loads more is used (the Playground's Import / export panel, a play of the step player, a
Compare scaling run); every request and web socket the browser opened must go to the app's
host. On every page, no chart's toolbar offers Plotly's "Share" (send to the cloud) button."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser

PLOTS = ".js-plotly-plot"
PLAYER = ".svmlab-player"


def _import_export(page):
    page.locator("[data-testid=stButtonGroup]").get_by_text("Import / export",
                                                            exact=True).click()
    page.get_by_role("button", name="Download the model (JSON)").wait_for()
    page.locator("[data-testid=stFileUploader]").wait_for()


def _play(page):
    counter = page.locator(f"{PLAYER} [data-role=counter]")
    page.locator(f"{PLAYER} button[data-act=play]").click()
    page.wait_for_function(f"(() => {{ const m = document.querySelector('{PLAYER} "
                           "[data-role=counter]'); return m && !m.textContent.trim()"
                           ".startsWith('0 /'); })()")
    page.locator(f"{PLAYER} button[data-act=play]").click()       # pause
    assert not counter.inner_text().startswith("0 /")


def _scaling_run(page):
    sizes = page.get_by_role("slider", name="sizes")
    sizes.focus()
    sizes.press("Home")                                            # 2 sizes: a short run
    page.wait_for_function("document.querySelector('input[aria-label=sizes]').value === '2'")
    page.wait_for_timeout(1000)  # the slider's rerun
    page.get_by_role("button", name="Run").click()
    page.get_by_text("done:").wait_for(timeout=120_000)
    page.wait_for_function(f"document.querySelectorAll('{PLOTS}').length >= 4")


#: path → (plots its first view draws at least, what then loads more)
PAGES = {
    "/": (1, _import_export),
    "/worked_examples": (1, None),
    "/step_through": (2, _play),
    "/compare_solvers": (3, _scaling_run),
    "/kernels": (8, None),
    "/generalisation": (4, None),
    "/more_classes": (1, None),
    "/regression": (1, None),
    "/losses_perceptron": (2, None),
}


@pytest.mark.parametrize("path", list(PAGES))
def test_a_page_asks_only_the_app_for_anything(page, path):
    app_host = urlparse(page.app_url).netloc
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    page.on("websocket", lambda ws: seen.append(ws.url))
    plots, more = PAGES[path]
    page.goto(page.app_url + path)
    page.wait_for_selector("[data-testid=stSidebarNav], [data-testid=stSidebar]")
    # the page's content: its plots drawn by Plotly (the modebar is made with the plot)
    page.wait_for_function(f"document.querySelectorAll('{PLOTS} .modebar').length >= {plots}",
                           timeout=180_000)
    if more is not None:
        more(page)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)  # a font or an icon asked for after the last script ran
    titles = page.evaluate("[...document.querySelectorAll('.modebar-btn')]"
                           ".map(b => b.getAttribute('data-title') || '')")
    assert len(titles) >= 2 * plots, titles                   # the toolbars are there …
    assert not [t for t in titles if "share" in t.lower() or "cloud" in t.lower()], titles
    assert sum("as SVG" in t for t in titles) >= plots, titles   # … with the SVG button
    foreign = sorted({u for u in seen if urlparse(u).scheme in ("http", "https", "ws", "wss")
                      and urlparse(u).netloc != app_host})  # fmt: skip
    assert any(urlparse(u).scheme in ("ws", "wss") for u in seen), seen   # the app's socket
    assert seen and not foreign, foreign
    assert not page.js_errors, page.js_errors
