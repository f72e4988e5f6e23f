"""Helpers of the browser tests that drive a click plot (ui/browser/click_plot.js: the More
classes and Regression pages)."""

from __future__ import annotations

PLOT = ".svmlab-clickplot"
ANSWER_S = 2.0 + 10.0     # the fit's budget, plus slack for a loaded 2-core machine


def open_click_plot(page, path: str, ready_text: str) -> None:
    """Open the page at ``path``, wait for ``ready_text`` and for Plotly's first drawing."""
    page.goto(page.app_url + path)
    page.get_by_text(ready_text).wait_for(timeout=120_000)
    page.wait_for_function(f"document.querySelector('{PLOT}') && "
                           f"document.querySelector('{PLOT}').data")


def plot_point(page, fx: float, fy: float) -> tuple[float, float, float, float]:
    """Screen position (px, py) at fractions (fx, fy) of the plot area, and the data
    coordinates there."""
    box = page.locator(f"{PLOT} .nsewdrag").first.bounding_box()
    px, py = box["x"] + fx * box["width"], box["y"] + fy * box["height"]
    x, y = page.evaluate(f"""() => {{ const L = document.querySelector('{PLOT}')._fullLayout;
        return [L.xaxis.range[0] + {fx} * (L.xaxis.range[1] - L.xaxis.range[0]),
                L.yaxis.range[1] - {fy} * (L.yaxis.range[1] - L.yaxis.range[0])]; }}""")
    return px, py, x, y
