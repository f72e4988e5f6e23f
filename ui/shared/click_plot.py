"""A Plotly chart that reports a click or a tap as data coordinates: a Custom Components v2
element (browser side: the module ``ui/browser/click_plot.js``, loaded by
``ui.serving.browser_modules``), for the pages that add points of k
classes (More classes) or of a 1-D target (Regression).

Why not the Playground's canvas: it knows two classes (±1) and fits through its own
endpoint. Why not ``st.plotly_chart(on_select=...)``: it reports only a selected marker, so a
click on empty space needs a grid of invisible markers, and on a touch screen Plotly selects
the marker under the *previous* tap. Here the browser sends the place of the click itself.

``payload`` and ``parse_click`` are pure and tested (the browser is not trusted: only finite
numbers inside the plotted ranges are accepted); ``click_plot`` mounts the element.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ui.serving import browser_modules
from ui.shared.browser_data import PLOTLY_URL, figure_json
from ui.shared.chart import a11y_words, export_text, image_config

COMPONENT_NAME = "svmlab_clickplot"
HTML = ('<div class="svmlab-clickplot" style="width: 100%; min-height: 120px; '
        'contain: layout style; cursor: crosshair"></div>')
#: the pages' hint of the keys (click_keys.js), after their mouse hint
KEYS_HINT = ("By keyboard: Tab to the plot, move its cross with the arrow keys (Shift: bigger "
             "steps), Enter adds a point there.")
#: the plot takes focus (click_keys.js: arrow keys and Enter): its focus ring, ≥ 3:1 on white
CSS = ".svmlab-clickplot:focus-visible { outline: 3px solid #00674b; outline-offset: 2px; }"



def payload(fig: Mapping[str, Any], config: Mapping[str, Any] | None = None, *,
            key: str = "", title: str | None = None,
            settings: str | Sequence[str] = "", name: str | None = None,
            description: str | None = None, table: str | None = None) -> dict:
    """The JSON-ready data of one chart: the figure as plotly JSON text (numpy arrays as typed
    arrays), the plotly config (``ui.shared.chart.image_config``), the words of its saved image
    (``ui.shared.chart.export_text``), its accessible name and description
    (``ui.shared.chart.a11y_words``) and the URL of plotly.min.js (served by the app)."""
    return {"fig": figure_json(fig), "config": image_config(config, key),
            "export": export_text(fig, title, settings), "plotly_url": PLOTLY_URL,
            "a11y": a11y_words(fig, key=key, title=title, name=name, description=description,
                               table=table)}


def parse_click(value: Any, x_range, y_range) -> tuple[float, float] | None:
    """(x, y) of a click the element reported (``st.session_state[key]``), or None when it
    holds none, or anything but two finite numbers inside the ranges (with a little slack:
    the edge of the plot area)."""
    click = value.get("click") if isinstance(value, Mapping) else None
    if not isinstance(click, Mapping):
        return None
    x, y = click.get("x"), click.get("y")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
               for v in (x, y)):
        return None
    if not (_within(x, x_range) and _within(y, y_range)):
        return None
    return float(x), float(y)


def _within(v: float, r) -> bool:
    lo, hi = sorted((float(r[0]), float(r[1])))
    slack = 0.01 * (hi - lo)
    return lo - slack <= v <= hi + slack


def click_plot(fig: Mapping[str, Any], *, key: str, on_click: Callable[[], None],
               config: Mapping[str, Any] | None = None, title: str | None = None,
               settings: str | Sequence[str] = "", name: str | None = None,
               description: str | None = None, table: str | None = None) -> Any:
    """Draw ``fig`` in the element ``key``; ``on_click`` runs when the student clicks or taps
    the plot area (it reads ``parse_click(st.session_state[key], ...)``). Its PNG and SVG carry
    ``title`` (None: the figure's own) and ``settings``; a screen reader reads ``name``,
    ``description`` and ``table`` (``ui.shared.chart.a11y_words``)."""
    element = browser_modules.element(COMPONENT_NAME, "click_plot.js", HTML, CSS)
    return element(key=key, data=payload(fig, config, key=key, title=title, settings=settings,
                                         name=name, description=description, table=table),
                   on_click_change=on_click)
