"""The Kernel k-means & PCA page in Chromium: a click on the k-means plot adds a new point
where it lands, and the picture changes — the star is drawn there, in the colour of its
nearest cluster, and the page counts it (ui/shared/click_plot.py)."""

from __future__ import annotations

import time

import pytest
from click_plot_page import ANSWER_S, PLOT, open_click_plot, plot_point

pytestmark = pytest.mark.browser


def new_points(page) -> list[tuple[float, float]]:
    """The stars as Plotly drew them (_fullData: the typed arrays decoded)."""
    return page.evaluate(f"""() => {{
        const t = document.querySelector('{PLOT}')._fullData.find(
            t => (t.meta || {{}}).role === 'new');
        return t ? Array.from(t.x).map((x, i) => [x, t.y[i]]) : []; }}""")


def test_a_click_adds_a_new_point_and_the_picture_changes(page):
    open_click_plot(page, "/kernel_kmeans_pca", "Kernel k-means converged")
    assert new_points(page) == []
    before = page.evaluate(f"document.querySelector('{PLOT}').data.length")
    px, py, x, y = plot_point(page, 0.5, 0.5)               # the middle: the inner ring
    t0 = time.monotonic()
    page.mouse.click(px, py)
    page.get_by_text("1 new point(s) (yours)").wait_for(timeout=ANSWER_S * 1000)
    page.wait_for_function(f"""() => document.querySelector('{PLOT}').data.some(
        t => (t.meta || {{}}).role === 'new')""", timeout=ANSWER_S * 1000)
    assert time.monotonic() - t0 < ANSWER_S
    ((nx, ny),) = new_points(page)
    L = page.evaluate(f"""() => {{ const L = document.querySelector('{PLOT}')._fullLayout;
        return [L.xaxis.range[1] - L.xaxis.range[0], L.yaxis.range[1] - L.yaxis.range[0]]; }}""")
    assert abs(nx - x) <= L[0] / 150 and abs(ny - y) <= L[1] / 150
    assert page.evaluate(f"document.querySelector('{PLOT}').data.length") == before + 1
    page.get_by_role("button", name="Undo last new point").click()
    page.wait_for_function(f"""() => !document.querySelector('{PLOT}').data.some(
        t => (t.meta || {{}}).role === 'new')""", timeout=ANSWER_S * 1000)
    assert not page.js_errors
