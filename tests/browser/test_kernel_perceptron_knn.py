"""The Kernel perceptron & k-NN page in Chromium: a click on the perceptron's plot adds a point
of the chosen class where it lands and the picture changes (the run is redone on the 15
points: its numbers checked against the engine, on the points the browser holds); a click on
the k-NN plot moves the query point and its neighbours."""

from __future__ import annotations

import time

import numpy as np
import pytest
from click_plot_page import ANSWER_S

import svm_engine as se
from svm_engine import knn
from svm_engine.kernel_perceptron import kernel_perceptron

pytestmark = pytest.mark.browser

PLOTS = ".svmlab-clickplot"


def plot_data(page, k: int) -> list[dict]:
    """Plot k's traces as Plotly drew them (``_fullData``: typed arrays decoded): role, name,
    point coordinates."""
    return page.evaluate(f"""() => document.querySelectorAll('{PLOTS}')[{k}]._fullData.map(
      t => ({{
        role: (t.meta || {{}}).role, name: t.name || '', type: t.type,
        x: t.type === 'scatter' && t.x ? Array.from(t.x) : null,
        y: t.type === 'scatter' && t.y ? Array.from(t.y) : null}}))""")


def plot_point(page, k: int, fx: float, fy: float):
    """Screen position at fractions (fx, fy) of plot k's area, and the data coordinates."""
    box = page.locator(f"{PLOTS} .nsewdrag").nth(k).bounding_box()
    px, py = box["x"] + fx * box["width"], box["y"] + fy * box["height"]
    x, y = page.evaluate(f"""() => {{
        const L = document.querySelectorAll('{PLOTS}')[{k}]._fullLayout;
        return [L.xaxis.range[0] + {fx} * (L.xaxis.range[1] - L.xaxis.range[0]),
                L.yaxis.range[1] - {fy} * (L.yaxis.range[1] - L.yaxis.range[0])]; }}""")
    return px, py, x, y


def points(traces) -> tuple[np.ndarray, np.ndarray]:
    """(X, y) of the ±1 point traces, in the order the page holds them."""
    X, y = [], []
    for t in traces:
        if t["role"] == "points":
            X += list(zip(t["x"], t["y"], strict=True))
            y += [1 if "+1" in t["name"] else -1] * len(t["x"])
    return np.array(X), np.array(y)


def open_page(page):
    page.goto(page.app_url + "/kernel_perceptron_knn")
    page.get_by_text("with 0 training mistakes").wait_for(timeout=180_000)
    page.wait_for_function(f"document.querySelectorAll('{PLOTS}').length === 2 && "
                           f"[...document.querySelectorAll('{PLOTS}')].every(p => p.data)")


def test_a_click_adds_a_point_and_the_picture_changes(page):
    open_page(page)
    main = page.locator("[data-testid=stMain]")
    main.get_by_text("n = 14 points").wait_for()
    before = plot_data(page, 0)
    X0, _ = points(before)
    assert len(X0) == 14
    px, py, x, y = plot_point(page, 0, 0.12, 0.15)      # top left: far from D1's points
    t0 = time.monotonic()
    page.mouse.click(px, py)
    main.get_by_text("n = 15 points (1 added by you)").wait_for(timeout=ANSWER_S * 1000)
    page.wait_for_function(f"""() => document.querySelectorAll('{PLOTS}')[0]._fullData
        .filter(t => (t.meta || {{}}).role === 'points')
        .reduce((s, t) => s + t.x.length, 0) === 15""", timeout=ANSWER_S * 1000)
    assert time.monotonic() - t0 < ANSWER_S + 5
    after = plot_data(page, 0)
    X, labels = points(after)
    new = [p for p in X.tolist() if p not in X0.tolist()]
    assert len(new) == 1
    L = page.evaluate(f"""() => {{ const L = document.querySelectorAll('{PLOTS}')[0]._fullLayout;
        return [L.xaxis.range[1] - L.xaxis.range[0], L.yaxis.range[1] - L.yaxis.range[0]]; }}""")
    assert abs(new[0][0] - x) <= L[0] / 200 and abs(new[0][1] - y) <= L[1] / 150
    assert labels[X.tolist().index(new[0])] == 1                # the chosen class: +1
    # the run is redone on the 15 points the browser holds (in the page's order: D1, then
    # the added point) and the page says its numbers
    ref = {tuple(p): lab for p, lab in zip(X.tolist(), labels, strict=True)}
    pts = [tuple(p) for p in X0.tolist()] + [tuple(new[0])]
    run = kernel_perceptron(np.array(pts), np.array([ref[p] for p in pts]), se.Linear())
    words = f"stopped after {run.n_updates} updates" if run.converged else "did not converge"
    main.get_by_text(words, exact=False).first.wait_for(timeout=ANSWER_S * 1000)
    # the picture changed: the k-NN plot counts the new point too
    page.wait_for_function(f"""() => document.querySelectorAll('{PLOTS}')[1]._fullData
        .filter(t => (t.meta || {{}}).role === 'points')
        .reduce((s, t) => s + t.x.length, 0) === 15""", timeout=ANSWER_S * 1000)
    assert not page.js_errors


def test_a_click_on_the_knn_plot_moves_the_query_point(page):
    open_page(page)
    page.locator(f"{PLOTS}").nth(1).scroll_into_view_if_needed()
    px, py, x, y = plot_point(page, 1, 0.8, 0.8)
    page.mouse.click(px, py)
    page.wait_for_function(f"""() => {{ const q = document.querySelectorAll('{PLOTS}')[1]._fullData
        .find(t => (t.meta || {{}}).role === 'query');
        return q && Math.abs(q.x[0] - {x}) < 0.2 && Math.abs(q.y[0] - {y}) < 0.2; }}""",
                           timeout=ANSWER_S * 1000)
    tr = plot_data(page, 1)
    X, labels = points(tr)
    (q,) = [t for t in tr if t["role"] == "query"]
    (nb,) = [t for t in tr if t["role"] == "neighbours"]
    r = knn.kneighbours(X, labels, [[q["x"][0], q["y"][0]]], 1)
    assert [nb["x"][0], nb["y"][0]] == X[r.neighbours[0, 0]].tolist()
    assert not page.js_errors
