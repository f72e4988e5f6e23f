"""The click canvas in Chromium: add, shift-add, delete, zoom kept, rapid clicks, undo."""

from __future__ import annotations

import re

import pytest
from canvas_page import CANVAS, open_app, st, to_pixel, wait_refit
from widgets import choose

from ui.shared.settings import Settings

pytestmark = pytest.mark.browser



def data(page) -> dict:
    return page.evaluate(f"({{...document.querySelector('{CANVAS}').dataset}})")


def plot_box(page):
    return page.locator(f"{CANVAS} .nsewdrag").bounding_box()


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
    full = st(page, "s.fig.layout.xaxis.range")
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
  // real DOM events on the plot's drag layer, as a mouse makes them: press, release (each a
  // pointer event, then its compatibility mouse event)
  const s = document.querySelector('.svmlab-canvas').__state;
  const target = s.plot.querySelector('.nsewdrag');
  const t0 = performance.now();
  for (const [x, y] of spots) {
    const o = {clientX: x, clientY: y, button: 0, bubbles: true, cancelable: true, view: window};
    const p = {...o, pointerId: 1, pointerType: 'mouse', isPrimary: true};
    target.dispatchEvent(new PointerEvent('pointerdown', {...p, buttons: 1}));
    target.dispatchEvent(new MouseEvent('mousedown', {...o, buttons: 1}));
    target.dispatchEvent(new PointerEvent('pointerup', {...p, buttons: 0}));
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


# ------------------------------------------------------- the fit endpoint (ui/serving/fit_api.py)

PERF = "window.__svmlabPerf"


def d2_model(points):
    """The server's model for these points with D2's settings (ui.shared.fitting, cold start)."""
    import numpy as np

    from svm_engine import datasets
    from ui.shared import fitting

    P = np.asarray(points, dtype=float)
    settings = Settings.from_dataset(datasets.d2().settings)
    return fitting.fit_points(P[:, :2], P[:, 2].astype(int), settings).model


def hold_session(page):
    """Keep the full Plotly figure from replacing the layer, so only the endpoint's quick
    refit is drawn; ``release_session`` lets the full figure through again."""
    st(page, "(s.holdFull = true)")


def release_session(page):
    st(page, "(s.holdFull = false, s.scheduleFull(), true)")


def wait_layer(page, seq: int):
    """Until the endpoint's refit of edit ``seq`` is painted on the layer."""
    page.wait_for_function(
        f"(() => {{ const r = document.querySelector('{CANVAS}');"
        f" return Number(r.dataset.refitSeq) >= {seq} && r.__state.refitOn; }})()"
    )


def test_a_click_is_refitted_by_the_endpoint_before_the_session_answers(page):
    open_app(page)
    n0 = int(data(page)["nPoints"])
    hold_session(page)
    box = plot_box(page)
    page.keyboard.down("Shift")  # class −1 deep in the +1 region: the boundary must move
    page.mouse.click(box["x"] + box["width"] - 30, box["y"] + 30)
    page.keyboard.up("Shift")
    wait_layer(page, 1)
    assert data(page)["endpoint"] == "true" and int(data(page)["fitSeq"]) == 0
    assert st(page, "s.layer.style.display") != "none" and st(page, "s.overlayOn") is True
    info = st(page, "s.refitInfo")
    points = st(page, "s.points")
    assert info["n"] == len(points) == n0 + 1 and info["seq"] == 1 and info["ok"] is True
    new = d2_model(points)
    old = d2_model(points[:-1])
    assert info["rings"] == len(new.support) != len(old.support)
    assert info["boundary"] >= 1 and info["margins"] >= 2
    assert info["misclassified"] == int((new.category == "misclassified").sum())
    # h on the layer is the new model's (bilinear in the grid: exact for a linear h)
    for probe in ([1.0, 1.0], [3.0, 3.0], [5.5, 4.5], points[-1][:2]):
        h_layer = st(page, f"s.hAt({probe[0]}, {probe[1]})")
        h_new = float(new.decision_function([probe])[0])
        assert abs(h_layer - h_new) < 2e-3, (probe, h_layer, h_new)
    h_old = float(old.decision_function([points[-1][:2]])[0])
    assert abs(st(page, f"s.hAt({points[-1][0]}, {points[-1][1]})") - h_old) > 0.1
    assert page.evaluate(f"{PERF}.refitSource.slice(-1)[0]") == "endpoint"
    # the answer's full figure follows and replaces the layer; it shows the same model
    release_session(page)
    wait_refit(page, 1)
    assert st(page, "s.layer.style.display") == "none"
    rings = st(
        page,
        "s.plot._fullData.filter(t => t.meta && t.meta.role === 'sv')"
        ".reduce((k, t) => k + t.x.length, 0)",
    )
    assert rings == info["rings"]
    page.wait_for_function(f"document.body.innerText.includes('{n0 + 1} points (')")
    assert not page.js_errors


def test_the_layer_follows_zoom_and_the_zoom_survives(page):
    open_app(page)
    hold_session(page)
    box = plot_box(page)
    page.mouse.click(box["x"] + 30, box["y"] + 30)
    wait_layer(page, 1)
    full_x = st(page, "s.plot._fullLayout.xaxis.range.slice()")
    assert st(page, "s.refit.view.x") == full_x  # the request carried the view
    # box-zoom into the middle while only the layer shows the refit: it is redrawn in the
    # new ranges and, its grid now too coarse, asked for again over the new view
    page.mouse.move(box["x"] + box["width"] * 0.35, box["y"] + box["height"] * 0.35)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.6, steps=8)
    page.mouse.up()
    page.wait_for_function(
        f"(() => {{ const s = document.querySelector('{CANVAS}').__state;"
        " const x = s.plot._fullLayout.xaxis.range;"
        " return s.refit.view && s.refit.view.x[0] === x[0] && s.refitOn; })()"
    )
    assert st(page, "s.refitInfo.xr") == st(page, "s.plot._fullLayout.xaxis.range.slice()")
    zoomed = st(page, "s.plot._fullLayout.xaxis.range.slice()")
    assert zoomed[1] - zoomed[0] < 0.5 * (full_x[1] - full_x[0])
    g = st(page, "[s.refit.xs[0], s.refit.xs[s.refit.xs.length - 1]]")  # the new grid
    assert g[0] <= zoomed[0] and g[1] >= zoomed[1] and g[1] - g[0] < full_x[1] - full_x[0]
    release_session(page)
    wait_refit(page, 1)
    page.wait_for_timeout(300)  # a late relayout would show up here
    assert st(page, "s.plot._fullLayout.xaxis.range.slice()") == zoomed


