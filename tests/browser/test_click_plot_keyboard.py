"""The click plot by keyboard alone (ui/browser/click_keys.js; issue 28, WCAG 2.1.1, 2.4.3):
Tab reaches the More classes plot, the arrow keys move its cursor (Shift: bigger steps),
Enter adds a point there (the page's count rises and the new point sits at the cursor), and
after the rerun focus is still on the plot, so the next Enter adds another."""

from __future__ import annotations

import pytest
from click_plot_page import ANSWER_S, PLOT, open_click_plot

pytestmark = pytest.mark.browser

STEPS = 50  # click_keys.js STEPS: arrow presses across the visible range
ON_PLOT = f"document.activeElement === document.querySelector('{PLOT}')"


def tab_to_plot(page, limit: int = 200) -> int:
    """Tab from the top of the page until the plot has focus: the number of presses."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(ON_PLOT):
            return n
    raise AssertionError("Tab never reached the plot")


def last_setosa(page, k: int) -> tuple[float, float]:
    page.wait_for_function(f"""() => document.querySelector('{PLOT}').data.some(
        t => t.name === 'Iris-setosa ({k})')""", timeout=ANSWER_S * 1000)
    return tuple(page.evaluate(f"""() => {{
        const t = document.querySelector('{PLOT}').data.find(t => t.name === 'Iris-setosa ({k})');
        return [t.x[t.x.length - 1], t.y[t.y.length - 1]]; }}"""))


def test_arrows_and_enter_add_a_point_and_focus_stays_on_the_plot(page):
    open_click_plot(page, "/more_classes", "3 binary machines")
    page.get_by_text("n = 150 points").wait_for()
    plot = page.locator(PLOT)
    assert plot.get_attribute("tabindex") == "0"
    assert "arrow keys" in plot.get_attribute("aria-label")
    tab_to_plot(page)
    (xr, yr) = page.evaluate(f"""() => {{ const L = document.querySelector('{PLOT}')._fullLayout;
        return [L.xaxis.range.slice(), L.yaxis.range.slice()]; }}""")
    # the cross shows at the middle; 3 steps right, one big step (Shift) down
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "Shift+ArrowDown"):
        page.keyboard.press(key)
    cross = page.locator(f"{PLOT} .svmlab-clickplot-cursor")
    assert cross.is_visible()
    x = (xr[0] + xr[1]) / 2 + 3 * (xr[1] - xr[0]) / STEPS
    y = (yr[0] + yr[1]) / 2 - 10 * (yr[1] - yr[0]) / STEPS
    # the cross is drawn where the point will go (to a pixel)
    box = page.locator(f"{PLOT} .nsewdrag").first.bounding_box()
    cb = cross.bounding_box()
    px = box["x"] + (x - xr[0]) / (xr[1] - xr[0]) * box["width"]
    py = box["y"] + (yr[1] - y) / (yr[1] - yr[0]) * box["height"]
    assert abs(cb["x"] + cb["width"] / 2 - px) < 1.5 and abs(cb["y"] + cb["height"] / 2 - py) < 1.5
    draws = int(plot.get_attribute("data-draws"))
    page.keyboard.press("Enter")
    page.get_by_text("n = 151 points").wait_for(timeout=ANSWER_S * 1000)
    got = last_setosa(page, 51)
    assert got == pytest.approx((x, y), rel=1e-9)
    page.wait_for_function(f"Number(document.querySelector('{PLOT}').dataset.draws) > {draws}")
    assert page.evaluate(ON_PLOT), "focus fell off the plot after the rerun"
    # still the plot's keys: Space adds a second point where the cursor stayed
    page.keyboard.press("Space")
    page.get_by_text("n = 152 points").wait_for(timeout=ANSWER_S * 1000)
    assert last_setosa(page, 52) == pytest.approx(got, rel=1e-9, abs=1e-9)
    assert page.evaluate(ON_PLOT)
    assert plot.get_attribute("data-clicks") == "2"
    assert not page.js_errors


def test_keys_elsewhere_add_nothing(page):
    open_click_plot(page, "/more_classes", "3 binary machines")
    page.get_by_text("n = 150 points").wait_for()
    page.locator(PLOT).focus()
    page.locator(PLOT).blur()  # focus on the page, not on the plot
    for key in ("ArrowRight", "Enter", "Space"):
        page.keyboard.press(key)
    page.wait_for_timeout(1500)
    assert page.locator(PLOT).get_attribute("data-clicks") is None
    assert page.get_by_text("n = 150 points").count() == 1
