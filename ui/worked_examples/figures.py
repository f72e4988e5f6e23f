"""The worked examples' plots: the Playground's drawing (`ui.shared.figures.decision_figure_dict`)
with the other boundaries of each example as overlays, and for the two-point example SMO's
step in its (αᵢ, αⱼ) box (the step record that `ui.step_through.box_chart` draws with the
Step-through page's own drawing). Pure: result → figure dicts and step records.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from svm_engine import datasets
from ui.shared import palette as P
from ui.shared.describe import describe_model, with_description
from ui.shared.figures import OVERLAY_COLORS, Overlay, decision_figure_dict
from ui.shared.settings import Settings
from ui.step_through import record, snapshot
from ui.worked_examples.result import Result

HEIGHT = 500
RESOLUTION = 70
BOOK_DASH = "dot"


@dataclass(frozen=True)
class Plot:
    """A Plotly ``figure``, or ``box``: an SMO step record drawn in its (αᵢ, αⱼ) box."""
    caption: str
    figure: dict | None
    box: dict | None = None


def _names(dataset: str) -> tuple[str, str]:
    """The axes' names as every other page writes them: x1, x2 (the datasets say X1, X2)."""
    return tuple(re.sub(r"\bX(\d)\b", r"x\1", n) for n in datasets.load(dataset).feature_names)


def _book(name: str, line, dash: str = BOOK_DASH) -> Overlay:
    (w1, w2), b = line
    return Overlay(name, w=(w1, w2), b=b, color=P.BLACK, dash=dash, width=2.0)


def _figure(model, overlays=(), names=("x1", "x2"), show_sv=True, ranges=None,
            show_slack=True) -> dict:
    x_range, y_range = ranges or (None, None)
    fig = decision_figure_dict(model, overlays=overlays, feature_names=names, height=HEIGHT,
                               resolution=RESOLUTION, show_sv=show_sv, max_slack_labels=8,
                               x_range=x_range, y_range=y_range, show_slack=show_slack)
    # the chart's description (ui.shared.chart.a11y_words reads it): the main model's numbers
    return with_description(fig, describe_model(model.X, model.y, model, names=names))


def figures(key: str, r: Result) -> list[Plot]:
    """The plots of example ``key`` (see ui.worked_examples.examples.EXAMPLES) from its computed
    result."""
    m = r.models
    if key == "d1":
        return [Plot("SMO's hyperplane (solid), margins (dashed), support vectors ringed; the "
                     "book's line from slide 16 dotted.",
                     _figure(m["smo"], [_book("book (slide 16)", r.book_line)],
                             _names("d1")))]
    if key == "d2":
        return [Plot("ξ drawn from each point with slack to its margin; x16 and x18 crossed "
                     "(misclassified); bound SVs (α = C) ringed thicker, in purple; the book's "
                     "line from slide 22 dotted.",
                     _figure(m["smo"], [_book("book (slide 22)", r.book_line)],
                             _names("d2")))]
    if key == "iris":
        lines = r.book_lines
        names = _names("iris_setosa")
        return [
            Plot("h10 (shaded, solid) and h1000 (green, long dashes) from the book's SVM-Dual with "
                 "ε = 1e-4; the book's printed equations dotted (h10) and dash-dotted (h1000).",
                 _figure(m["sga10"], [Overlay("h1000 (app, SGA)", model=m["sga1000"]),
                                      _book("book h10", lines[10]),
                                      _book("book h1000", lines[1000], "dashdot")], names,
                         show_sv=False)),
            Plot("Free bias (shaded, solid, SMO) against the book's folded bias h10 (green, "
                 "long dashes; exact optimum).",
                 _figure(m["free10"], [Overlay("h10, b folded into w (qp)", model=m["qp10"])],
                         names)),
        ]
    if key == "kernels":
        return [Plot("hq (quadratic kernel: shaded, solid, with margins) and hl (linear, "
                     "green, long dashes).",
                     _figure(m["hq"], [Overlay("hl (linear)", model=m["hl"])],
                             _names("iris_versicolor_pca"), show_sv=False))]
    if key == "nonlinear":
        return [Plot("K = (1 + xᵀz)², C = 4 (shaded, solid) and the best linear SVM (green, "
                     "long dashes).",
                     _figure(m["quad"], [Overlay("linear SVM, C = 4", model=m["lin"])],
                             _names("nonlinear")))]
    if key == "dual_primal":
        return [
            Plot("Slide 40: hd (SVM-Dual, hinge: shaded, solid) and hp (SVM-Primal Newton, "
                 "quadratic loss: green, long dashes).",
                 _figure(m["hd"], [Overlay("hp (SVM-Primal)", model=m["hp"])],
                         _names("iris_setosa"), show_sv=False)),
            Plot("Slide 42: the same with K = (1 + xᵀz)² on the principal components.",
                 _figure(m["hd_q"], [Overlay("hp (SVM-Primal)", model=m["hp_q"])],
                         _names("iris_versicolor_pca"), show_sv=False)),
        ]
    if key == "two_point":
        d = datasets.two_point()
        run = record.build_run(d.X, d.y, Settings.from_dataset(d.settings), "smo")
        return [Plot("The cvxopt primal QP's hyperplane x1 + x2 − 3 = 0; both points are "
                     "support vectors. The note's line dotted.",
                     _figure(m["qp"], [_book("the KKT note", r.book_line)],
                             _names("two_point"), ranges=((-0.5, 4.0), (0.0, 3.0)))),
                Plot("SMO's one step in the (λ₁, λ₂) plane, the seed's box figure: the line "
                     "y₁λ₁ + y₂λ₂ = 0, the segment [U, V] (open: C = ∞), from (0, 0) to "
                     "(1, 1). The Step-through page shows the same picture for every step.",
                     None, box=snapshot.step_record(run, 1))]
    if key == "psvm":
        green = OVERLAY_COLORS[0]
        return [Plot("The SVM of slide 22 (shaded, solid, SVs ringed); PSVM (green, solid) with "
                     "its proximal planes h(x) = ±1 (green dots); SVM-Primal Newton (purple, "
                     "long dash-dots).",
                     _figure(m["svm"], [Overlay("PSVM h(x) = 0", model=m["psvm"], color=green,
                                                dash="solid", width=3.0),
                                        Overlay("PSVM proximal planes", model=m["psvm"],
                                                color=green, dash="dot", width=2.0,
                                                margins=True),
                                        Overlay("SVM-Primal (Newton)", model=m["newton"],
                                                color=OVERLAY_COLORS[1], width=2.5)],
                             _names("d2"), show_slack=False))]
    raise KeyError(key)
