"""Present mode and the quick controls in Chromium (issue 32 items 12 and 13).

Present mode (a projector at 1280 × 720 or 1024 × 768) shows the whole plot, states the
kernel, the loss and C, and C can be changed there; on a 390 × 844 touch phone kernel, loss
and C sit above the plot, outside the sidebar's drawer, and changing C refits.
"""

from __future__ import annotations

import pytest
from canvas_page import CANVAS, open_app, st

pytestmark = pytest.mark.browser

D1 = "/?v=1&d=d1&k=linear&l=hinge&C=1&b=free&sv=smo"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def quick(page, label: str):
    return page.locator("[data-testid=stMain]").get_by_text(label, exact=True).first


def change_c_by_keyboard(page) -> None:
    """Focus the quick row's C slider and press →: the next C of the grid; wait for the refit."""
    draws = int(page.locator(CANVAS).get_attribute("data-draws"))
    thumb = page.locator("[data-testid=stMain] [data-testid=stSlider] [tabindex=\"0\"]").first
    thumb.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**C=1.5**")  # the settings (the address bar holds them) changed
    page.wait_for_function(  # and the canvas drew the new fit
        f"Number(document.querySelector('{CANVAS}').dataset.draws) > {draws}")
    assert st(page, "s.drawn")


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_present_mode_shows_the_whole_plot_and_c(browser, app_url, size):
    from conftest import open_page

    w, h = size
    pg = open_page(browser, app_url, viewport={"width": w, "height": h})
    try:
        open_app(pg, D1 + "&present=1")
        pg.wait_for_timeout(500)
        box = pg.locator(f"{CANVAS} .nsewdrag").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= h, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= w, box
        for label in ("Kernel", "Loss", "C"):
            assert quick(pg, label).is_visible()
        assert not pg.locator("[data-testid=stSidebar]").is_visible()
        change_c_by_keyboard(pg)
    finally:
        pg.context.close()


def test_phone_quick_controls_outside_the_drawer(browser, app_url):
    from conftest import open_page

    pg = open_page(browser, app_url, **PHONE)
    try:
        open_app(pg, D1)
        # the drawer is closed; the quick row is in the main area, above the plot
        main = pg.locator("[data-testid=stMain]")
        for label in ("Kernel", "Loss", "C"):
            el = quick(pg, label)
            el.scroll_into_view_if_needed()
            assert el.is_visible()
        c_box = main.locator("[data-testid=stSlider]").first.bounding_box()
        plot_box = pg.locator(f"{CANVAS} .nsewdrag").bounding_box()
        assert c_box["y"] < plot_box["y"]
        change_c_by_keyboard(pg)
    finally:
        pg.context.close()


def test_the_drawer_closes_after_a_page_link_on_a_phone(browser, app_url):
    """Issue 32 item 13: after tapping a page in the menu the drawer stayed open over the new
    page (ui/browser/drawer.js closes it where it covers the page)."""
    from conftest import open_page

    pg = open_page(browser, app_url, **PHONE)
    try:
        open_app(pg, D1)
        sidebar = pg.locator("[data-testid=stSidebar]")
        pg.locator("[data-testid=stExpandSidebarButton]").click()
        pg.wait_for_function("document.querySelector('[data-testid=stSidebar]')"
                             ".getBoundingClientRect().right > 200")
        pg.locator("[data-testid=stSidebarNavLink]").filter(has_text="Step-through").tap()
        pg.wait_for_url("**/step_through**")
        pg.wait_for_function("document.querySelector('[data-testid=stSidebar]')"
                             ".getBoundingClientRect().right <= 0", timeout=10_000)
        assert sidebar.bounding_box()["x"] + sidebar.bounding_box()["width"] <= 0
        assert not pg.js_errors
    finally:
        pg.context.close()
