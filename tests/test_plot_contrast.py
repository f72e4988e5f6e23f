"""Every plot's lines and marks against what they are drawn on (issue 28; WCAG 2.2 1.4.11: at
least 3:1, the decision regions' shading included, text 4.5:1) and no series told from
another by colour alone (1.4.1): the figure builders of every page, run on the project's
datasets, read as the browser gets them. The browser's own drawings (the step player, the
Playground's overlay) take the same colours from ui/browser/palette.js, generated from
ui/shared/palette.py and held to it here."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import numpy as np
import plotly.colors as pc
import pytest

from svm_engine import datasets
from tests.contrast import luminance, over, parse, ratio
from ui.classroom import figures as CF
from ui.classroom.model import Task
from ui.compare import comparison as cmp
from ui.compare import figures as CMF
from ui.generalisation import compute as GC
from ui.generalisation import figures as GF
from ui.kernels import compute as KC
from ui.kernels import figures as KF
from ui.kmeans_pca import compute as KMC
from ui.kmeans_pca import figures as KMF
from ui.knn_perceptron import compute as KPC
from ui.knn_perceptron import figures as KPF
from ui.losses import figures as LF
from ui.multiclass import compute as MC
from ui.multiclass import figures as MF
from ui.regression import compute as RC
from ui.regression import figures as RF
from ui.shared import figures as SF
from ui.shared import fitting
from ui.shared import palette as P
from ui.shared.settings import DEFAULTS, Settings
from ui.step_through import record, snapshot
from ui.step_through.bars_figure import alpha_bars_figure
from ui.step_through.coordinate_figure import coordinate_figure
from ui.step_through.curves_figure import curves_figure
from ui.step_through.decision_figures import step_decision_figure
from ui.step_through.figure_style import (
    BEFORE_COLOR,
    DUAL_COLOR,
    KKT_COLOR,
    OLD_COLOR,
    PRIMAL_COLOR,
    UNCLIPPED_COLOR,
    VIOLATOR_COLOR,
)
from ui.step_through.view import step_view
from ui.worked_examples import examples as WE
from ui.worked_examples import figures as WF

ROOT = Path(__file__).resolve().parents[1]
LINES_AND_MARKS = 3.0   # WCAG 1.4.11
TEXT = 4.5              # WCAG 1.4.3 (the plots' labels are under 18 pt)
#: what is drawn under the marks: the shading and the fills (a heatmap of values, the Gram
#: matrix or the CV grid, is the data itself: nothing is drawn on it but the best cell's frame)
SHADING_ROLES = {"regions", "region_cells"}


# ------------------------------------------------------------------------------- reading


def _hex(rgb) -> str:
    return "#{:02X}{:02X}{:02X}".format(*(round(c) for c in rgb))


def _scale_colours(scale) -> list[str]:
    if isinstance(scale, str):
        scale = pc.get_colorscale(scale)
    return [c for _, c in scale]


def backgrounds(fig: dict) -> dict[str, str]:
    """What the figure's marks may sit on (opaque colours, as '#RRGGBB'): the plot's background
    (Plotly's white unless set; transparent: the page's white), the shading's colours, fills
    at their opacity over white, the 3-D plane, filled shapes."""
    lay = fig.get("layout", {})
    bg = lay.get("plot_bgcolor", P.WHITE)
    out = {"plot background": _hex(over(bg))}
    for t in fig["data"]:
        role = (t.get("meta") or {}).get("role")
        name = t.get("name", t["type"])
        if t["type"] in ("heatmap", "contour") and role in SHADING_ROLES:
            if t.get("fillcolor"):
                out[f"{name} fill"] = _hex(over(t["fillcolor"]))
            else:
                for c in _scale_colours(t["colorscale"]):
                    out[f"{name} {c}"] = _hex(over(c))
        if t["type"] == "scatter" and t.get("fill") and t.get("fillcolor"):
            out[f"{name} fill"] = _hex(over(t["fillcolor"]))
        if t["type"] == "surface":
            for c in _scale_colours(t["colorscale"]):
                (r, g, b), _ = parse(c)
                a = float(t.get("opacity", 1.0))
                out[f"{name} {c}"] = _hex(over(f"rgba({r},{g},{b},{a})"))
    for k, s in enumerate(lay.get("shapes", ())):
        if s.get("fillcolor"):
            out[f"shape {k} fill"] = _hex(over(s["fillcolor"]))
    first = {}
    for where, c in out.items():  # each colour once, under its first name
        first.setdefault(c, where)
    return {where: c for c, where in first.items()}


def _open(symbol: str) -> bool:
    return "open" in symbol or "thin" in symbol


def _colours(v) -> list[str]:
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    return sorted({str(c) for c in np.asarray(v, dtype=object).ravel()})


def marks(fig: dict) -> list[tuple[str, str, float]]:
    """(what, colour, the ratio it needs) for every line, marker and label the figure draws.
    Markers: the fill of a filled one, the stroke of an open one, an outline that is not the
    white halo around a filled one. A scatter without a colour of its own would be Plotly's
    colour way's: reported as None."""
    out = []
    for t in fig["data"]:
        name = t.get("name") or (t.get("meta") or {}).get("role") or t["type"]
        role = (t.get("meta") or {}).get("role")
        mode = t.get("mode", "")
        if t["type"] in ("scatter", "scatter3d", "scattergl"):
            line = t.get("line") or {}
            if "lines" in mode and line.get("width", 2) > 0:
                out.append((f"{name}: line", line.get("color"), LINES_AND_MARKS))
            if "markers" in mode:
                m = t.get("marker") or {}
                mline = m.get("line") or {}
                symbols = _colours(m.get("symbol", "circle"))
                if any(_open(s) for s in symbols):
                    for c in _colours(mline.get("color") or m.get("color")) or [None]:
                        out.append((f"{name}: open marker", c, LINES_AND_MARKS))
                if not all(_open(s) for s in symbols):
                    # a white fill inside a coloured ring: the ring is the mark
                    fill = [c for c in _colours(m.get("color")) if c.upper() != P.WHITE]
                    for c in fill or ([] if m.get("color") else [None]):
                        out.append((f"{name}: marker", c, LINES_AND_MARKS))
                    for c in _colours(mline.get("color")):
                        if c.upper() != P.WHITE and mline.get("width", 0) > 0:
                            out.append((f"{name}: marker outline", c, LINES_AND_MARKS))
            if "text" in mode:
                for c in _colours((t.get("textfont") or {}).get("color")):
                    out.append((f"{name}: text", c, TEXT))
        elif t["type"] == "contour" and role not in SHADING_ROLES:
            if (t.get("contours") or {}).get("coloring") == "lines":
                for c in _scale_colours(t["colorscale"]):
                    out.append((f"{name}: contour", c, LINES_AND_MARKS))
            else:
                out.append((f"{name}: contour", (t.get("line") or {}).get("color"),
                            LINES_AND_MARKS))
        elif t["type"] in ("bar", "histogram"):
            # a translucent bar's fill is seen over white; an edge, where drawn, is its outline
            m = t.get("marker") or {}
            opacity = np.asarray(m.get("opacity", 1.0), dtype=float).ravel()
            edge = m.get("line") or {}
            fills = np.broadcast_to(np.asarray(m.get("color"), dtype=object), opacity.shape) \
                if m.get("color") is not None else [None] * len(opacity)
            edges = np.broadcast_to(np.asarray(edge.get("color"), dtype=object), opacity.shape)
            widths = np.broadcast_to(np.asarray(edge.get("width", 0), dtype=float),
                                     opacity.shape)
            for fill, op, ec, w in zip(fills, opacity, edges, widths, strict=True):
                if ec is not None and w > 0:
                    out.append((f"{name}: bar edge", str(ec), LINES_AND_MARKS))
                elif fill is None:
                    out.append((f"{name}: bar", None, LINES_AND_MARKS))
                else:
                    (r, g, b), _ = parse(str(fill))
                    out.append((f"{name}: bar", f"rgba({r},{g},{b},{op})", LINES_AND_MARKS))
    for k, s in enumerate(fig.get("layout", {}).get("shapes", ())):
        c = (s.get("line") or {}).get("color")
        if c and (s.get("line") or {}).get("width", 1) > 0:
            out.append((f"shape {k}", c, LINES_AND_MARKS))
    return out


