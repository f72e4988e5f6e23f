"""The Regression page in Chromium: the fitted function, the tube and the numbers the browser
shows (against the engine's ε-SVR recomputed here), and a click that adds a point."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest
from click_plot_page import ANSWER_S, PLOT, open_click_plot, plot_point

import svm_engine as se
from svm_engine.datasets_regression import curve

pytestmark = pytest.mark.browser


def open_page(page):
    open_click_plot(page, "/regression", "converged: KKT conditions hold")


def trace(page, role: str) -> dict:
    return page.evaluate(f"""() => {{ const t = document.querySelector('{PLOT}').data
        .find(t => (t.meta || {{}}).role === '{role}');
        return {{x: Array.from(t.x), y: Array.from(t.y), name: t.name}}; }}""")


def tex(page) -> list[str]:
    """The TeX source of every formula on the page (KaTeX keeps it in an annotation)."""
    return page.locator("annotation[encoding='application/x-tex']").all_text_contents()


def test_the_fit_the_tube_and_the_formulas(page):
    open_page(page)
    d = curve("sine", n=30, noise=0.2, seed=0)
    m = se.fit_svr(d.x, d.t, se.Gaussian(sigma=1.0), C=10.0, epsilon=0.2)
    fit = trace(page, "fit")
    np.testing.assert_allclose(fit["y"], m.predict(np.array(fit["x"])), atol=1e-6)
    high = trace(page, "tube_high")
    np.testing.assert_allclose(np.array(high["y"]) - np.array(fit["y"]), 0.2, atol=1e-6)
    (b_tex,) = [t for t in tex(page) if t.startswith("b = ")]
    assert float(re.search(r"b = (-?[0-9.]+)", b_tex).group(1)) == pytest.approx(m.b, abs=1e-4)
    page.get_by_text(f"{len(m.support)} of 30", exact=True).wait_for()
    pts = page.evaluate(f"""() => document.querySelector('{PLOT}').data
        .filter(t => (t.meta || {{}}).role === 'points')
        .map(t => [t.meta.kind, t.x.length])""")
    assert dict(pts) == {"inside": 30 - len(m.support), "edge": len(m.on_edge),
                         "outside": len(m.outside)}
    assert not page.js_errors


def test_a_click_adds_a_point_where_it_lands(page):
    open_page(page)
    px, py, x, y = plot_point(page, 0.5, 0.1)
    t0 = time.monotonic()
    page.mouse.click(px, py)
    page.get_by_text("31 points (at most 300)").wait_for(timeout=ANSWER_S * 1000)
    assert time.monotonic() - t0 < ANSWER_S
    page.get_by_role("button", name="Undo last point").wait_for()
    # the new point is drawn where the click was, and lies far above the tube: outside it
    page.wait_for_function(f"""() => document.querySelector('{PLOT}').data
        .filter(t => (t.meta || {{}}).role === 'points')
        .reduce((n, t) => n + t.x.length, 0) === 31""")
    out = page.evaluate(f"""() => {{
        const t = document.querySelector('{PLOT}').data.find(t => (t.meta || {{}}).kind ===
        'outside'); return [Array.from(t.x), Array.from(t.y)]; }}""")
    near = [abs(a - x) < 0.05 and abs(b - y) < 0.05 for a, b in zip(*out)]
    assert any(near), (x, y, out)
    assert not page.js_errors


def x_range(page) -> list[float]:
    """The view: [x0, x1, y0, y1]."""
    return page.evaluate(f"""() => {{ const L = document.querySelector('{PLOT}')._fullLayout;
        return L.xaxis.range.concat(L.yaxis.range); }}""")


def test_placed_points_land_where_aimed_in_an_unchanged_view(page):
    """"Place my own points": no point carried over from the generated data; after the first
    click the view stays put, so the second and third clicks land where they are aimed."""
    open_page(page)
    px, py, _, _ = plot_point(page, 0.5, 0.1)             # a point added to the generated data
    page.mouse.click(px, py)
    page.get_by_text("31 points (at most 300)").wait_for(timeout=ANSWER_S * 1000)
    page.get_by_text("Place my own points").click()
    page.get_by_text("0 points (at most 300)").wait_for(timeout=ANSWER_S * 1000)
    page.wait_for_timeout(1000)
    before = x_range(page)
    aims = ((0.3, 0.5), (0.7, 0.3), (0.5, 0.8))
    placed = []
    for j, (fx, fy) in enumerate(aims):
        px, py, x, y = plot_point(page, fx, fy)
        placed.append((x, y))
        page.mouse.click(px, py)
        word = "point" if j == 0 else "points"
        page.get_by_text(f"{j + 1} {word} (at most 300)").wait_for(timeout=ANSWER_S * 1000)
        page.wait_for_timeout(1000)
        assert x_range(page) == pytest.approx(before, abs=1e-6)     # the view did not move
    page.wait_for_function(f"""() => document.querySelector('{PLOT}').data
        .filter(t => (t.meta || {{}}).role === 'points')
        .reduce((n, t) => n + t.x.length, 0) === 3""", timeout=ANSWER_S * 1000)
    xs, ys = page.evaluate(f"""() => {{ const d = document.querySelector('{PLOT}').data
        .filter(t => (t.meta || {{}}).role === 'points');
        return [d.flatMap(t => Array.from(t.x)), d.flatMap(t => Array.from(t.y))]; }}""")
    got = sorted(zip(xs, ys))
    for (gx, gy), (x, y) in zip(got, sorted(placed)):
        assert abs(gx - x) < 0.05 and abs(gy - y) < 0.05, (got, placed)
    assert page.locator("[data-testid=stAlertContentError]").count() == 0
    assert not page.js_errors
