"""Touch, small screens and the wheel, in Chromium.

The click canvas (ui/browser/canvas.js) on a 390 × 844 touch screen (a phone: ``has_touch``,
``is_mobile``): a tap adds a point, a tap or a long press on a point deletes it, a finger
drags a point, a swipe that starts on empty space scrolls the page and adds nothing, the
toolbar's Pan tool pans with one finger, and the class toggle, Undo and Clear are big enough
to tap. On a desktop: the wheel over the plot scrolls the page, ctrl + wheel zooms (and the
zoom is reported to the session). The Step-through player's buttons work by touch and the
wheel over its plots scrolls the page.

Streamlit scrolls its main area (``[data-testid=stMain]``), not the window: ``scroll_top``
reads both. Touches are Playwright's ``touchscreen.tap`` or raw CDP touch events (a drag).
"""

from __future__ import annotations

import re

import pytest
from canvas_page import CANVAS, open_app, st, to_pixel, wait_refit

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
SCROLL_TOP = (
    "(() => { const m = document.querySelector('[data-testid=stMain]');"
    " return window.scrollY + (m ? m.scrollTop : 0); })()"
)


@pytest.fixture
def phone(browser, app_url):
    from conftest import open_page

    pg = open_page(browser, app_url, **PHONE)
    yield pg
    pg.context.close()


def n_points(page) -> int:
    return int(page.locator(CANVAS).get_attribute("data-n-points"))


def wait_panel(page, n: int):
    """Until the numbers panel (the server's count) says n points."""
    page.wait_for_function(f"document.body.innerText.includes('{n} points (')")
    text = page.locator("text=/\\d+ points \\(/").first.inner_text()
    assert int(re.search(r"(\d+) points", text).group(1)) == n


def plot_in_view(page) -> dict:
    """Scroll the plot area into the viewport; its box in client pixels."""
    drag = page.locator(f"{CANVAS} .nsewdrag")
    drag.scroll_into_view_if_needed()
    box = drag.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844 and box["x"] + box["width"] <= 390
    return box


def ranges(page):
    return st(
        page, "[s.plot._fullLayout.xaxis.range.slice(), s.plot._fullLayout.yaxis.range.slice()]"
    )


def touch_path(page, points, hold_ms=0):
    """One finger down at points[0], through the others, up: raw touch events (CDP), as a
    phone sends them."""
    cdp = page.context.new_cdp_session(page)

    def send(kind, pts):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})

    send("touchStart", [{"x": points[0][0], "y": points[0][1]}])
    if hold_ms:
        page.wait_for_timeout(hold_ms)
    for x, y in points[1:]:
        send("touchMove", [{"x": x, "y": y}])
        page.wait_for_timeout(16)  # a frame apart, as a finger moves
    send("touchEnd", [])
    cdp.detach()


# ------------------------------------------------------------------ the canvas on a phone


def test_a_tap_adds_a_point(phone):
    open_app(phone)
    n0 = n_points(phone)
    box = plot_in_view(phone)
    phone.touchscreen.tap(box["x"] + 20, box["y"] + 20)  # top-left: empty in D2
    assert n_points(phone) == n0 + 1  # drawn at once
    wait_refit(phone, 1)
    assert st(phone, "s.points[s.points.length - 1][2]") == 1
    x, y = st(phone, "s.points[s.points.length - 1].slice(0, 2)")
    px, py = to_pixel(phone, x, y)
    assert abs(px - box["x"] - 20) < 2 and abs(py - box["y"] - 20) < 2  # where the finger was
    wait_panel(phone, n0 + 1)
    assert not phone.js_errors


def test_a_tap_or_a_long_press_on_a_point_deletes_it(phone):
    open_app(phone)
    n0 = n_points(phone)
    plot_in_view(phone)
    phone.touchscreen.tap(*to_pixel(phone, 4.0, 4.0))  # x3 of D2
    assert n_points(phone) == n0 - 1
    assert st(phone, "s.points.some(p => p[0] === 4 && p[1] === 4)") is False
    wait_refit(phone, 1)
    px, py = to_pixel(phone, 0.5, 1.5)  # x9: a finger's width off, held for 0.7 s
    touch_path(phone, [(px + 8, py - 8)], hold_ms=700)
    assert n_points(phone) == n0 - 2
    assert st(phone, "s.points.some(p => p[0] === 0.5 && p[1] === 1.5)") is False
    wait_refit(phone, 2)
    wait_panel(phone, n0 - 2)
    assert not phone.js_errors


def test_a_finger_drags_a_point_and_the_page_stays(phone):
    open_app(phone)
    n0 = n_points(phone)
    plot_in_view(phone)
    top0 = phone.evaluate(SCROLL_TOP)
    px, py = to_pixel(phone, 0.5, 1.5)  # x9
    # mostly upwards: the swipe that would scroll the page if it did not start on a point
    path = [(px + 6 * k, py - 12 * k) for k in range(11)]
    touch_path(phone, path)
    wait_refit(phone, 1)
    assert phone.evaluate(SCROLL_TOP) == top0
    assert n_points(phone) == n0
    assert st(phone, "s.points.some(p => p[0] === 0.5 && p[1] === 1.5)") is False
    x, y = st(phone, "s.points[8].slice(0, 2)")  # the same point, moved under the finger
    qx, qy = to_pixel(phone, x, y)
    assert abs(qx - path[-1][0]) < 2 and abs(qy - path[-1][1]) < 2
    assert not phone.js_errors