def failures(fig: dict) -> list[str]:
    """Every mark under its ratio on something it may sit on, with both colours and the
    ratio; every mark without a colour of its own."""
    bgs = backgrounds(fig)
    bad = []
    for what, colour, need in marks(fig):
        if colour is None:
            bad.append(f"{what}: no colour set (Plotly's colour way would pick one)")
            continue
        seen = _hex(over(colour))
        for where, bg in bgs.items():
            r = ratio(seen, bg)
            if r < need:
                bad.append(f"{what} {colour} on {where} {bg}: {r:.2f}:1 < {need}:1")
    return bad


def style(t: dict) -> tuple | None:
    """How a series looks apart from its colour (None: not a series of its own: the shading,
    labels, a trace outside the legend)."""
    role = (t.get("meta") or {}).get("role")
    if t.get("showlegend") is False or role in SHADING_ROLES or t["type"] in (
            "heatmap", "surface", "histogram", "bar"):
        return None
    mode = t.get("mode", "lines" if t["type"] == "contour" else "")
    if mode == "text":
        return None
    line, m = t.get("line") or {}, t.get("marker") or {}
    drawn_line = ("lines" in mode or t["type"] == "contour") and line.get("width", 2) > 0
    symbols = tuple(_colours(m.get("symbol", "circle"))) if "markers" in mode else None
    return (t["type"] == "contour",
            (line.get("dash") or "solid", round(2 * line.get("width", 2)) / 2) if drawn_line
            else None,
            (symbols, round(2 * (m.get("line") or {}).get("width", 0)) / 2,
             "white fill" if str(m.get("color", "")).upper() == P.WHITE else "")
            if symbols else None)


