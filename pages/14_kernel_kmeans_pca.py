"""Kernel k-means & PCA: two algorithms written with dot products only, run through a kernel
(Odobez's kernel methods lecture) — kernel k-means stepped assignment by assignment beside
plain k-means, kernel PCA beside linear PCA, and kernels built by the rules with their Gram
matrix's eigenvalue check.

Thin page: sidebar widgets → one cached run in a fit worker within the time budget
(``ui.kmeans_pca.compute.run``) → the figures of ``ui.kmeans_pca.figures``. A click or a tap
on the k-means plot adds a new point (``ui.shared.click_plot``): it is assigned to its
nearest implicit centroid and projected by both PCAs. Stepping reads the recorded run.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from svm_engine import datasets
from ui.kernels.text import mercer_verdict
from ui.kmeans_pca import compute as C
from ui.kmeans_pca import figures as F
from ui.kmeans_pca.page_state import KernelKmeansPca
from ui.serving import budget
from ui.shared import click_plot, state
from ui.shared import controls as ctl
from ui.shared.chart import show_chart
from ui.shared.cite import cite
from ui.shared.figures import PLOTLY_CONFIG
from ui.shared.labels import COEF0_LABELS, DATASET_LABELS, sigma_gamma
from ui.shared.markdown import markdown_safe
from ui.shared.nav import run_through_app
from ui.shared.numbers import fmt_num, fmt_setting
from ui.shared.stepper import step_buttons

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
page = KernelKmeansPca.of(ss)
P, K = KernelKmeansPca.PREFIX, KernelKmeansPca.widget_key  # the widget keys of this page
GENERATORS = ("rings", *datasets.GENERATORS)
SOURCES = {"rings": "Rings: two concentric circles (generated)",
           "playground": "The Playground's points",
           **{s: DATASET_LABELS.get(s, s) for s in (*datasets.BOOK, *datasets.GENERATORS)}}
SLIDERS = ctl.Sliders(n=(10, C.MAX_POINTS, 10), noise=(0.0, 0.5, 0.01))
DEFAULTS = {**C.DEFAULTS, "source": "rings"}
A_GRID = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0)
CHART_CONFIG = {**PLOTLY_CONFIG, "scrollZoom": False}

st.title("Kernel k-means & PCA")
st.caption(
    "Any algorithm written with dot products runs through a kernel: replace xᵀz by "
    f"K(x, z) = φ(x)ᵀφ(z) and it works in the feature space without ever forming φ "
    f"({cite('kernels')}: kernelising k-means and PCA). Click or tap the k-means plot to add "
    "new points: each is put in its nearest cluster and projected by both PCAs.")


def clear_new() -> None:
    page.new, page.run_key = [], None


def data_sidebar() -> tuple[np.ndarray, np.ndarray, str]:
    src = ctl.data_source(ss, P, SOURCES, generators=GENERATORS, sliders=SLIDERS,
                          defaults={"n": 100, "noise": 0.05, "seed": 0},
                          on_change=clear_new, on_points=clear_new)
    if src.name == "playground":
        return state.current_dataset(ss)
    p = {k: src.params[k] for k in ("n", "noise", "seed")} if src.name in GENERATORS else {}
    ds = datasets.rings(**p) if src.name == "rings" else datasets.load(src.name, **p)
    return ds.X, ds.y, ds.title


def kernel_sidebar() -> dict:
    sb = st.sidebar
    sb.header("Kernel")
    s = {k: ss.get(K(k), v) for k, v in C.DEFAULTS.items()}
    s["kernel"] = sb.radio("Kernel", C.KERNELS, key=K("kernel"), format_func=C.KERNEL_NAMES.get)
    used = {s["kernel"]}
    if s["kernel"] == "rules":
        s["rule"] = sb.selectbox("Rule", tuple(C.RULE_NAMES), key=K("rule"),
                                 format_func=C.RULE_NAMES.get,
                                 help="Sums, products, positive multiples and the exponential "
                                      "of kernels are kernels; a difference need not be.")
        s["k1"] = sb.radio("K₁", C.BASES, key=K("k1"), horizontal=True,
                           format_func=C.KERNEL_NAMES.get)
        used = {s["k1"]}
        if s["rule"] in ("sum", "product", "difference"):
            s["k2"] = sb.radio("K₂", C.BASES, key=K("k2"), horizontal=True,
                               format_func=C.KERNEL_NAMES.get)
            used.add(s["k2"])
        if s["rule"] == "scale":
            s["a"] = sb.select_slider("a (> 0)", A_GRID, key=K("a"), format_func=fmt_setting)
    if "polynomial" in used:
        s["degree"] = sb.slider("degree q", 1, 5, key=K("degree"))
        s["coef0"] = sb.radio("K(x, z) = (c + xᵀz)^q", (0.0, 1.0), key=K("coef0"),
                              horizontal=True, format_func=COEF0_LABELS.get)
    if "gaussian" in used:
        s["sigma"] = sb.select_slider("σ (width)", ctl.SIGMA_GRID, key=K("sigma"),
                                      format_func=fmt_setting, help=ctl.SIGMA_HELP)
        sb.caption(sigma_gamma(s["sigma"]))
    sb.header("k-means")
    s["k"] = sb.slider("k clusters", 2, 6, key=K("k"))
    s["seed"] = sb.number_input("seed (the starts)", 0, 10_000, step=1, key=K("seed"),
                                help=f"{C.N_INIT} seeded k-means++ starts (seed, seed + 1, …); "
                                     "the run with the smallest W is shown")
    return s


def on_plot_click(xr, yr) -> None:
    xy = click_plot.parse_click(ss.get(K("plot")), xr, yr)
    if xy is not None and len(page.new) < C.MAX_NEW:
        page.new.append(xy)


@st.cache_data(max_entries=32, show_spinner="Clustering and projecting …")
def cached_run(xb: bytes, yb: bytes, zb: bytes, skey: tuple) -> C.Answer:
    """``compute.run`` in a fit worker within the time budget; a run whose k-means starts
    were cut by the clock is raised (``budget.unless_cut``), never cached."""
    X = np.frombuffer(xb).reshape(-1, 2)
    Z = np.frombuffer(zb).reshape(-1, 2)
    a = budget.run("kernel k-means & PCA", C.run, (X, np.frombuffer(yb, dtype=np.int64), Z,
                                                   dict(skey)), settings=None, n=len(X))
    return budget.unless_cut(a, a.time_cut)


def chart(fig: dict, key: str, name: str, *settings: str) -> None:
    show_chart(fig, key=K(key), title=name, settings=(f"{title}, n = {len(X)}", *settings))


page.widgets.restore(ss)
ctl.default_widgets(ss, P, DEFAULTS)
page.widgets.keep(ss, (*DEFAULTS, "gen.n", "gen.noise", "gen.seed"))
try:
    X, y, title = data_sidebar()
except ValueError as exc:  # a generator's parameters
    st.error(markdown_safe(f"Could not make the points: {exc}"))
    st.stop()
X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=np.int64)
s = kernel_sidebar()
Z = np.array(page.new, dtype=float).reshape(-1, 2)

st.markdown(f"**{markdown_safe(title)}** — n = {len(X)} points"
            + (f", {len(Z)} new point(s) (yours)" if len(Z) else ""))
c1, c2 = st.columns(2)
c1.button("Undo last new point", key=K("undo"), disabled=not len(Z),
          on_click=lambda: page.new.pop(), width="stretch")
c2.button("Remove my new points", key=K("clear"), disabled=not len(Z), on_click=clear_new,
          width="stretch")

why = C.too_many(len(X), len(Z)) or (None if len(X) >= s["k"] else
                                     f"k = {s['k']} clusters need at least {s['k']} points; "
                                     f"there are {len(X)}.")
answer = None
xb, yb = np.ascontiguousarray(X).tobytes(), np.ascontiguousarray(y).tobytes()
skey = tuple(sorted(s.items()))
if why is None:
    try:
        answer = budget.result_of(cached_run, xb, yb, np.ascontiguousarray(Z).tobytes(), skey)
    except budget.BudgetError as exc:      # stopped at the budget: never cached
        why = f"{exc} Try fewer points."
    except ValueError as exc:
        why = f"This does not work: {exc}"

st.header("Kernel k-means, step by step")
if answer is None:        # no run: the points alone, still clickable; the points are kept
    st.error(markdown_safe(why))
    fig = F.points_figure(X, y, Z, "The points (no clustering)")
    xr, yr = fig["layout"]["xaxis"]["range"], fig["layout"]["yaxis"]["range"]
    click_plot.click_plot(fig, key=K("plot"), config=CHART_CONFIG,
                          on_click=partial(on_plot_click, xr, yr), settings=(title,))
    st.stop()

total = answer.steps
if page.run_key != (xb, yb, skey):      # a new run: show where it ended
    page.run_key = (xb, yb, skey)
    ss[K("step")] = total
ss[K("step")] = min(int(ss.get(K("step"), total)), total)
p = ss[K("step")]
step_buttons(ss, P, p, total, label="step (assignment, then distances)",
             helps={"first": "the start", "prev": "the previous half-step",
                    "next": "the next half-step", "last": "the last assignment"})
ph = answer.phase(p)
st.markdown(C.phase_words(answer, ph))
left, right = st.columns(2)
with left:
    fig = F.kmeans_figure(X, y, answer, ph, Z, "Kernel k-means: " + C.KERNEL_NAMES[s["kernel"]])
    xr, yr = fig["layout"]["xaxis"]["range"], fig["layout"]["yaxis"]["range"]
    click_plot.click_plot(fig, key=K("plot"), config=CHART_CONFIG,
                          on_click=partial(on_plot_click, xr, yr),
                          settings=(title, answer.formula, f"step {p} of {total}"),
                          description=C.phase_words(answer, ph).replace("**", ""))
with right:
    chart(F.plain_figure(X, y, answer, "Plain k-means (linear kernel)"), "fig.plain",
          "Plain k-means", f"k = {s['k']}")
(st.success if answer.kmeans.converged else st.warning)(
    f"Kernel k-means {answer.kmeans.status}; W = {fmt_num(answer.kmeans.inertia)} (best of "
    f"{len(answer.kmeans.starts)} seeded starts). Plain k-means {answer.plain.status}.")
if answer.ari:
    st.caption(f"Agreement with the points' two classes (adjusted Rand index, 1 = the same "
               f"split, ≈ 0 = no better than chance): kernel k-means "
               f"{fmt_num(answer.ari['kernel'], 3)}, plain k-means "
               f"{fmt_num(answer.ari['plain'], 3)}. A cluster has a colour and a shape; a "
               "point of class +1 is filled, of class −1 open; the shading is the nearest "
               "centroid in feature space.")
rows = C.mover_rows(X, ph)
if rows:
    st.dataframe(pd.DataFrame(rows), hide_index=True, key=K("movers"))
if answer.time_cut:
    st.warning("The clock cut the k-means starts short on a busy server: fewer starts ran.")

st.header("Kernel PCA")
st.markdown(
    "Centre the Gram matrix, K̃ = K − 1_N K − K 1_N + 1_N K 1_N, solve K̃aᵢ = λᵢaᵢ and scale "
    "λᵢ‖aᵢ‖² = 1 (unit eigenvectors in feature space). A point's coordinate is "
    "yᵢ(x) = Σₗ aᵢₗ k̃(x, xₗ), with k(x, ·) centred the same way for a new point.")
left, right = st.columns(2)
with left:
    chart(F.pca_figure(C.two(answer.pca.projections), y, answer.kmeans.labels,
                       answer.new_kpca, answer.new_labels, "Kernel PCA: components 1 and 2"),
          "fig.kpca", "Kernel PCA", answer.formula)
with right:
    chart(F.pca_figure(C.two(answer.linear.transform(X)), y, answer.kmeans.labels,
                       answer.new_linear, answer.new_labels, "Linear PCA",
                       names=("u₁ᵀ(x − x̄)", "u₂ᵀ(x − x̄)")), "fig.linear", "Linear PCA")
chart(F.eigen_figure(answer.pca.eigenvalues, answer.pca.explained,
                     "Eigenvalues of the centred Gram matrix K̃"), "fig.eigen",
      "Eigenvalues of K̃", answer.formula)
st.dataframe(pd.DataFrame(C.eigen_rows(answer)), hide_index=True, key=K("eigen"))
st.caption(f"{answer.pca.n_components} components have λ > 0 (to rounding). λᵢ/N are the "
           "covariance's eigenvalues in feature space; with the linear kernel they are linear "
           "PCA's. Colours: the final kernel k-means clusters; stars: your new points.")

st.header("The kernel and its Gram matrix")
st.markdown(markdown_safe(answer.formula))
st.markdown(f"Gram matrix on these {len(X)} points: "
            + markdown_safe(mercer_verdict(answer.check)) + ".")
st.caption("The rules (sum, product, positive multiple, exponential of kernels) always give "
           "a kernel: its Gram matrix has no negative eigenvalue on any points. K₁ − K₂ is "
           "no rule: choose it to see the check fail.")
