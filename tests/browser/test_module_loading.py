"""The browser's ES modules in Chromium (ui/serving/browser_modules.py): each element's module
and everything it imports come from the app under the current version, each once per page
(the loader preloads them together); another page of the app fetches again only the modules
it adds."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from ui.serving import browser_modules as BM

pytestmark = pytest.mark.browser

NAV = '[data-testid="stSidebarNav"] a'


def _graph(*entries: str) -> set[str]:
    return {m for e in entries for m in (e, *BM.imported_by(e))}


def test_the_modules_load_once_each_from_the_current_version(page):
    got: list[tuple[str, int]] = []
    page.on("response", lambda r: "/svmlab/" in r.url and got.append((r.url, r.status)))
    page.goto(page.app_url + "/")
    page.locator(".svmlab-canvas[data-draws]").wait_for()  # the canvas module ran and drew
    page.wait_for_timeout(500)
    names = [urlparse(u).path.rsplit("/", 1)[-1] for u, _ in got]
    # the canvas's modules, and drawer.js, which app.py draws on every page (ui/shared/drawer.py)
    assert sorted(names) == sorted(_graph("canvas.js") | _graph("drawer.js")), names  # once
    assert all(s == 200 and f"/svmlab/{BM.version()}/" in u for u, s in got), got
    # the Step-through page, in the same tab: only the step player's own modules are new
    got.clear()
    page.locator(NAV, has_text="Step-through").click()
    page.locator(".svmlab-player[data-run]").wait_for()
    page.wait_for_timeout(500)
    names = [urlparse(u).path.rsplit("/", 1)[-1] for u, _ in got]
    assert "step_player.js" in names and len(names) == len(set(names)), names
    shared = _graph("canvas.js") | _graph("drawer.js")
    assert set(names) == _graph("step_player.js", *(n for n in ("step_sync.js", "step_plot.js")
                                                     if n in names)) - shared  # fmt: skip
    assert {"contours.js", "canvas2d.js", "plotly_loader.js"} <= shared - set(names)
    assert all(s == 200 for _, s in got), got
    assert not page.js_errors