def same_looking(fig: dict) -> list[tuple[str, str]]:
    """Pairs of series that look the same but for their colours (or not at all different)."""
    seen: dict[tuple, str] = {}
    out = []
    for t in fig["data"]:
        key = style(t)
        if key is None:
            continue
        name = t.get("name") or (t.get("meta") or {}).get("role")
        if key in seen:
            out.append((seen[key], name))
        else:
            seen[key] = name
    return out


# ------------------------------------------------------------------------------ figures


def _fit(name: str, **settings):
    d = datasets.load(name)
    s = Settings.from_dataset(d.settings).replace(**settings)
    got = fitting.fit_points(d.X, d.y, Settings.parse(s))
    assert got.ok, got.error
    return got.model


def _playground():
    model = _fit("d2")
    lines = [SF.Overlay(f"overlay {k}", w=(1.0, w2), b=b)
             for k, (w2, b) in enumerate(((1.0, -6.0), (-1.0, 0.0), (0.5, -4.0), (2.0, -9.0),
                                          (-0.5, 1.0)))]
    return SF.decision_figure_dict(model, highlight=(0, 3), overlays=lines, resolution=60)


def _nonlinear():
    return SF.decision_figure_dict(_fit("nonlinear"), highlight=(1,), resolution=60)


@functools.cache
def _d2_run():
    d = datasets.d2()
    return record.build_run(d.X, d.y, Settings.from_dataset(d.settings), "smo")


def _step_decision():
    run, k = _d2_run(), 3
    st = snapshot.state_at(run, k)
    return step_decision_figure(st, snapshot.prev_model(run, k), pair=[st.record["i"],
                                                                     st.record["j"]],
                                    resolution=50)


def _step_bars():
    run, k = _d2_run(), 3
    st = snapshot.state_at(run, k)
    return alpha_bars_figure(st.alpha, run.y, [st.record["i"], st.record["j"]],
                                 alpha_before=st.alpha_before, C=run.C_box, step=k)