def test_a_swipe_on_empty_space_scrolls_the_page_and_adds_nothing(phone):
    open_app(phone)
    n0 = n_points(phone)
    box = plot_in_view(phone)
    top0 = phone.evaluate(SCROLL_TOP)
    x0, y0 = box["x"] + 20, box["y"] + box["height"] - 20  # bottom-left: empty in D2
    touch_path(phone, [(x0, y0 - 15 * k) for k in range(13)])
    phone.wait_for_function(f"{SCROLL_TOP} > {top0 + 50}")
    phone.wait_for_timeout(500)  # an edit would be drawn by now
    assert n_points(phone) == n0 and st(phone, "s.seq") == 0
    assert not phone.js_errors


def test_the_pan_tool_pans_with_one_finger(phone):
    open_app(phone)
    n0 = n_points(phone)
    box = plot_in_view(phone)
    (x_before, y_before) = ranges(phone)
    phone.locator(f"{CANVAS} .modebar-btn[data-title='Pan']").tap()
    phone.wait_for_function(
        f"document.querySelector('{CANVAS}').__state.plot._fullLayout.dragmode === 'pan'"
    )
    x0, y0 = box["x"] + 40, box["y"] + box["height"] - 20
    touch_path(phone, [(x0 + 12 * k, y0) for k in range(11)])  # 120 px to the right
    phone.wait_for_function(
        f"document.querySelector('{CANVAS}').__state.plot._fullLayout.xaxis.range[0]"
        f" < {x_before[0]}"
    )
    x_after, y_after = ranges(phone)
    span = x_before[1] - x_before[0]
    assert x_after[1] - x_after[0] == pytest.approx(span)  # moved, not zoomed
    assert x_before[0] - x_after[0] == pytest.approx(120 / box["width"] * span, rel=0.1)
    assert n_points(phone) == n0 and st(phone, "s.seq") == 0
    phone.touchscreen.tap(x0, y0 - 30)  # a tap still adds
    assert n_points(phone) == n0 + 1
    assert not phone.js_errors


def test_class_toggle_undo_and_clear_by_touch(phone):
    open_app(phone)
    n0 = n_points(phone)
    names = ["button[data-cls='1']", "button[data-cls='-1']", "button[data-act=undo]",
             "button[data-act=clear]"]  # fmt: skip
    for name in names:
        b = phone.locator(f"{CANVAS} {name}")
        b.scroll_into_view_if_needed()
        r = b.bounding_box()
        assert r["width"] >= 40 and r["height"] >= 40, (name, r)
        assert r["x"] >= 0 and r["x"] + r["width"] <= 390, (name, r)
    # Plotly's toolbar: big buttons in a row above the plot (not over its legend), no upload
    wrap_top = phone.locator(f"{CANVAS} .svmlab-plotwrap").bounding_box()["y"]
    tools = phone.locator(f"{CANVAS} .modebar-btn").evaluate_all(
        "els => els.map(e => [e.dataset.title, e.getBoundingClientRect().toJSON()])"
    )
    assert {"Zoom in", "Zoom out", "Pan", "Reset axes"} <= {t for t, _ in tools}
    for title, r in tools:
        assert r["width"] >= 40 and r["height"] >= 40 and r["bottom"] <= wrap_top + 1, title
        assert "share" not in title.lower()  # plotly.js 4's "Share chart..." uploads
    assert phone.locator(f"{CANVAS} .svmlab-label").inner_text() == "Tap adds"
    assert "tap a point: delete" in phone.locator(f"{CANVAS} .svmlab-hint").inner_text()
    neg = phone.locator(f"{CANVAS} button[data-cls='-1']")
    neg.tap()
    assert neg.get_attribute("aria-pressed") == "true"
    box = plot_in_view(phone)
    phone.touchscreen.tap(box["x"] + 20, box["y"] + 20)
    assert n_points(phone) == n0 + 1 and st(phone, "s.points[s.points.length - 1][2]") == -1
    phone.locator(f"{CANVAS} button[data-cls='1']").tap()
    box = plot_in_view(phone)
    phone.touchscreen.tap(box["x"] + 60, box["y"] + 20)
    assert n_points(phone) == n0 + 2 and st(phone, "s.points[s.points.length - 1][2]") == 1
    phone.locator(f"{CANVAS} button[data-act=undo]").tap()
    assert n_points(phone) == n0 + 1
    phone.locator(f"{CANVAS} button[data-act=clear]").tap()
    assert n_points(phone) == 0
    wait_refit(phone, 4)
    wait_panel(phone, 0)
    assert not phone.js_errors


# ----------------------------------------------------------------------- the mouse wheel