def test_a_burst_of_clicks_is_refitted_to_the_final_points(page):
    open_app(page)
    n0 = int(data(page)["nPoints"])
    hold_session(page)
    box = plot_box(page)
    drawn0 = page.evaluate(f"{PERF}.refitDrawn.length")
    spots = [[box["x"] + 25 + 40 * k, box["y"] + 25] for k in range(6)]
    assert page.evaluate(BURST, [spots]) < 500
    seq = int(data(page)["seq"])
    assert int(data(page)["nPoints"]) == n0 + 6 and seq == 6
    wait_layer(page, seq)
    # the last answer is for the final points, and every click counts as refitted
    assert st(page, "JSON.stringify(s.refit.points) === JSON.stringify(s.points)") is True
    assert st(page, "s.refitInfo.n") == n0 + 6
    page.wait_for_function(f"{PERF}.refitDrawn.length >= {drawn0 + 6}")
    assert page.evaluate(f"{PERF}.refitSource.slice(-6)") == ["endpoint"] * 6
    model = d2_model(st(page, "s.points"))  # (the layer's fit may be warm-started: h agrees)
    for probe in ([1.0, 1.0], [3.0, 3.0], [5.5, 4.5], st(page, "s.points[s.points.length - 1]")):
        h_layer = st(page, f"s.hAt({probe[0]}, {probe[1]})")
        assert abs(h_layer - float(model.decision_function([probe[:2]])[0])) < 2e-3, probe
    release_session(page)
    wait_refit(page, seq)
    page.wait_for_function(f"document.body.innerText.includes('{n0 + 6} points (')")
    assert panel_count(page) == n0 + 6
    assert not page.js_errors


@pytest.mark.parametrize("status", [404, 500])
def test_when_the_endpoint_fails_the_edit_says_so_and_the_next_asks_again(page, status):
    # one path for an answer: no session fallback (it was for an "older server" without
    # the endpoint); a failed request is the edit's no-model answer, said as such
    asked = []

    def fail(route):
        asked.append(route.request.url)
        route.fulfill(status=status, content_type="application/json", body='{"error": "test"}')

    open_app(page)
    n0 = int(data(page)["nPoints"])
    page.route("**/api/refit", fail)
    box = plot_box(page)
    page.mouse.click(box["x"] + 30, box["y"] + 30)
    wait_refit(page, 1)
    assert data(page)["endpoint"] == "false"
    page.wait_for_function(f"document.body.innerText.includes('{n0 + 1} points (')")
    assert f"The server did not answer (HTTP {status})" in page.inner_text(".svmlab-numbers")
    page.mouse.click(box["x"] + 70, box["y"] + 30)  # and again: a request of its own
    wait_refit(page, 2)
    assert int(data(page)["nPoints"]) == n0 + 2 and len(asked) == 2
    assert not page.js_errors


