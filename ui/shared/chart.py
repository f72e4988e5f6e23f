"""Every chart a student sees, with a way to take it away: one Custom Components v2 element
(browser side ``ui/browser/chart.js``) whose toolbar has two buttons, PNG and SVG
(``ui/browser/plot_export.js``, the same as on the Playground's canvas). The saved image is the
chart as shown with a title and a line of the settings on top, so a figure pasted into a report
still says what it shows. The title and the settings are drawn only in the image.

Why not ``st.plotly_chart``: its toolbar takes a JSON config, so no button of it can run code:
one image format per chart (``toImageButtonOptions.format``), and the image is the chart as on
the screen, with no title and no settings.

The clickable plots (``ui.shared.click_plot``), the Step-through's charts
(``ui.step_through.plot``) and its step player take the same ``export`` text (``export_text``).
Every Plotly config leaves through ``ui.shared.plotly_config.no_cloud``: no "Share" button.

Every chart has an accessible name and description (``a11y_words``; WCAG 1.1.1): the browser
makes its box a named figure described by a hidden paragraph (``ui/browser/chart_a11y.js``).
A page passes its own words (``ui.shared.describe``) where it has them, else the figure is
described from its own data (``describe_figure``); ``table`` ties the chart to its numbers.

``chart_payload``, ``export_text``, ``a11y_words``, ``model_words`` and ``json_safe`` are pure
and tested;
``show_chart`` mounts the element. The page tests read what a chart shows with
``tests/plotly_json.chart_specs``.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import plotly.io as pio

from ui.serving import browser_modules
from ui.shared.browser_data import PLOTLY_URL, figure_json
from ui.shared.describe import describe_figure, table_note
from ui.shared.labels import BIAS_LABELS, LOSS_LABELS
from ui.shared.markdown import kernel_text
from ui.shared.numbers import fmt_setting
from ui.shared.plotly_config import PLOTLY_CONFIG, no_cloud

COMPONENT_NAME = "svmlab_chart"
HTML = ('<div class="svmlab-chart" style="width: 100%; min-height: 120px; '
        'contain: layout style"></div>')
#: the pages' charts: the mouse wheel scrolls the page (the toolbar zooms)
CHART_CONFIG = {**PLOTLY_CONFIG, "scrollZoom": False}
DEFAULT_TITLE = "SVM Lab"
_TAG = re.compile(r"<[^>]*>")
_NOT_NAME = re.compile(r"[^a-z0-9]+")


def _one_line(text: Any) -> str:
    return " ".join(str(text).split())


def figure_title(fig: Any) -> str:
    """The figure's own title as plain text ("" without one): Plotly's tags (<b>, <br>, <sub>)
    dropped."""
    if hasattr(fig, "to_plotly_json"):
        fig = fig.to_plotly_json()
    title = (fig.get("layout") or {}).get("title") if isinstance(fig, Mapping) else None
    if isinstance(title, Mapping):
        title = title.get("text")
    return _one_line(_TAG.sub(" ", str(title))) if title else ""


def export_text(fig: Any, title: str | None, settings: str | Sequence[str]) -> dict:
    """What the saved image says on top: {"title", "settings"}, each one line of plain text
    (the browser escapes it). ``title`` None: the figure's own title, else "SVM Lab";
    ``settings``: a line, or its parts (empty ones dropped) joined by " · "."""
    if not isinstance(settings, str):
        settings = " · ".join(_one_line(p) for p in settings if p is not None and str(p).strip())
    return {"title": _one_line(title) if title else figure_title(fig) or DEFAULT_TITLE,
            "settings": _one_line(settings)}


def a11y_words(fig: Any, *, key: str, title: str | None = None, name: str | None = None,
               description: str | None = None, table: str | None = None,
               where: str = "below") -> dict:
    """The chart's accessible {"name", "description"}: ``name`` (None: ``title``, else the
    figure's own title, else words from ``key``); ``description`` (None: the figure's
    ``layout.meta.description``, as a live-class task's picture carries it, else
    ``describe_figure``), then "The numbers are in the table '<table>' below." when ``table``
    is given."""
    if not name:
        name = _one_line(title) if title else figure_title(fig)
    if not name:
        words = " ".join(p for p in _NOT_NAME.split(str(key).lower()) if p and p != "fig")
        name = f"Chart: {words}" if words else "Chart"
    if not description and hasattr(fig, "to_plotly_json"):
        fig = fig.to_plotly_json()
    meta = (fig.get("layout") or {}).get("meta") if isinstance(fig, Mapping) else None
    own = meta.get("description") if isinstance(meta, Mapping) else None
    text = _one_line(description or own or describe_figure(fig))
    if table and table_note(table, where) not in text:
        text = f"{text} {table_note(table, where)}"
    return {"name": _one_line(name), "description": text}


def model_words(settings: Mapping[str, Any], *, solver: str | None = None,
                bias: bool = True) -> str:
    """The model's settings in words, for a settings line: "kernel Gaussian σ = 0.5 · C = 1 ·
    loss hinge (k = 1) · free b" (the keys that are there; ``solver``: its label; ``bias``
    False: leave the bias form out, for a page that runs both)."""
    parts = []
    if "kernel" in settings:
        parts.append(f"kernel {kernel_text(settings)}")
    if settings.get("hard_margin"):
        parts.append("C = ∞ (hard margin)")
    elif "C" in settings:
        parts.append(f"C = {fmt_setting(settings['C'])}")
    if "epsilon" in settings:
        parts.append(f"ε = {fmt_setting(settings['epsilon'])}")
    if "loss" in settings:
        parts.append(f"loss {LOSS_LABELS.get(settings['loss'], settings['loss'])}")
    if bias and "bias" in settings:
        parts.append({"free": "free b", "augmented": "augmented b"}.get(
            settings["bias"], BIAS_LABELS.get(settings["bias"], str(settings["bias"]))))
    if solver:
        parts.append(solver)
    return " · ".join(parts)


@functools.cache
def chart_template() -> dict:
    """The colours ``st.plotly_chart(theme=None)`` gave a chart that sets none: Plotly's colour
    way and colour scales (Streamlit's template carried placeholders that its browser code
    replaced with these). Backgrounds, fonts and axes stay plotly.js's own, as there."""
    plotly = pio.templates["plotly"].to_plotly_json()
    scales = plotly["layout"]["colorscale"]
    return {"layout": {"colorway": plotly["layout"]["colorway"], "colorscale": scales,
                       "coloraxis": {"colorscale": scales["sequential"]}},
            "data": {t: [{"type": t, "colorscale": scales["sequential"]}]
                     for t in ("contour", "contourcarpet", "heatmap", "histogram2d",
                               "histogram2dcontour")}}


