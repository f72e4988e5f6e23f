"""The Step-through page's charts: Plotly figures redrawn in place (a Custom Components v2
element; the browser side is ``step_plot.js``).

Why not ``st.plotly_chart``: it validates every figure through ``plotly.graph_objects`` on the
server and remounts the chart in the browser (a full ``Plotly.newPlot``) whenever the figure
changes, i.e. on every step; four charts made one step cost about a second. Here the figure
travels as JSON text (numpy arrays as typed arrays, ``ui.shared.browser_data.figure_json``)
and the browser calls ``Plotly.react`` on the same plot div: no new plot per step, and a zoom
survives.

``plot_payload`` is pure and tested; ``step_plot`` mounts the element.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ui.serving import browser_modules
from ui.shared.browser_data import PLOTLY_URL, canvas_figure_json
from ui.shared.chart import a11y_words, export_text, image_config, json_safe

COMPONENT_NAME = "svmlab_stepplot"
HTML = (
    '<div class="svmlab-stepplot" style="width: 100%; min-height: 120px; contain: layout style">'
    "</div>"
)


def plot_payload(fig: Mapping[str, Any], config: Mapping[str, Any] | None = None, *,
                 key: str = "", title: str | None = None,
                 settings: str | Sequence[str] = "") -> dict:
    """The JSON-ready data for one chart: the figure as plotly JSON text (contours on the
    shading grid refer to it instead of repeating x, y, z), the plotly config
    (``ui.shared.chart.image_config``), the words of its saved image
    (``ui.shared.chart.export_text``) and the URL of plotly.min.js (served by the app, see
    ``app.py``)."""
    return {
        "fig": canvas_figure_json(json_safe(fig)),
        "config": image_config(config, key),
        "export": export_text(fig, title, settings),
        "plotly_url": PLOTLY_URL,
        "a11y": a11y_words(fig, key=key, title=title),  # described from its own data
    }


def step_plot(fig: Mapping[str, Any], *, key: str, config: Mapping[str, Any] | None = None,
              title: str | None = None, settings: str | Sequence[str] = ""):
    """Draw ``fig`` in the element ``key`` (the same key keeps the same plot div); its PNG and
    SVG carry ``title`` (None: the figure's own) and ``settings``."""
    element = browser_modules.element(COMPONENT_NAME, "step_plot.js", HTML)
    return element(key=key, data=plot_payload(fig, config, key=key, title=title,
                                               settings=settings))