def test_the_wheel_scrolls_the_page_and_ctrl_wheel_zooms(page):
    open_app(page)
    box = page.locator(f"{CANVAS} .nsewdrag").bounding_box()
    before = ranges(page)
    assert page.evaluate(SCROLL_TOP) == 0
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, 300)
    page.wait_for_function(f"{SCROLL_TOP} > 100", timeout=10_000)
    page.wait_for_timeout(600)  # Plotly applies a wheel zoom after ~300 ms
    assert ranges(page) == before
    # ctrl + wheel zooms the plot (and not the page), and the view reaches the session
    top = page.evaluate(SCROLL_TOP)
    box = page.locator(f"{CANVAS} .nsewdrag").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.keyboard.down("Control")
    for _ in range(3):
        page.mouse.wheel(0, -200)
    page.keyboard.up("Control")
    page.wait_for_function(
        f"(() => {{ const s = document.querySelector('{CANVAS}').__state;"
        " const v = s.lastViewSent && JSON.parse(s.lastViewSent);"
        " return v && JSON.stringify(v.x) === JSON.stringify(s.plot._fullLayout.xaxis.range); })()"
    )
    (x0, x1), (y0, y1) = ranges(page)
    assert x1 - x0 < 0.8 * (before[0][1] - before[0][0])
    assert y1 - y0 < 0.8 * (before[1][1] - before[1][0])
    assert page.evaluate(SCROLL_TOP) == top
    assert not page.js_errors


# ------------------------------------------------------------------ the Step-through page

PLAYER = ".svmlab-player"


def test_step_through_buttons_by_touch_and_the_page_scrolls_over_its_plots(phone):
    phone.goto(phone.app_url + "/step_through")
    phone.locator(f"{PLAYER}[data-run]").wait_for()  # the player has its run (not the skeleton)
    phone.wait_for_function(
        f"document.querySelector('{PLAYER} [data-role=counter]').textContent.startsWith('0 /')"
    )
    for r in phone.locator(
        f"{PLAYER} .sp-controls button, {PLAYER} .sp-controls select"
    ).evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())"):
        assert r["width"] >= 40 and r["height"] >= 40 and r["right"] <= 390, r
    nxt = phone.locator(f"{PLAYER} button[data-act=next]")
    nxt.scroll_into_view_if_needed()
    nxt.tap()
    # Plotly's toolbars keep their own small buttons, in one row, above the plots' corner
    for r in phone.locator(f"{PLAYER} .modebar").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().toJSON())"
    ):
        assert r["height"] <= 30, r  # one row (the player's button rules made it two)
    phone.wait_for_function(
        f"document.querySelector('{PLAYER} [data-role=counter]').textContent.startsWith('1 /')"
    )
    # a swipe over the decision plot scrolls the page
    plot = phone.locator(f"{PLAYER} [data-panel=decision] .nsewdrag")
    plot.scroll_into_view_if_needed()
    b = plot.bounding_box()
    top0 = phone.evaluate(SCROLL_TOP)
    x0, y0 = b["x"] + b["width"] / 2, b["y"] + b["height"] - 10
    touch_path(phone, [(x0, y0 - 15 * k) for k in range(13)])
    phone.wait_for_function(f"{SCROLL_TOP} > {top0 + 50}", timeout=10_000)
    assert not phone.js_errors


def test_the_wheel_over_the_step_through_plots_scrolls_the_page(page):
    page.goto(page.app_url + "/step_through")
    page.wait_for_function(
        f"(() => {{ const m = document.querySelector('{PLAYER} [data-role=counter]');"
        " return m && m.textContent.startsWith('0 /'); })()"
    )
    for panel in ("decision", "curves"):
        plot = page.locator(f"{PLAYER} [data-panel={panel}] .nsewdrag").first
        plot.scroll_into_view_if_needed()
        b = plot.bounding_box()
        xr = page.evaluate(
            f"document.querySelector('{PLAYER} [data-panel={panel}] .sp-plot')"
            "._fullLayout.xaxis.range.slice()"
        )
        top = page.evaluate(SCROLL_TOP)
        page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
        page.mouse.wheel(0, 120)
        page.wait_for_function(f"{SCROLL_TOP} > {top}", timeout=10_000)
        page.wait_for_timeout(600)  # a wheel zoom would be applied by now
        assert (
            page.evaluate(
                f"document.querySelector('{PLAYER} [data-panel={panel}] .sp-plot')"
                "._fullLayout.xaxis.range.slice()"
            )
            == xr
        ), panel
    assert not page.js_errors


def test_the_wheel_over_a_compare_solvers_chart_scrolls_the_page(page):
    page.goto(page.app_url + "/compare_solvers")
    plot = page.locator(".js-plotly-plot .nsewdrag").first
    plot.wait_for()
    plot.scroll_into_view_if_needed()
    b = plot.bounding_box()
    xr = "document.querySelector('.js-plotly-plot')._fullLayout.xaxis.range.slice()"
    before = page.evaluate(xr)
    top = page.evaluate(SCROLL_TOP)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    page.mouse.wheel(0, 120)
    page.wait_for_function(f"{SCROLL_TOP} > {top}", timeout=10_000)
    page.wait_for_timeout(600)  # a wheel zoom would be applied by now
    assert page.evaluate(xr) == before
    assert not page.js_errors