def json_safe(v: Any) -> Any:
    """Python floats ±∞/NaN (e.g. C = ∞ for the hard margin) become None (JSON null, which
    Plotly skips), as plotly's own JSON encoder does; numpy arrays are left to
    ``ui.shared.browser_data.figure_json``."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, Mapping):
        return {k: json_safe(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [json_safe(x) for x in v]
    return v


def plotly_json(fig: Any) -> dict:
    """The figure as plotly JSON, with the colours ``st.plotly_chart`` gave it
    (``chart_template``); ``fig`` is left as it was. A figure dict is sent as it is, not checked
    again by ``go.Figure``: that check and its copy cost 6-12 ms a chart on every click (8
    charts on Kernels; ``benchmarks/bench_chart_payload.py``), while the figures are fixed
    code, which the page tests check with ``go.Figure`` (``tests/plotly_json.plotly_keeps``)."""
    if hasattr(fig, "to_plotly_json"):        # a go.Figure: checked when it was built
        fig = fig.to_plotly_json()
    out = json_safe(fig)                      # new dicts and lists (arrays shared)
    out.setdefault("layout", {})["template"] = chart_template()
    return out


def image_config(config: Mapping[str, Any] | None, key: str) -> dict:
    """``config`` (None: ``CHART_CONFIG``) as handed to Plotly: no cloud button, and the saved
    image named after the chart, svm_lab_<key> (.png or .svg)."""
    out = no_cloud(CHART_CONFIG if config is None else config)
    name = "_".join(p for p in _NOT_NAME.split(str(key).lower()) if p)
    out["toImageButtonOptions"] = {**out.get("toImageButtonOptions", {}),
                                   "filename": f"svm_lab_{name}" if name else "svm_lab"}
    return out


def chart_payload(fig: Any, *, key: str, title: str | None, settings: str | Sequence[str],
                  config: Mapping[str, Any] | None = None, name: str | None = None,
                  description: str | None = None, table: str | None = None) -> dict:
    """The JSON-ready data of one chart: the figure as plotly JSON text (numpy arrays as typed
    arrays), the plotly config (``image_config``), the words of its saved image, its accessible
    name and description (``a11y_words``) and the URL of plotly.min.js (served by the app)."""
    fig = plotly_json(fig)
    return {"fig": figure_json(fig), "config": image_config(config, key),
            "export": export_text(fig, title, settings), "plotly_url": PLOTLY_URL,
            "a11y": a11y_words(fig, key=key, title=title, name=name, description=description,
                               table=table)}


def show_chart(fig: Any, *, key: str, title: str | None = None,
               settings: str | Sequence[str], config: Mapping[str, Any] | None = None,
               name: str | None = None, description: str | None = None,
               table: str | None = None) -> Any:
    """Draw ``fig`` (a Plotly figure or its dict) as the chart ``key``, redrawn in place on a
    rerun; its PNG and SVG carry ``title`` (None: the figure's own) and ``settings``; a screen
    reader reads ``name`` and ``description`` (``a11y_words``: defaults from the figure) and
    ``table``, the heading of the table of its numbers."""
    element = browser_modules.element(COMPONENT_NAME, "chart.js", HTML)
    return element(key=key, data=chart_payload(fig, key=key, title=title, settings=settings,
                                                config=config, name=name,
                                                description=description, table=table))