def _step_curves():
    t = np.arange(60)
    return curves_figure(np.log1p(t), 5 - np.log1p(t), np.exp(-t / 9), 20, tol=1e-3,
                             extra=np.exp(-t / 5), extra_name="projected gradient")


@functools.cache
def _feature_view():
    d = datasets.d1()
    return KC.feature_view(d.X, d.y, 1.0, 10.0)


@functools.cache
def _comparison():
    d = datasets.d2()
    s = Settings.from_dataset(d.settings)
    return d.X, d.y, cmp.compare(d.X, d.y, s)


def _compare(which):
    X, y, comp = _comparison()
    if which == "boundaries":
        return CMF.boundaries_figure(comp, X, y, resolution=40)
    return CMF.convergence_figure(comp) if which == "convergence" else CMF.kkt_figure(comp)


def _regression(which):
    x, t = RC.generated("sine", 40, 0.3, 1)
    a = RC.run(x, t, {"C": 2.0, "epsilon": 0.15, "sigma": 0.7}, "sine")
    return RF.fit_figure(a) if which == "fit" else RF.progress_figure(a.model)


def _more_classes(strategy, k):
    if k == 3:
        X, labels, names = MC.iris(("petal_length", "petal_width"))
    else:
        X, labels, names = MC.blobs(k, 12 * k, 0.6, 1)
    s = {"strategy": strategy, "kernel": "gaussian", "sigma": 1.0, "C": 1.0}
    a = MC.run(X, labels, s)
    return MF.regions_figure(a, X, labels, names, boundaries=range(min(len(a.machines), 6)))


def _losses():
    d = datasets.d2()
    model = _fit("d2")
    y = np.where(np.asarray(d.y) > 0, 1, -1)
    return LF.loss_figure(y * model.decision_function(d.X), y)


def _perceptron():
    d = datasets.d1()
    return LF.perceptron_figure(d.X, d.y, _fit("d1"), before=((1.0, 0.5), -3.0),
                                after=((1.0, 1.0), -4.0), point=2)


def _generalisation():
    d = datasets.moons(n=60, noise=0.25, seed=2)
    r = GC.split_run(d.X, d.y, "gaussian", 1.0, 1.0, 0.3, 1).result
    return GF.split_figure(r, d.X, d.y)


def _classroom():
    d = datasets.d2()
    task = Task(kind="sv", form="points", prompt="", slide="", X=tuple(map(tuple, d.X)),
                y=tuple(int(v) for v in d.y), settings=Settings.from_dataset(d.settings),
                data={"draw_fit": True})
    counts = [k % 3 for k in range(len(d.X))]
    extra = [{"type": "scatter", "mode": "markers", "name": "placed: right", "x": [2.0],
              "y": [2.0], "marker": {"symbol": "star", "size": 15, "color": SF.POS_COLOR,
                                     "line": {"color": P.BLACK, "width": 1}}}]
    # a student's screen, and the teacher's overlay of the class's answers
    return [CF.task_figure(task, marked=(0, 2), placed=((3.0, 2.0), -1)),
            CF.task_figure(task, counts=counts, extra=extra)]


def _kernel_perceptron():
    d = datasets.moons(n=40, noise=0.1, seed=0)
    s = {**DEFAULTS, "kernel": "gaussian", "sigma": 1.0}
    run = KPC.run_perceptron(d.X, d.y, s, 50, "free")
    k = run.n_updates // 2
    svm = fitting.fit_points(d.X, d.y, Settings.parse(s)).model
    return KPF.perceptron_figure(d.X, d.y, svm, KPC.StepModel(run, k), k, run.record(k).i,
                                 run.alpha_after(k), KPC.plot_ranges(d.X))


def _knn(k):
    X, labels, _ = MC.blobs(4, 40, 0.8, 1)
    return KPF.knn_figure(KPC.knn_answer(X, labels, k, None, X[0] + 0.1, steps=40), X, labels)


