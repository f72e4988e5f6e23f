"""Helpers of the browser tests that drive the Playground's click canvas (ui/browser/canvas.js)."""

from __future__ import annotations

CANVAS = ".svmlab-canvas"
D2 = "/?v=1&d=d2&k=linear&l=hinge&C=1&b=free&sv=smo"


def open_app(page, query=D2):
    """Open the Playground and wait until Plotly has drawn the first figure."""
    page.goto(page.app_url + query)
    page.wait_for_function(
        "(() => { const r = document.querySelector('.svmlab-canvas');"
        " return r && Number(r.dataset.draws) >= 1 && r.__state && r.__state.drawn; })()"
    )


def st(page, expr: str):
    """``expr`` evaluated in the page with ``s`` = the canvas's live state."""
    return page.evaluate(f"(() => {{ const s = document.querySelector('{CANVAS}').__state;"
                         f" return {expr}; }})()")  # fmt: skip


def wait_refit(page, seq: int):
    """Until the answer to edit ``seq`` is drawn as the full figure (the layer is gone)."""
    page.wait_for_function(
        f"(() => {{ const r = document.querySelector('{CANVAS}');"
        f" return Number(r.dataset.fullSeq) >= {seq} && !r.__state.overlayOn; }})()"
    )


def to_pixel(page, x, y):
    """The page coordinates of the data point (x, y) in the plot's current axis ranges."""
    return page.evaluate(
        """([x, y]) => { const s = document.querySelector('.svmlab-canvas').__state;
        const r = s.plot.querySelector('.nsewdrag').getBoundingClientRect();
        const fl = s.plot._fullLayout, xr = fl.xaxis.range, yr = fl.yaxis.range;
        return [r.left + (x - xr[0]) / (xr[1] - xr[0]) * r.width,
                r.top + (yr[1] - y) / (yr[1] - yr[0]) * r.height]; }""",
        [x, y],
    )
