"""What every Step-through figure shares: the colours of its marks, the layout and axes, and
how an index is written (pure; plotly figure dicts)."""

from __future__ import annotations

from typing import Any

from ui.shared import palette as P
from ui.shared.figures import FONT_SIZE, HIGHLIGHT_COLOR

VIOLATOR_COLOR = P.ORANGE
OLD_COLOR = P.DARK_GREY
UNCLIPPED_COLOR = P.PURPLE
NEW_COLOR = HIGHLIGHT_COLOR
BEFORE_COLOR = P.GREY
DUAL_COLOR = P.BLUE
PRIMAL_COLOR = P.VERMILLION
KKT_COLOR = P.BLACK
EXTRA_COLOR = P.PURPLE
#: labels darker than their marks where the mark's colour is under 4.5:1 on the pale fill
TEXT_OF = {"new": P.PAIR_TEXT, "unclipped": P.PURPLE_TEXT}
MAX_CURVE_POINTS = 1500  # longer curves are thinned (every m-th step, plus the last)


def sub(i: int) -> str:
    """'α<sub>4</sub>' style index (1-based) for plotly text."""
    return f"<sub>{int(i) + 1}</sub>"


def base_layout(height: int, title: str | None = None) -> dict:
    layout: dict[str, Any] = {
        "height": height,
        "margin": {"l": 70, "r": 20, "t": 60 if title else 30, "b": 60},
        "font": {"size": FONT_SIZE, "family": "Source Sans Pro, Arial, sans-serif"},
        "plot_bgcolor": "#FFFFFF",
        "paper_bgcolor": "#FFFFFF",
        "showlegend": False,
        "hovermode": "closest",
    }
    if title:
        layout["title"] = {"text": title, "x": 0.01, "y": 0.97, "font": {"size": 20}}
    return layout


def axis(title: str, **extra) -> dict:
    ax = {
        "title": {"text": title},
        "zeroline": False,
        "showgrid": True,
        "gridcolor": P.GRID_LINE,
        "ticks": "outside",
        "mirror": True,
        "showline": True,
        "linecolor": "#444444",
    }
    ax.update(extra)
    return ax