@functools.cache
def _kmeans_answer():
    d = datasets.rings(n=60, noise=0.05, seed=0)
    return d, KMC.run(d.X, d.y, np.array([[0.1, 0.2], [1.1, 0.0]]), KMC.DEFAULTS)


def _kmeans(which):
    d, a = _kmeans_answer()
    if which == "stepper":
        return KMF.kmeans_figure(d.X, d.y, a, a.phase(1), np.array([[0.1, 0.2], [1.1, 0.0]]),
                                 "kernel k-means")
    if which == "plain":
        return KMF.plain_figure(d.X, d.y, a, "plain k-means")
    if which == "pca":
        return KMF.pca_figure(KMC.two(a.pca.projections), d.y, a.kmeans.labels, a.new_kpca,
                              a.new_labels, "kernel PCA")
    return KMF.eigen_figure(a.pca.eigenvalues, a.pca.explained, "eigenvalues")


FIGURES = {
    "Playground (D2, five overlays)": _playground,
    "Playground (quadratic kernel)": _nonlinear,
    "Step-through: decision": _step_decision,
    "Step-through: one coordinate (SGA)": lambda: coordinate_figure(
        step_view(record.build_run(datasets.d2().X, datasets.d2().y,
                               Settings.from_dataset(datasets.d2().settings), "sga"),
                  3, coordinate=True).coord),
    "Step-through: α bars": _step_bars,
    "Step-through: curves": _step_curves,
    "Kernels: lifted (3-D)": lambda: KF.lift_figure(_feature_view()),
    "Kernels: preimage": lambda: KF.preimage_figure(_feature_view()),
    "Compare: boundaries": lambda: _compare("boundaries"),
    "Compare: convergence": lambda: _compare("convergence"),
    "Compare: KKT": lambda: _compare("kkt"),
    "Regression: fit": lambda: _regression("fit"),
    "Regression: convergence": lambda: _regression("progress"),
    "More classes: iris, one-vs-one": lambda: _more_classes("ovo", 3),
    "More classes: 8 blobs, one-vs-rest": lambda: _more_classes("ovr", 8),
    "Losses": _losses,
    "Perceptron": _perceptron,
    "Generalisation: split": _generalisation,
    "Live class: a screen": _classroom,
    "Kernel perceptron": _kernel_perceptron,
    "k-NN: 1-NN with Voronoi cells": lambda: _knn(1),
    "k-NN: 5-NN": lambda: _knn(5),
    "Kernel k-means: a step": lambda: _kmeans("stepper"),
    "Kernel k-means: plain k-means": lambda: _kmeans("plain"),
    "Kernel PCA: projections": lambda: _kmeans("pca"),
    "Kernel PCA: eigenvalues": lambda: _kmeans("eigen"),
}
# (the (αᵢ, αⱼ) box is drawn in the browser: tests/test_step_box.py holds its contrast)
FIGURES.update({f"Worked example {e.key}": (lambda e=e: [p.figure for p in WF.figures(
    e.key, WE.compute(e.key)) if p.figure is not None]) for e in WE.EXAMPLES})


@functools.cache
def figures(name: str) -> list[dict]:
    """The figures as the browser gets them (numpy arrays as they are: only colours and
    styles are read); a worked example has one or two."""
    got = FIGURES[name]()
    return got if isinstance(got, list) else [got]


def figure(name: str) -> dict:
    (fig,) = figures(name)
    return fig


# -------------------------------------------------------------------------------- tests


def test_the_contrast_ratio_is_wcags():
    assert ratio(P.BLACK, P.WHITE) == pytest.approx(21.0)
    assert ratio("#777777", P.WHITE) == pytest.approx(4.48, abs=0.01)
    assert ratio(P.WHITE, P.WHITE) == 1.0
    assert luminance((255, 255, 255)) == pytest.approx(1.0)
    # a fill at its opacity over white: rgba(0, 114, 178, 0.12) is #E0EEF6
    assert _hex(over("rgba(0, 114, 178, 0.12)")) == "#E0EEF6"


