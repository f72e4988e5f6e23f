"""The Step-through page's SVM picture after a step (``step_decision_figure``: the Playground's
figure with the pair ringed and labelled, the boundary before the step drawn faint and the KKT
violators marked) and the step player's static frame (``decision_frame_figure``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ui.shared import palette as P
from ui.shared.figures import Overlay, decision_figure_dict, marker_trace
from ui.shared.points import default_range
from ui.step_through.figure_style import BEFORE_COLOR, VIOLATOR_COLOR


def step_decision_figure(
    state,
    prev_model=None,
    *,
    pair: Sequence[int] = (),
    pair_labels: Sequence[str] = ("i", "j"),
    x_range=None,
    y_range=None,
    resolution: int = 70,
    show_slack: bool = False,
    show_violators: bool = True,
    violator_label: str = "violates KKT",
    height: int = 600,
    uirevision: Any = None,
    step: int | None = None,
    legend: bool = True,
) -> dict:
    """The SVM picture after the step: regions, h(x) = 0 and ±1, SVs ringed (the Playground's
    figure), plus the pair ringed and labelled, the boundary before the step (faint, dotted)
    and the KKT violators marked (orange diamonds). ``layout.meta`` names the step shown
    (``step``, default ``state.k``) and the pair (1-based), for the browser test and benchmark.
    ``legend=False`` leaves the legend out (the page explains the marks in a caption: Plotly
    lays the legend out again on every redraw, a third of the figure's drawing time)."""
    model = state.model
    X = np.asarray(model.X, dtype=float)
    if x_range is None or y_range is None:
        x_range, y_range = default_range(X)
    overlays = []
    if prev_model is not None:
        overlays.append(
            Overlay(
                name="h(x) = 0 before this step",
                model=prev_model,
                color=BEFORE_COLOR,
                dash="dot",
                width=3.0,
            )
        )
    fig = decision_figure_dict(
        model,
        x_range=x_range,
        y_range=y_range,
        resolution=resolution,
        highlight=[int(i) for i in pair],
        overlays=overlays,
        show_slack=show_slack,
        max_slack_labels=8,
        height=height,
        uirevision=uirevision,
    )
    data = fig["data"]
    viol = np.asarray(state.violators, dtype=int)
    if show_violators and len(viol):
        data.append(
            marker_trace(
                X, viol, name=violator_label, role="violators",
                marker={"symbol": "diamond-open", "size": 24, "color": VIOLATOR_COLOR,
                        "line": {"color": VIOLATOR_COLOR, "width": 3}},
                hover=f"x<sub>%{{customdata}}</sub><extra>{violator_label}</extra>",
            )
        )
    if len(pair):
        idx = [int(i) for i in pair]
        data.append(
            {
                "type": "scatter",
                "mode": "text",
                "x": X[idx, 0],
                "y": X[idx, 1],
                "text": [f"<b>{lab}</b>" for lab in pair_labels[: len(idx)]],
                "textposition": "top right",
                "textfont": {"size": 22, "color": P.PAIR_TEXT},
                "showlegend": False,
                "hoverinfo": "skip",
                "name": "pair",
                "meta": {"role": "pair_labels", "pair": [i + 1 for i in idx]},
            }
        )
    for tr in data:
        if tr.get("meta", {}).get("role") == "highlight":
            tr["name"] = "the pair (i, j)" if len(pair) == 2 else "updated point"
    if not legend:
        fig["layout"]["showlegend"] = False
        fig["layout"]["margin"] = {**fig["layout"]["margin"], "t": 20}
    fig["layout"]["meta"] = {
        "role": "decision",
        "step": int(state.k if step is None else step),
        "pair": [int(i) + 1 for i in pair],
    }
    return fig


def decision_frame_figure(X, y, x_range, y_range, *, height: int = 600) -> dict:
    """The static part of the SMO player's scatter plot: axes and the points (the
    Playground's marks, hover included), on a transparent background. The step player
    (``ui/browser/step_player.js``) draws what changes per step under and over it: the shading, the
    lines h(x) = 0, ±1 now and h(x) = 0 before the step, the support-vector rings, the pair,
    the KKT violators and the misclassified points."""
    fig = decision_figure_dict(None, X=X, y=y, x_range=x_range, y_range=y_range, height=height)
    lay = fig["layout"]
    lay["showlegend"] = False
    lay["margin"] = {**lay["margin"], "t": 20}
    lay["paper_bgcolor"] = "rgba(0,0,0,0)"
    lay["plot_bgcolor"] = "rgba(0,0,0,0)"
    lay["meta"] = {"role": "frame"}
    return fig