def test_clicks_do_not_sync_until_the_student_turns_elsewhere(page):
    """A click costs the server its fit only: the session hears of the points when the student
    pauses (canvas.js SYNC_IDLE_MS), or at once when they turn to anything else on the page:
    here the page menu, right after a click, and the Step-through uses the new point."""
    open_app(page)
    n0 = int(data(page)["nPoints"])
    syncs0 = int(data(page)["syncs"])
    box = plot_box(page)
    page.mouse.click(box["x"] + 30, box["y"] + 30)
    wait_refit(page, 1)
    page.mouse.click(box["x"] + 60, box["y"] + 30)
    wait_refit(page, 2)
    assert int(data(page)["syncs"]) == syncs0  # refitted by the endpoint, no page rerun yet
    page.locator('[data-testid="stSidebarNav"] a', has_text="Step-through").click()
    page.wait_for_function(f"document.body.innerText.includes('· n = {n0 + 2} ·')")


def test_zoom_and_model_settings_survive_a_visit_to_another_page(page):
    """Issue 16 item 8: after a zoom and a page switch the shading was drawn only inside the
    old zoom box (the answer's grid was sampled around the session's zoom while the plot
    came back unzoomed), and the polynomial degree came back as 2."""
    nav = '[data-testid="stSidebarNav"] a'
    open_app(page)
    page.locator("[data-testid=stSidebar]").get_by_text("polynomial", exact=True).click()
    page.wait_for_function("document.body.innerText.includes('degree q')")
    slider = page.get_by_role("slider", name="degree q")
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # degree 2 → 4
    page.wait_for_function("location.search.includes('q=4')")
    box = plot_box(page)
    page.mouse.move(box["x"] + box["width"] * 0.35, box["y"] + box["height"] * 0.35)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.6, steps=8)
    page.mouse.up()
    page.wait_for_function(f"document.querySelector('{CANVAS}').__state.lastViewSent !== null")
    zoomed = st(page, "s.plot._fullLayout.xaxis.range.slice()")
    page.wait_for_timeout(1000)  # the session's rerun that stores the zoom
    page.locator(nav, has_text="Worked examples").click()
    page.wait_for_function(f"!document.querySelector('{CANVAS}')")
    page.locator(nav, has_text="Playground").click()
    page.wait_for_function(
        f"(() => {{ const r = document.querySelector('{CANVAS}');"
        " return r && r.__state && r.__state.drawn && r.__state.refit; })()"
    )
    thumb = page.locator("[data-testid=stSidebar] [data-testid=stSliderThumbValue]").first
    assert thumb.inner_text() == "4"  # the slider the student set, and the page's state:
    page.wait_for_function("location.search.includes('q=4')")
    x = st(page, "s.plot._fullLayout.xaxis.range.slice()")
    assert x == pytest.approx(zoomed, rel=1e-6, abs=1e-9)  # the zoom is shown again
    g = st(page, "[s.refit.xs[0], s.refit.xs[s.refit.xs.length - 1]]")
    assert g[0] <= x[0] and g[1] >= x[1]  # the shading covers the whole plot


def test_undo_after_loading_a_dataset_brings_back_points_and_settings(page):
    """Issue 16 item 8: "Load dataset" replaced the kernel and C silently, and Undo brought
    back only the points. Now the load says what it changed, and the plot's Undo (once its
    own edits are undone) brings back the points and the settings."""
    sidebar = page.locator("[data-testid=stSidebar]")
    open_app(page)
    n0 = int(data(page)["nPoints"])
    sidebar.get_by_text("Gaussian (RBF)", exact=True).click()
    page.wait_for_function("location.search.includes('k=gaussian')")
    choose(page, "Dataset", "Book D1: separable (slide 15)", scope=sidebar)
    sidebar.get_by_role("button", name="Load dataset").click()
    page.get_by_text("the kernel changed from Gaussian (RBF) to linear").wait_for()
    page.wait_for_function(f"Number(document.querySelector('{CANVAS}').dataset.nPoints) === 14")
    page.locator(f"{CANVAS} button[data-act=undo]").click()
    page.wait_for_function(
        f"Number(document.querySelector('{CANVAS}').dataset.nPoints) === {n0}"
        " && location.search.includes('k=gaussian')")
    # the address bar can change a moment before the sidebar is redrawn (a loaded machine)
    sidebar.locator("label:has-text('Gaussian (RBF)') input[type=radio]:checked").wait_for()
    page.get_by_text("are back").wait_for()
    assert not page.js_errors
