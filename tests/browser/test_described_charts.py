"""Described charts in Chromium (WCAG 1.1.1): each chart is a figure with an accessible name
and a description (aria-describedby), Plotly's own svgs are no unnamed images, and the
Playground's description changes with a click and agrees with its numbers panel."""

from __future__ import annotations

import re

import pytest
from canvas_page import CANVAS, open_app, wait_refit

pytestmark = pytest.mark.browser

#: a chart's box: its name and the text of the element its aria-describedby names
WORDS = """(box) => {
  const id = box.getAttribute('aria-describedby');
  const d = id ? box.getRootNode().getElementById(id) : null;
  return {role: box.getAttribute('role'), name: box.getAttribute('aria-label') || '',
          description: d ? d.textContent : '',
          bareSvgs: [...box.querySelectorAll('svg.main-svg')]
            .filter((s) => s.getAttribute('aria-hidden') !== 'true').length,
          buttons: box.querySelectorAll('.modebar-btn').length};
}"""


def panel_row(page, label: str) -> str:
    """The numbers panel's value in the row ``label``."""
    return page.locator(f"{CANVAS} .svmlab-summary tr", has_text=label).first.locator(
        "td").inner_text()


def described(page, n: int) -> str:
    """The Playground plot's description once it is for ``n`` points."""
    page.wait_for_function(
        "n => { const w = document.querySelector('.svmlab-canvas .svmlab-plotwrap');"
        " const d = w && document.getElementById(w.getAttribute('aria-describedby'));"
        " return d && d.textContent.startsWith(n + ' points:')"
        " && d.textContent.includes('Margin'); }", arg=n)
    return page.locator(f"{CANVAS} .svmlab-plotwrap").evaluate(WORDS)["description"]


def test_the_playground_plot_is_described_by_its_numbers_and_follows_a_click(page):
    open_app(page)                                          # D2: 18 points, linear, C = 1
    wrap = page.locator(f"{CANVAS} .svmlab-plotwrap")
    words = wrap.evaluate(WORDS)
    # an interactive plot: it keeps the role that passes keys to it, named by its picture
    # and then its keys
    assert words["role"] == "application" and words["name"].startswith("Playground plot:")
    assert "Keyboard: arrow keys move the cursor" in words["name"]
    # found by its role and name, as a screen reader finds it
    assert page.get_by_role("application", name=words["name"]).count() == 1
    before = described(page, 18)
    assert f"Margin {panel_row(page, 'margin 1/‖w‖')};" in before
    assert panel_row(page, "hyperplane").removesuffix(" = 0") in before
    assert before.endswith("The numbers are in the table 'The fit's numbers' beside.")
    assert wrap.evaluate(WORDS)["bareSvgs"] == 0
    assert page.locator(f"{CANVAS} .svmlab-plot").get_by_role("img").count() == 0
    # a click adds a point of class +1: the words follow the answer the panel shows
    box = page.locator(f"{CANVAS} .nsewdrag").bounding_box()
    page.mouse.click(box["x"] + 30, box["y"] + 30)
    wait_refit(page, 1)
    after = described(page, 19)
    assert after != before
    count = page.locator(f"{CANVAS} .svmlab-count").inner_text()
    assert count.startswith("19 points (11 of class +1")
    assert after.startswith("19 points: 11 of class +1 (circles)")
    assert f"Margin {panel_row(page, 'margin 1/‖w‖')};" in after
    assert wrap.evaluate(WORDS)["bareSvgs"] == 0
    assert not page.js_errors


def test_every_chart_of_the_kernels_page_is_a_named_described_figure(page):
    page.goto(page.app_url + "/kernels")
    charts = page.locator(".svmlab-chart")
    charts.first.wait_for(timeout=120_000)
    page.wait_for_function(
        "() => { const c = [...document.querySelectorAll('.svmlab-chart')];"
        " return c.length >= 5 && c.every((e) => Number(e.dataset.draws) >= 1); }",
        timeout=120_000)
    seen = []
    for k in range(charts.count()):
        words = charts.nth(k).evaluate(WORDS)
        assert words["role"] == "figure", k
        assert words["name"].strip() and len(words["description"]) > 20, words
        assert words["bareSvgs"] == 0, words["name"]
        assert words["buttons"] >= 2, words["name"]         # the PNG and SVG buttons stay
        assert page.get_by_role("figure", name=words["name"]).count() >= 1
        seen.append(words["description"])
    three = [d for d in seen if "Lifted by φ into 3-D" in d]
    assert three and re.search(r"Margin \S+; support vectors x\d+", three[0])
    assert page.locator(".svmlab-chart").get_by_role("img").count() == 0
    assert not page.js_errors
