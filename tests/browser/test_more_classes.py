"""The More classes page in Chromium: the figure the browser draws (regions, every class's
points), the numbers beside it (against the engine, recomputed here), and a click or a tap
that adds a point of the chosen class where it lands (ui/shared/click_plot.py)."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest
from click_plot_page import ANSWER_S, PLOT, open_click_plot, plot_point
from widgets import choose

import svm_engine as se
from svm_engine.datasets_multiclass import iris_species

pytestmark = pytest.mark.browser


def open_page(page):
    open_click_plot(page, "/more_classes", "3 binary machines")


def traces(page) -> list[dict]:
    """The figure as the browser holds it: role, name and point coordinates of each trace."""
    return page.evaluate(f"""() => document.querySelector('{PLOT}').data.map(t => ({{
        role: (t.meta || {{}}).role, name: t.name, type: t.type,
        x: t.x && t.type === 'scatter' ? Array.from(t.x) : null,
        y: t.y && t.type === 'scatter' ? Array.from(t.y) : null}}))""")


def test_the_figure_and_the_numbers(page):
    t0 = time.monotonic()
    open_page(page)
    d = iris_species()
    m = se.fit_multiclass(d.X, d.y, "ovr", kernel=se.Linear(), C=1.0)
    acc = np.mean(m.predict(d.X) == d.y)
    page.get_by_text(f"Training accuracy {100 * acc:.1f} %").wait_for()
    tr = traces(page)
    roles = [t["role"] for t in tr]
    assert roles[:3] == ["regions"] * 3 and {t["type"] for t in tr[:3]} == {"contour"}
    pts = {t["name"]: t for t in tr if t["role"] == "points"}
    assert sorted(pts) == [f"{c} (50)" for c in d.classes]
    setosa = pts["Iris-setosa (50)"]
    np.testing.assert_allclose(np.column_stack([setosa["x"], setosa["y"]]), d.X[:50])
    wrong = [t for t in tr if t["role"] == "misclassified"]
    assert len(wrong[0]["x"]) == int((m.predict(d.X) != d.y).sum())
    assert page.locator(f"{PLOT} .contourlayer g.contour").count() >= 3    # regions drawn
    assert time.monotonic() - t0 < 120
    assert not page.js_errors


def added_point(page, n: int, klass: str, x: float, y: float) -> None:
    """The page counts n points and draws the last one of klass where the click was (to a
    pixel: the plot area is ~800 × 400 px)."""
    k = 50 + n - 150
    page.get_by_text(f"n = {n} points").wait_for(timeout=ANSWER_S * 1000)
    page.wait_for_function(f"""() => {{ const d = document.querySelector('{PLOT}').data;
        return d.some(t => t.name === '{klass} ({k})'); }}""", timeout=ANSWER_S * 1000)
    (t,) = [t for t in traces(page) if t["name"] == f"{klass} ({k})"]
    L = page.evaluate(f"""() => {{ const L = document.querySelector('{PLOT}')._fullLayout;
        return [L.xaxis.range[1] - L.xaxis.range[0], L.yaxis.range[1] - L.yaxis.range[0]]; }}""")
    assert abs(t["x"][-1] - x) <= L[0] / 300 and abs(t["y"][-1] - y) <= L[1] / 150


def test_a_click_adds_a_point_of_the_chosen_class_where_it_lands(page):
    open_page(page)
    page.get_by_text("Class of the next point you click").wait_for()
    choose(page, "Class of the next point", "Iris-virginica")
    page.wait_for_timeout(1500)                               # the selectbox's rerun
    px, py, x, y = plot_point(page, 0.1, 0.15)
    t0 = time.monotonic()
    page.mouse.click(px, py)
    added_point(page, 151, "Iris-virginica", x, y)
    assert time.monotonic() - t0 < ANSWER_S
    page.get_by_text("(1 added by you)").wait_for()
    # a drag zooms (Plotly's own) and adds nothing
    before = page.evaluate(f"document.querySelector('{PLOT}')._fullLayout.xaxis.range.slice()")
    px, py, _, _ = plot_point(page, 0.3, 0.4)
    page.mouse.move(px, py)
    page.mouse.down()
    page.mouse.move(px + 150, py + 80, steps=8)
    page.mouse.up()
    page.wait_for_function(f"document.querySelector('{PLOT}')._fullLayout.xaxis.range[0] "
                           f"!== {before[0]}")
    page.wait_for_timeout(2000)
    assert page.get_by_text("n = 151 points").count() == 1
    assert page.evaluate(f"document.querySelector('{PLOT}').dataset.clicks") == "1"
    assert not page.js_errors


def test_a_tap_adds_a_point(browser, app_url):
    from conftest import open_page as new_page

    page = new_page(browser, app_url, viewport={"width": 1100, "height": 900}, has_touch=True)
    try:
        open_page(page)
        px, py, x, y = plot_point(page, 0.85, 0.85)
        page.touchscreen.tap(px, py)
        added_point(page, 151, "Iris-setosa", x, y)
        px, py, x, y = plot_point(page, 0.5, 0.1)              # a second tap: its own place
        page.touchscreen.tap(px, py)
        added_point(page, 152, "Iris-setosa", x, y)
        assert not page.js_errors
    finally:
        page.context.close()


def test_a_file_with_four_classes_is_imported(page, tmp_path):
    open_page(page)
    page.get_by_text("A file with k classes").click()
    uploader = page.locator("[data-testid=stFileUploader]")
    uploader.wait_for()
    rows = [(i % 5 + 0.1 * i, (i * 7) % 4, "north south east west".split()[i % 4])
            for i in range(40)]
    path = tmp_path / "four.csv"
    path.write_text("a,b,direction\n" + "".join(f"{a},{b},{c}\n" for a, b, c in rows))
    uploader.locator("input[type=file]").set_input_files(str(path))
    page.get_by_text("4 binary machines").wait_for(timeout=ANSWER_S * 1000)
    page.get_by_text("n = 40 points, 4 classes").wait_for()
    pts = {t["name"] for t in traces(page) if t["role"] == "points"}
    assert pts == {"east (10)", "north (10)", "south (10)", "west (10)"}
    assert not page.js_errors


def test_a_new_class_is_made_once_per_intention(page):
    """Choosing "a new class" and clicking three times makes ONE new class of three points
    (the chooser moves to the class just made), not three classes of one point each."""
    open_page(page)
    page.get_by_text("Class of the next point you click").wait_for()
    box = page.locator("[data-testid=stSelectbox]").filter(has_text="Class of the next point")
    box.get_by_role("button", name="Open").click()
    page.get_by_role("option", name=re.compile("new class")).click()
    page.wait_for_timeout(1500)
    for j, (fx, fy) in enumerate(((0.1, 0.1), (0.15, 0.12), (0.12, 0.2))):
        px, py, _, _ = plot_point(page, fx, fy)
        page.mouse.click(px, py)
        page.get_by_text(f"({j + 1} added by you)").wait_for(timeout=ANSWER_S * 1000)
        page.wait_for_timeout(800)
    page.get_by_text("4 classes (3 added by you)").wait_for()
    page.get_by_text("4 binary machines").wait_for(timeout=ANSWER_S * 1000)
    assert box.get_by_role("combobox").input_value() == "class 4"
    assert "➕" not in page.locator("section.main, [data-testid=stMain]").first.inner_text()
    assert not page.js_errors


def test_boundary_chips_follow_the_data(page):
    """Boundaries chosen on Iris one-vs-one, then the k blobs: the chips name the blobs'
    machines (as the legend does), or none is left chosen."""
    open_page(page)
    page.get_by_text("One-vs-one").first.click()
    page.get_by_text("3 binary machines").wait_for(timeout=ANSWER_S * 1000)
    ms = page.locator("[data-testid=stMultiSelect]").filter(has_text="Show the boundary")
    ms.get_by_role("combobox").click()
    page.get_by_role("option", name="Iris-setosa vs Iris-versicolor").click()
    page.keyboard.press("Escape")
    page.wait_for_function(f"""() => document.querySelector('{PLOT}').data
        .some(t => (t.name || '').includes('Iris-setosa vs Iris-versicolor'))""",
                           timeout=ANSWER_S * 1000)
    page.get_by_text("k blobs (generated)").click()
    page.get_by_text("6 binary machines").wait_for(timeout=ANSWER_S * 1000)
    page.wait_for_timeout(1500)
    chips = ms.inner_text()
    assert "Iris" not in chips, chips
    drawn = [t["name"].removeprefix("h = 0 of ") for t in traces(page)
             if t["role"] == "boundary"]
    for name in drawn:                        # any boundary drawn is one the chips name
        assert name in chips, (drawn, chips)
    assert not page.js_errors
