"""Plotly figures of the Step-through page, one module per figure (pure functions returning
plain figure dicts, ``{"data": [...], "layout": {...}}``; never imports streamlit). Every trace
carries ``meta["role"]`` so tests (and the browser test) can find it:

- ``decision_figures``: the Playground's picture of the state after a step, and the step
  player's static frame;
- ``coordinate_figure``: SGA's one-coordinate update (slide 33, lines 12–14) on [0, C];
- ``bars_figure``: α as bars, the entries this step changed highlighted;
- ``curves_figure``: the objectives and the maximal KKT violation over the iterations;
- ``figure_style``: their colours, layout and axes.

SMO's two-variable subproblem in the (αᵢ, αⱼ) plane is drawn in the browser only
(``ui/browser/step_box.js``: the step player, and ``ui.step_through.box_chart`` elsewhere).

Indices are shown 1-based (x₁ … xₙ as in the book).
"""

from ui.step_through.bars_figure import alpha_bars_figure
from ui.step_through.coordinate_figure import coordinate_figure
from ui.step_through.curves_figure import curves_figure
from ui.step_through.decision_figures import decision_frame_figure, step_decision_figure
from ui.step_through.figure_style import (
    BEFORE_COLOR,
    DUAL_COLOR,
    KKT_COLOR,
    MAX_CURVE_POINTS,
    NEW_COLOR,
    OLD_COLOR,
    PRIMAL_COLOR,
    UNCLIPPED_COLOR,
    VIOLATOR_COLOR,
)

__all__ = [
    "BEFORE_COLOR", "DUAL_COLOR", "KKT_COLOR", "MAX_CURVE_POINTS", "NEW_COLOR", "OLD_COLOR",
    "PRIMAL_COLOR", "UNCLIPPED_COLOR", "VIOLATOR_COLOR", "alpha_bars_figure",
    "coordinate_figure", "curves_figure", "decision_frame_figure",
    "step_decision_figure",
]
