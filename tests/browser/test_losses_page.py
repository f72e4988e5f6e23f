"""The Losses & perceptron page in Chromium: reached from the menu, it takes the Playground's
points, draws both figures, steps the perceptron with its buttons, and asks only the app for
anything. Numbers are checked against the engine run here on the same points."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from svm_engine import datasets
from svm_engine import perceptron as P

pytestmark = pytest.mark.browser

NAV = '[data-testid="stSidebarNav"] a'
PLOTS = ".js-plotly-plot"
D2_QUERY = "v=1&d=d2&k=linear&l=hinge&C=1&b=free&sv=smo"


def open_losses(page, query: str = ""):
    page.goto(page.app_url + "/" + (f"?{query}" if query else ""))
    page.locator(".svmlab-canvas[data-draws]").wait_for()
    page.locator(NAV, has_text="Losses & perceptron").click()
    page.get_by_role("heading", name="The perceptron, update by update").wait_for()
    page.wait_for_function(f"document.querySelectorAll('{PLOTS}').length === 2")


def plot_names(page, k: int) -> list[str]:
    return page.evaluate(f"[...document.querySelectorAll('{PLOTS}')][{k}].data"
                         ".map(t => t.name || '')")


def test_the_page_steps_the_perceptron_on_the_playground_points(page):
    app_host = urlparse(page.app_url).netloc
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    open_losses(page)
    d = datasets.d1()
    run = P.perceptron(d.X, d.y, seed=0)
    main = page.locator("[data-testid=stMain]")
    main.get_by_text(f"after {run.n_updates} updates").wait_for()
    names = plot_names(page, 0)
    assert {"0-1", "hinge (k = 1)", "squared hinge (k = 2)", "logistic (base 2)",
            "perceptron"} <= set(names)
    assert {"perceptron", "SVM h(x) = 0", "SVM h(x) = ±1"} <= set(plot_names(page, 1))
    main.get_by_text(f"Update {run.n_updates}", exact=False).first.wait_for()
    page.get_by_role("button", name="◀ Back").click()
    main.get_by_text(f"Update {run.n_updates - 1}", exact=False).first.wait_for()
    page.get_by_role("button", name="First").click()
    main.get_by_text("Start:", exact=False).first.wait_for()
    # at the start there is no perceptron line yet
    page.wait_for_function(f"![...document.querySelectorAll('{PLOTS}')][1].data"
                           ".some(t => t.name === 'perceptron')")
    page.get_by_role("button", name="Next ▶").click()
    main.get_by_text("Update 1 ", exact=False).first.wait_for()
    page.get_by_role("button", name="Last").click()
    main.get_by_text(f"Update {run.n_updates}", exact=False).first.wait_for()
    foreign = sorted({u for u in seen if urlparse(u).scheme in ("http", "https", "ws", "wss")
                      and urlparse(u).netloc != app_host})  # fmt: skip
    assert not foreign, foreign
    assert not page.js_errors, page.js_errors


def test_a_linked_non_separable_set_is_said_so(page):
    open_losses(page, D2_QUERY)
    d = datasets.d2()
    run = P.perceptron(d.X, d.y, seed=0)
    main = page.locator("[data-testid=stMain]")
    main.get_by_text("Book D2", exact=False).first.wait_for()
    main.get_by_text(f"epoch cap ({run.epochs} epochs, {run.n_updates} updates",
                     exact=False).wait_for()
    main.get_by_text("not linearly separable, so the perceptron never has",
                     exact=False).wait_for()
    assert not page.js_errors, page.js_errors
