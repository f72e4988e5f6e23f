"""The operating system's dark mode (emulated: color_scheme='dark'): the app keeps its pinned
light theme (.streamlit/config.toml [theme] base = "light"), so the plots, drawn on white,
are not white boxes on a dark page, and the text stays dark on light."""

from __future__ import annotations

import pytest
from canvas_page import D2, open_app

pytestmark = pytest.mark.browser

NAV = '[data-testid="stSidebarNav"] a'


def luminance(css: str) -> float:
    """Relative luminance (0 black … 1 white) of 'rgb(r, g, b)' / 'rgba(r, g, b, a)'."""
    r, g, b = (float(v) / 255 for v in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def colours(page) -> dict:
    return page.evaluate("""() => {
        const bg = (sel) => getComputedStyle(document.querySelector(sel)).backgroundColor;
        const plots = [...document.querySelectorAll('.js-plotly-plot .main-svg')]
          .map(s => getComputedStyle(s).backgroundColor);
        const p = document.querySelector('[data-testid=stMain] p, [data-testid=stMain] h1');
        return {app: bg('[data-testid=stApp]'), sidebar: bg('[data-testid=stSidebar]'),
                text: getComputedStyle(p).color, plots};
    }""")


@pytest.fixture
def dark_page(browser, app_url):
    from conftest import open_page

    pg = open_page(browser, app_url, viewport={"width": 1400, "height": 950},
                   color_scheme="dark")
    assert pg.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    yield pg
    pg.context.close()


def check_light(page):
    c = colours(page)
    assert c["plots"], "no plot drawn"
    for plot in c["plots"]:
        if plot in ("rgba(0, 0, 0, 0)", "transparent"):
            continue                                  # Plotly's upper svg layers
        assert abs(luminance(plot) - luminance(c["app"])) < 0.1, (plot, c["app"])
    assert luminance(c["app"]) > 0.8 and luminance(c["sidebar"]) > 0.8, c
    assert luminance(c["text"]) < 0.2, c                 # dark text on the light page


def test_the_playground_is_light_in_dark_mode(dark_page):
    open_app(dark_page, D2)
    check_light(dark_page)


def test_the_losses_page_is_light_in_dark_mode(dark_page):
    open_app(dark_page, D2)
    dark_page.locator(NAV, has_text="Losses & perceptron").click()
    dark_page.wait_for_function("document.querySelectorAll('.js-plotly-plot').length === 2")
    check_light(dark_page)