def test_the_checker_finds_what_the_audit_found():
    """The old colours, measured by the audit (issue 28), fail here with its numbers: the
    orange and sky-blue lines on white, and markers on the old shading of their own side."""
    old = {"data": [
        {"type": "heatmap", "z": [[0]], "colorscale": [[0, "#F3B58C"], [0.5, "#FFFFFF"],
                                                       [1, "#8FBEE3"]],
         "meta": {"role": "regions"}},
        {"type": "scatter", "mode": "lines", "name": "perceptron",
         "line": {"color": "#E69F00", "width": 4}},
        {"type": "scatter", "mode": "lines", "name": "overlay",
         "line": {"color": "#56B4E9", "width": 3}},
        {"type": "scatter", "mode": "markers", "name": "class +1",
         "marker": {"color": "#0072B2", "line": {"color": "#FFFFFF", "width": 1.5}}},
        {"type": "scatter", "mode": "markers", "name": "class −1",
         "marker": {"color": "#D55E00", "symbol": "square"}},
        {"type": "scatter", "mode": "lines", "name": "unset"}],
        "layout": {}}
    bad = "\n".join(failures(old))
    assert "perceptron: line #E69F00 on plot background #FFFFFF: 2.25:1" in bad
    assert "overlay: line #56B4E9 on plot background #FFFFFF: 2.31:1" in bad
    assert "class +1: marker #0072B2 on heatmap #8FBEE3 #8FBEE3: 2.63:1" in bad
    assert "class −1: marker #D55E00 on heatmap #F3B58C #F3B58C: 2.17:1" in bad
    assert "unset: line: no colour set" in bad
    # the lines fail on white and on both shades; the class markers on both shades only
    assert [line.split(":")[0] for line in bad.splitlines()] == (
        ["perceptron"] * 3 + ["overlay"] * 3 + ["class +1"] * 2 + ["class −1"] * 2 + ["unset"])


def test_the_checker_sees_translucent_bars_as_drawn():
    """The α bars as they were: class colours at opacity 0.45 and no edge (2.0:1 and 1.9:1
    on white); with an edge in the full colour they pass."""
    bars = {"type": "bar", "name": "α", "marker": {"color": ["#0072B2", "#C35600"],
                                                   "opacity": [0.45, 0.45]}}
    bad = failures({"data": [bars], "layout": {}})
    assert [b.split(": ")[-1] for b in bad] == ["1.96:1 < 3.0:1", "1.89:1 < 3.0:1"]
    bars["marker"]["line"] = {"color": ["#0072B2", "#C35600"], "width": 1.5}
    assert failures({"data": [bars], "layout": {}}) == []


def test_the_checker_finds_series_told_apart_by_colour_alone():
    """The five losses as they were (all solid, width 3) and the Regression page's convergence
    lines (both solid): every pair after the first of each look is reported."""
    old = {"data": [{"type": "scatter", "mode": "lines", "name": n,
                     "line": {"color": c, "width": 3}}
                    for n, c in (("hinge", "#0072B2"), ("squared hinge", "#009E73"),
                                 ("logistic", "#CC79A7"))]
           + [{"type": "scatter", "mode": "markers", "name": "class +1",
               "marker": {"color": "#0072B2", "size": 4}},
              {"type": "scatter", "mode": "markers", "name": "φ(boundary curve)",
               "marker": {"color": "#E69F00", "size": 2}}]}
    assert same_looking(old) == [("hinge", "squared hinge"), ("hinge", "logistic"),
                                 ("class +1", "φ(boundary curve)")]


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_line_and_mark_has_3_to_1_on_what_it_is_drawn_on(name):
    for fig in figures(name):
        assert marks(fig), f"{name}: nothing read"  # the reader found the figure's marks
        assert failures(fig) == []


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_no_two_series_differ_by_colour_alone(name):
    """Every series in a legend differs from the others by its dash, width, marker symbol or
    fill, not by its colour only (issue 28: colour-blind students, a grey projector)."""
    for fig in figures(name):
        assert same_looking(fig) == []


