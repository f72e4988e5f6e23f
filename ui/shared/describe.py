"""Charts in words (pure; no streamlit): the accessible description of every chart (WCAG 1.1.1),
written from the numbers the page shows and printed by ``ui.shared.numbers``, as the numbers
panel prints them.

- ``describe_model(X, y, model)``: a two-class SVM picture, e.g. "14 points: 8 of class +1
  (circles) on the side where 0.833·x1 + 0.333·x2 − 3.333 > 0, 6 of class −1 (squares) on
  the other. Margin 1.114; support vectors x1, x4, x13; no slack." The Playground's canvas
  rewrites it in the browser after each fit (``ui/browser/describe.js``, the same words from
  the fit endpoint's answer; tests/js/describe_cases.json holds Python's texts for its test).
- ``describe_figure(fig)``: any Plotly figure from its own data (its series, their sizes and
  ranges, the axes), so that no chart is left without a description.
- ``with_description(fig, text)``: a figure dict that carries its words (``layout.meta``),
  for a page's figures module, so that the chart needs no more arguments.
- ``describe_points(y, message)``: points without a model (the panel's message says why).
- ``class_counts``, ``point_names``, ``table_note``: the pieces, for a page's own words.

The marker words follow ``ui.shared.figures`` (class +1 circles, class −1 squares); the support
vectors are the points with α > 0, those the numbers panel counts ("3 (3 free, 0 bound)").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ui.shared.figures import NEG_SYMBOL, POS_SYMBOL
from ui.shared.labels import KERNEL_LABELS
from ui.shared.numbers import fmt_num, linear_combination
from ui.shared.slack_drawing import MIN_SLACK

#: a marker symbol in words (the plural a description uses)
SHAPES = {"circle": "circles", "square": "squares", "diamond": "diamonds",
          "triangle-up": "triangles", "cross": "crosses", "x": "crosses", "star": "stars"}
POS_WORDS = f"class +1 ({SHAPES[POS_SYMBOL]})"
NEG_WORDS = f"class −1 ({SHAPES[NEG_SYMBOL]})"
#: at most this many point names are listed; the rest are counted ("and 12 more")
MAX_NAMES = 12
#: at most this many series of a figure are described one by one
MAX_SERIES = 8
_TAG = re.compile(r"<[^>]*>")


def point_names(idx: Sequence[int]) -> str:
    """'x1, x4, x13' (the tables' names, 1-based); past ``MAX_NAMES`` 'and 12 more'."""
    idx = [int(i) for i in idx]
    names = ", ".join(f"x{i + 1}" for i in idx[:MAX_NAMES])
    return names + (f" and {len(idx) - MAX_NAMES} more" if len(idx) > MAX_NAMES else "")


def class_counts(y: Any) -> str:
    """'14 points: 8 of class +1 (circles), 6 of class −1 (squares)'."""
    y = np.asarray(y, dtype=float).reshape(-1)
    npos = int((y > 0).sum())
    return f"{len(y)} points: {npos} of {POS_WORDS}, {len(y) - npos} of {NEG_WORDS}"


def describe_points(y: Any, message: str | None = None) -> str:
    """Points without a model: '3 points: 3 of class +1 (circles), 0 of class −1 (squares). No
    model: <message>' (the numbers panel's message)."""
    return f"{class_counts(y)}." + (f" No model: {message}" if message else "")


def table_note(heading: str, where: str = "below") -> str:
    """The sentence that ties a chart to its table: "The numbers are in the table 'α' below."."""
    return f"The numbers are in the table '{heading}' {where}."


def describe_model(X: Any, y: Any, model: Any, *, names: Sequence[str] = ("x1", "x2"),
                   table: str | None = None, where: str = "below") -> str:
    """A two-class SVM picture in words, its numbers as the numbers panel prints them
    (``ui.shared.tables.model_summary``: the hyperplane, "margin 1/‖w‖", "total slack Σξ").
    ``names``: the features' names in the equation; ``table``: the heading of the numbers
    table beside it (``table_note``)."""
    y = np.asarray(y, dtype=float).reshape(-1)
    npos = int((y > 0).sum())
    head = f"{len(y)} points: {npos} of {POS_WORDS}"
    if model.w is not None:
        lhs = linear_combination([*((wk, names[k] if k < len(names) else f"x{k + 1}")
                                    for k, wk in enumerate(model.w)),
                                  (float(model.b), "")])
        text = (f"{head} on the side where {lhs} > 0, {len(y) - npos} of {NEG_WORDS} "
                "on the other.")
    else:
        name = getattr(model.kernel, "name", "")
        text = (f"{head}, {len(y) - npos} of {NEG_WORDS}; the boundary h(x) = 0 of the "
                f"{KERNEL_LABELS.get(name, name)} kernel is curved, class +1 where h(x) > 0.")
    xi = np.asarray(model.xi, dtype=float)
    wrong = np.flatnonzero(np.asarray(model.category) == "misclassified")
    return " ".join(p for p in (text, _fit_words(
        fmt_num(model.margin), sorted([*model.free_support, *model.bound_support]),
        np.flatnonzero(xi > MIN_SLACK), fmt_num(float(np.sum(xi)), 4), wrong),
        table_note(table, where) if table else "") if p)


def _fit_words(margin: str, sv: Sequence[int], slack: Sequence[int], total: str,
               wrong: Sequence[int]) -> str:
    """'Margin 1.114; support vectors x1, x4; slack on x3 (Σξ 0.5); misclassified x3.'
    (ui/browser/describe.js writes the same)."""
    parts = [f"Margin {margin}",
             f"support vectors {point_names(sv)}" if len(sv) else "no support vectors",
             f"slack on {point_names(slack)} (Σξ {total})" if len(slack) else "no slack"]
    if len(wrong):
        parts.append(f"misclassified {point_names(wrong)}")
    return "; ".join(parts) + "."


def with_description(fig: dict, text: str) -> dict:
    """``fig`` (a figure dict) carrying ``text`` as its ``layout.meta.description``, which a
    chart takes for its description (``ui.shared.chart.a11y_words``); returns ``fig``."""
    layout = fig.setdefault("layout", {})
    meta = layout.get("meta")
    layout["meta"] = {**(meta if isinstance(meta, Mapping) else {}), "description": text}
    return fig


def _plain(text: Any) -> str:
    return " ".join(_TAG.sub(" ", str(text)).split())


def _title(v: Any) -> str:
    if isinstance(v, Mapping):
        v = v.get("text")
    return _plain(v) if v else ""


def _numbers(v: Any) -> np.ndarray | None:
    """The finite numbers of an array-like, or None when it holds text (a category axis)."""
    if v is None:
        return None
    try:
        a = np.asarray(v, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        return None
    return a[np.isfinite(a)]


def _size(t: Mapping[str, Any]) -> int:
    for k in ("x", "y", "z", "values"):
        v = t.get(k)
        if v is not None and not isinstance(v, str | bytes | Mapping):
            return len(v) if not hasattr(v, "shape") else int(np.asarray(v).shape[0])
    return 0


def _series(t: Mapping[str, Any]) -> str:
    kind = str(t.get("type") or "scatter")
    name = _plain(t.get("name") or "")
    label = f"'{name}'" if name else "unnamed"
    n = _size(t)
    if kind in ("contour", "heatmap", "surface", "histogram2d", "histogram2dcontour"):
        return f"{label} {'shading' if kind == 'heatmap' else kind}"
    if kind == "bar":
        h = _numbers(t.get("y"))
        span = f", heights {fmt_num(h.min())} to {fmt_num(h.max())}" if h is not None and len(h) \
            else ""
        return f"{label} bars ({n}{span})"
    mode = str(t.get("mode") or ("lines" if kind == "scatter3d" else "markers"))
    if "lines" in mode and n >= 2:
        ys = _numbers(t.get("z") if kind == "scatter3d" else t.get("y"))
        span = (f", {'z' if kind == 'scatter3d' else 'y'} from {fmt_num(ys.min())} to "
                f"{fmt_num(ys.max())}" if ys is not None and len(ys) else "")
        return f"{label} line ({n} points{span})"
    where = " in 3-D" if kind == "scatter3d" else ""
    return f"{label} {n} point{'' if n == 1 else 's'}{where}"


def _axes(layout: Mapping[str, Any]) -> list[str]:
    out = []
    scenes = [(k, v) for k, v in layout.items() if re.fullmatch(r"scene\d*", k)]
    axes = [(k, v) for k, v in sorted(layout.items()) if re.fullmatch(r"[xy]axis\d*", k)]
    for _, scene in scenes:
        if isinstance(scene, Mapping):
            axes += [(k, scene.get(k)) for k in ("xaxis", "yaxis", "zaxis")]
    for key, ax in axes:
        if not isinstance(ax, Mapping):
            continue
        title = _title(ax.get("title"))
        rng = ax.get("range")
        span = ""
        if isinstance(rng, Sequence) and len(rng) == 2 and all(
                isinstance(v, int | float) for v in rng):
            span = f" from {fmt_num(rng[0], 3)} to {fmt_num(rng[1], 3)}"
        if title or span:
            named = f" '{title}'" if title else ""
            out.append(f"{key[0]} axis{named}{span}")
    return out


def describe_figure(fig: Any) -> str:
    """Any Plotly figure (a go.Figure or its dict) in words from its own data: its title, its
    series (name, kind, size; a line's range of values) and its axes. Never empty."""
    if hasattr(fig, "to_plotly_json"):
        fig = fig.to_plotly_json()
    fig = fig if isinstance(fig, Mapping) else {}
    layout = fig.get("layout") or {}
    traces = [t for t in (fig.get("data") or []) if isinstance(t, Mapping)
              and t.get("visible", True) is not False]
    title = _title(layout.get("title"))
    head = f"Chart '{title}'" if title else "Chart"
    if not traces:
        return f"{head}, empty."
    listed = [_series(t) for t in traces[:MAX_SERIES]]
    if len(traces) > MAX_SERIES:
        listed.append(f"{len(traces) - MAX_SERIES} more series")
    text = f"{head} of {len(traces)} series: " + "; ".join(listed) + "."
    axes = _axes(layout)
    return text + (" Axes: " + "; ".join(axes) + "." if axes else "")
