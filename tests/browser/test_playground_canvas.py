"""The click canvas in Chromium: add, shift-add, delete, zoom kept, rapid clicks, undo."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

CANVAS = ".svmlab-canvas"
D2 = "/?v=1&d=d2&k=linear&l=hinge&C=1&b=free&sv=smo"


def open_app(page, query=D2):
    page.goto(page.app_url + query)
    page.wait_for_function(
        "(() => { const r = document.querySelector('.svmlab-canvas');"
        " return r && Number(r.dataset.draws) >= 1 && r.__state && r.__state.drawn; })()"
    )


def st(page, expr: str):
    return page.evaluate(f"(() => {{ const s = document.querySelector('{CANVAS}').__state;"
                         f" return {expr}; }})()")  # fmt: skip


def data(page) -> dict:
    return page.evaluate(f"({{...document.querySelector('{CANVAS}').dataset}})")


def wait_refit(page, seq: int):
    """Until the server has answered edit ``seq`` and the browser has drawn it."""
    page.wait_for_function(
        f"(() => {{ const r = document.querySelector('{CANVAS}');"
        f" return Number(r.dataset.fitSeq) >= {seq} && !r.__state.overlayOn; }})()"
    )


def plot_box(page):
    return page.locator(f"{CANVAS} .nsewdrag").bounding_box()


def to_pixel(page, x, y):
    return page.evaluate(
        """([x, y]) => { const s = document.querySelector('.svmlab-canvas').__state;
        const r = s.plot.querySelector('.nsewdrag').getBoundingClientRect();
        const fl = s.plot._fullLayout, xr = fl.xaxis.range, yr = fl.yaxis.range;
        return [r.left + (x - xr[0]) / (xr[1] - xr[0]) * r.width,
                r.top + (yr[1] - y) / (yr[1] - yr[0]) * r.height]; }""",
        [x, y],
    )


def panel_count(page) -> int:
    """Points the server knows about, as shown in the numbers panel."""
    text = page.locator("text=/\\d+ points \\(/").first.inner_text()
    return int(re.search(r"(\d+) points", text).group(1))


def test_click_empty_space_adds_a_point_and_refits(page):
    open_app(page)
    n0 = int(data(page)["nPoints"])
    draws0 = int(data(page)["draws"])
    box = plot_box(page)
    page.mouse.click(box["x"] + 30, box["y"] + 30)  # top-left: empty in D2
    assert int(data(page)["nPoints"]) == n0 + 1  # drawn at once, before the server answers
    wait_refit(page, 1)
    assert int(data(page)["draws"]) > draws0
    assert st(page, "s.points[s.points.length - 1][2]") == 1
    page.wait_for_function(f"document.body.innerText.includes('{n0 + 1} points (')")
    assert panel_count(page) == n0 + 1
    page.wait_for_function("location.search.includes('p=')")  # edited points are in the link
    assert not page.js_errors


def test_shift_click_adds_the_other_class(page):
    open_app(page)
    box = plot_box(page)
    page.keyboard.down("Shift")
    page.mouse.click(box["x"] + 30, box["y"] + box["height"] - 30)
    page.keyboard.up("Shift")
    wait_refit(page, 1)
    assert st(page, "s.points[s.points.length - 1][2]") == -1
    # the toolbar switches the class of plain clicks
    page.locator(f"{CANVAS} button[data-cls='-1']").click()
    page.mouse.click(box["x"] + 60, box["y"] + box["height"] - 30)
    wait_refit(page, 2)
    assert st(page, "s.points[s.points.length - 1][2]") == -1


def test_click_on_a_point_removes_it(page):
    open_app(page)
    n0 = int(data(page)["nPoints"])
    px, py = to_pixel(page, 4.0, 4.0)  # x3 of D2
    page.mouse.click(px, py)
    wait_refit(page, 1)
    assert int(data(page)["nPoints"]) == n0 - 1
    assert st(page, "s.points.some(p => p[0] === 4 && p[1] === 4)") is False
    page.wait_for_function(f"document.body.innerText.includes('{n0 - 1} points (')")


def test_drag_moves_a_point_and_undo_brings_it_back(page):
    open_app(page)
    px, py = to_pixel(page, 0.5, 1.5)  # x9
    page.mouse.move(px, py)
    page.mouse.down()
    page.mouse.move(px + 40, py - 40, steps=5)
    page.mouse.up()
    wait_refit(page, 1)
    assert st(page, "s.points.some(p => p[0] === 0.5 && p[1] === 1.5)") is False
    assert int(data(page)["nPoints"]) == 18
    page.locator(f"{CANVAS} button[data-act=undo]").click()
    wait_refit(page, 2)
    assert st(page, "s.points.some(p => p[0] === 0.5 && p[1] === 1.5)") is True


def test_zoom_survives_a_click_and_the_refit(page):
    open_app(page)
    box = plot_box(page)
    # box-zoom on the middle of the plot
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.3)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.7, box["y"] + box["height"] * 0.7, steps=8)
    page.mouse.up()
    zoomed = st(page, "s.plot._fullLayout.xaxis.range.slice()")
    full = st(page, "JSON.parse(s.figText).layout.xaxis.range")
    assert zoomed[1] - zoomed[0] < 0.8 * (full[1] - full[0])
    box = plot_box(page)
    page.mouse.click(box["x"] + 15, box["y"] + 15)
    wait_refit(page, 1)
    page.wait_for_timeout(300)  # a late relayout would show up here
    after = st(page, "s.plot._fullLayout.xaxis.range.slice()")
    assert after == zoomed


def test_quick_real_clicks_are_all_kept(page):
    open_app(page)
    n0 = int(data(page)["nPoints"])
    box = plot_box(page)
    for k in range(6):  # as fast as the mouse can go, 40 px apart in empty space
        page.mouse.click(box["x"] + 25 + 40 * k, box["y"] + 25)
    assert int(data(page)["nPoints"]) == n0 + 6
    wait_refit(page, 6)
    assert int(data(page)["nPoints"]) == n0 + 6
    page.wait_for_function(f"document.body.innerText.includes('{n0 + 6} points (')")
    assert panel_count(page) == n0 + 6
    assert not page.js_errors


BURST = """([spots]) => {
  // real DOM events on the plot's drag layer, as a mouse makes them: press, release
  const s = document.querySelector('.svmlab-canvas').__state;
  const target = s.plot.querySelector('.nsewdrag');
  const t0 = performance.now();
  for (const [x, y] of spots) {
    const o = {clientX: x, clientY: y, button: 0, bubbles: true, cancelable: true, view: window};
    target.dispatchEvent(new MouseEvent('mousedown', {...o, buttons: 1}));
    target.dispatchEvent(new MouseEvent('mouseup', {...o, buttons: 0}));
  }
  return performance.now() - t0;
}"""


def test_a_burst_of_clicks_within_half_a_second_loses_none(page):
    open_app(page)
    n0 = int(data(page)["nPoints"])
    box = plot_box(page)
    spots = [[box["x"] + 25 + 40 * k, box["y"] + 25] for k in range(6)]
    elapsed = page.evaluate(BURST, [spots])
    assert elapsed < 500
    assert int(data(page)["nPoints"]) == n0 + 6
    seq = int(data(page)["seq"])
    wait_refit(page, seq)
    page.wait_for_function(f"document.body.innerText.includes('{n0 + 6} points (')")
    assert panel_count(page) == n0 + 6
    xs = st(page, "s.points.slice(-6).map(p => p[0])")
    assert xs == sorted(xs) and len(set(xs)) == 6  # six distinct new points, in click order