def test_the_shading_is_the_class_colours_over_white():
    scale = SF.region_scale()["colorscale"]
    assert scale[0][1] == P.tint(SF.NEG_COLOR) and scale[-1][1] == P.tint(SF.POS_COLOR)
    for c in (SF.POS_COLOR, SF.NEG_COLOR, SF.BOUND_SV_COLOR, SF.HIGHLIGHT_COLOR,
              *SF.OVERLAY_COLORS):
        for shade in (P.REGION_POS, P.REGION_NEG, P.WHITE):
            assert ratio(c, shade) >= LINES_AND_MARKS, (c, shade)


def test_the_kernels_3d_classes_and_curve_have_shapes_of_their_own():
    fig = figure("Kernels: lifted (3-D)")
    sym = {t["meta"]["role"] + str(t["meta"].get("label", "")): t["marker"]["symbol"]
           for t in fig["data"] if t["type"] == "scatter3d"}
    assert sym == {"points1": SF.POS_SYMBOL, "points-1": SF.NEG_SYMBOL,
                   "curve": KF.CURVE_SYMBOL}
    assert len(set(sym.values())) == 3
    (pre,) = [t for t in figure("Kernels: preimage")["data"]
              if (t.get("meta") or {}).get("role") == "preimage"]
    assert pre["marker"]["symbol"] not in (SF.POS_SYMBOL, SF.NEG_SYMBOL)


def test_the_five_losses_are_five_dashes():
    curves = [t for t in figure("Losses")["data"] if t["meta"]["role"] == "curve"]
    assert len(curves) == 5 and len({t["line"]["dash"] for t in curves}) == 5


# ------------------------------------------------------------------------- the browser


def test_palette_js_is_generated_from_the_python_palette():
    got = (ROOT / "ui" / "browser" / "palette.js").read_text(encoding="utf-8")
    assert got == P.js_module(), "python -m ui.shared.palette > ui/browser/palette.js"


#: the step player's names (ui/browser/step_style.js) and the figures' constants they mirror
STEP_COLOURS = {
    "pos": SF.POS_COLOR, "neg": SF.NEG_COLOR, "free": SF.FREE_SV_COLOR,
    "bound": SF.BOUND_SV_COLOR, "hl": SF.HIGHLIGHT_COLOR, "viol": VIOLATOR_COLOR,
    "old": OLD_COLOR, "unc": UNCLIPPED_COLOR, "seg": P.GREEN,
    "before": BEFORE_COLOR, "dual": DUAL_COLOR, "primal": PRIMAL_COLOR,
    "kkt": KKT_COLOR, "pairText": P.PAIR_TEXT, "pairEdge": P.PAIR_EDGE,
    "uncText": P.PURPLE_TEXT,
}


def test_the_step_players_colours_are_the_figures():
    text = (ROOT / "ui" / "browser" / "step_style.js").read_text(encoding="utf-8")
    got = dict(re.findall(r"^\s+(\w+): PALETTE\.(\w+),$", text, re.M))
    assert set(got) == set(STEP_COLOURS)
    assert {k: getattr(P, v) for k, v in got.items()} == STEP_COLOURS


def test_no_plot_colour_outside_the_palette_in_the_browsers_modules():
    """The browser's drawings name the palette's colours (PALETTE.X); a hex colour written
    into a module is black, white or a dark grey, never a hue of its own."""
    allowed = {"#000000", "#FFFFFF", "#111111", "#222222", "#262730", "#333333", "#444444",
               "#555555", "#777777", "#EEEEEE"}
    found = {}
    for path in sorted((ROOT / "ui" / "browser").glob("*.js")):
        if path.name == "palette.js":
            continue
        for c in re.findall(r"#[0-9A-Fa-f]{6}\b", path.read_text(encoding="utf-8")):
            if c.upper() not in allowed:
                found.setdefault(path.name, set()).add(c)
    assert found == {}
