"""The dashboard's charts (pure Plotly dicts): the numbers the class typed for one screen (a
histogram, the right answer's band marked), and everyone's marks or placed points on the
screen's own picture (``ui.classroom.figures.task_figure``)."""

from __future__ import annotations

from collections.abc import Sequence

from ui.classroom import figures as CF
from ui.classroom.model import Task
from ui.shared.figures import NEG_COLOR, POS_COLOR
from ui.teach.summary import ScreenSummary


def numbers_histogram(s: ScreenSummary) -> dict:
    values = list(s.numbers)
    return {"data": [{"type": "histogram", "x": values, "name": "answers",
                      "marker": {"color": POS_COLOR, "line": {"color": "#000000", "width": 1}},
                      "hovertemplate": "%{x}: %{y} students<extra></extra>"}],
            "layout": {"height": 260, "margin": {"l": 40, "r": 10, "t": 30, "b": 40},
                       "xaxis": {"title": {"text": "the value typed"}},
                       "yaxis": {"title": {"text": "students"}, "dtick": 1},
                       "bargap": 0.05,
                       "meta": {"description": f"{len(values)} numeric answers to screen "
                                               f"{s.screen + 1}"}}}


def overlay(task: Task, s: ScreenSummary) -> dict:
    """Every student's answer on one picture: marked points ringed by how many marked them;
    placed points as stars (filled: right; open: wrong)."""
    extra: list[dict] = []
    for right, word in ((True, "placed: right"), (False, "placed: wrong")):
        pts = [p for p in s.placed if p[3] is right]
        if pts:
            extra.append({"type": "scatter", "mode": "markers", "name": word,
                          "x": [p[0] for p in pts], "y": [p[1] for p in pts],
                          "marker": {"symbol": "star" if right else "star-open", "size": 15,
                                     "color": [POS_COLOR if p[2] > 0 else NEG_COLOR
                                               for p in pts],
                                     "line": {"color": "#000000", "width": 1}}})
    counts: Sequence[int] | None = s.marks or None
    return CF.task_figure(task, counts=counts, extra=extra)
