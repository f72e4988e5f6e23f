"""Generalisation: training accuracy beside test accuracy on a seeded split, and k-fold
cross-validation over a grid of C × σ (or C × degree) with the best cell's model.

Thin page: widgets → cached calls into ``ui.generalisation.compute`` (run in a fit worker
within the time budget: ``ui.serving.budget.run``; the grid also stops itself, see
``svm_engine.model_selection``) → the figures of ``ui.generalisation.figures`` and the words
of ``ui.generalisation.text``.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.generalisation import compute as GC
from ui.generalisation import figures as GF
from ui.generalisation import text as GT
from ui.generalisation.page_state import Generalisation
from ui.serving import budget
from ui.shared import controls as ctl
from ui.shared import reveal
from ui.shared.chart import show_chart
from ui.shared.labels import DATASET_LABELS
from ui.shared.markdown import markdown_safe
from ui.shared.nav import run_through_app
from ui.shared.numbers import fmt_pct, fmt_setting

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
page = Generalisation.of(ss)
P, K = Generalisation.PREFIX, Generalisation.widget_key  # the widget keys of this page
SOURCE_LABELS = {"playground": "The Playground's points", **DATASET_LABELS}
KEPT = ("source", "gen.n", "gen.noise", "gen.seed", "family", "C", "sigma", "degree", "test",
        "seed", "Cs", "sigmas", "degrees", "k")
FAMILY_LABELS = {"gaussian": "Gaussian (σ)", "polynomial": "polynomial (xᵀz + 1)^q"}

page.widgets.restore(ss)
page.widgets.keep(ss, KEPT)


def chart(fig: dict, key: str, *settings: str, name: str | None = None) -> None:
    """A chart whose saved image is titled ``name`` (None: the figure's title) and names the
    points and ``settings``."""
    show_chart(fig, key=K("fig." + key), title=name,
               settings=(f"{title}, n = {len(X)}", *settings))


def unpack(xb: bytes, yb: bytes):
    return np.frombuffer(xb, dtype=np.float64).reshape(-1, 2), np.frombuffer(yb, np.int64)


@st.cache_data(max_entries=16, show_spinner="Fitting on the training part …")
def split_run(xb, yb, family, value, C, test, seed) -> GC.SplitOutcome:
    X, y = unpack(xb, yb)
    return budget.run("split", GC.split_run, (X, y, family, value, C, test, seed),
                      settings=None, n=len(X))


@st.cache_data(max_entries=16, show_spinner="Cross-validating every cell of the grid …")
def cv_run(xb, yb, family, Cs, values, k, seed) -> GC.CVOutcome:
    X, y = unpack(xb, yb)
    # the grid's own stop scales with the budget's slack, as the worker's kill does
    out = budget.run("cv", GC.cv_run, (X, y, family, Cs, values, k, seed,
                                       GC.CV_BUDGET_S * budget.slack()),
                     settings=None, n=len(X))
    return budget.unless_cut(out, out.grid.stopped)   # stopped by the clock: never cached


def guarded(call, *args):
    """A cached call's result, or None after an st.error that says what to change."""
    try:
        return budget.result_of(call, *args)
    except budget.Stopped as exc:   # depends on the load: never cached
        st.error(f"{exc} Try fewer points, fewer grid values, fewer folds or a smaller C.")
    except ValueError as exc:
        st.error(f"This could not be computed: {exc}")
    return None


# ----------------------------------------------------------------------------- sidebar

ss.setdefault(K("source"), "moons")
X, y, title = ctl.points_sidebar(ss, P, n=200, noise=0.3, labels=SOURCE_LABELS, on_change=None)
sb = st.sidebar
sb.header("Kernel")
ss.setdefault(K("family"), "gaussian")
family = sb.radio("Kernel", tuple(FAMILY_LABELS), key=K("family"),
                  format_func=FAMILY_LABELS.get, label_visibility="collapsed")
sb.header("Split and folds")
ss.setdefault(K("seed"), 0)
seed = int(sb.number_input("seed (split and folds)", 0, 1_000_000, step=1, key=K("seed")))

st.title("Generalisation")
st.caption("A model is trained to fit its points; what matters is how it does on points it has "
           "never seen. Hold some out (a test set), or let every point be held out once "
           "(k-fold cross-validation), and compare.")
st.markdown(f"**{markdown_safe(title)}**: n = {len(X)} points")
y = np.asarray(y, dtype=np.int64)
reveal.hide_page_if_hidden(ss, X, y)  # a teacher link's hidden points: not one page away
ctl.stop_unless_two_classes(y)
xb, yb = np.ascontiguousarray(X, dtype=np.float64).tobytes(), y.tobytes()

# ----------------------------------------------------------------- 1. train and test

st.header("1. Training and test accuracy")
cols = st.columns(3)
ss.setdefault(K("C"), 1000.0)
C = cols[0].select_slider("C", GC.C_OPTIONS, key=K("C"), format_func=fmt_setting)
if family == "gaussian":
    ss.setdefault(K("sigma"), 0.05)
    value = cols[1].select_slider("σ", GC.SIGMA_OPTIONS, key=K("sigma"),
                                  format_func=fmt_setting)
else:
    ss.setdefault(K("degree"), 6)
    value = cols[1].select_slider("degree q", GC.DEGREE_OPTIONS, key=K("degree"))
ss.setdefault(K("test"), 0.3)
test = cols[2].slider("test share", 0.1, 0.5, step=0.05, key=K("test"))
split = guarded(split_run, xb, yb, family, value, C, test, seed)
if split is not None:
    r = split.result
    m1, m2, m3 = st.columns(3)
    m1.metric("training accuracy", fmt_pct(r.train_accuracy))
    m2.metric("test accuracy", fmt_pct(r.test_accuracy))
    m3.metric("support vectors", f"{r.model.n_support} of {len(r.train)}")
    if split.warning:
        st.warning(split.warning)
    st.markdown(GT.split_sentence(r))
    chart(GF.split_figure(r, X, y), "split", f"kernel {FAMILY_LABELS[family]}",
          GT.param_text("sigma" if family == "gaussian" else "degree", value),
          f"C = {fmt_setting(C)}", f"test share {fmt_setting(test)}", f"seed {seed}",
          name="Trained on the training points, tested on the held-out ones")
    st.caption("Filled markers: the training points (the model saw these); open markers: the "
               "test points (it did not); × marks a test point on the wrong side. "
               f"Split: stratified, {len(r.test)} of {len(X)} points held out, seed {seed}.")

# -------------------------------------------------------------- 2. cross-validation

st.header("2. k-fold cross-validation over C × " + ("σ" if family == "gaussian" else "degree"))
st.markdown("Every point is held out once: the points are dealt into k folds (each class "
            "spread evenly); each cell of the grid is fitted k times, on k − 1 folds, and "
            "scored on the fold it did not see.")
cols = st.columns([3, 3, 1])
ss.setdefault(K("Cs"), list(GC.DEFAULT_CS))
Cs = cols[0].multiselect("C values", GC.C_OPTIONS, key=K("Cs"), format_func=fmt_setting)
if family == "gaussian":
    ss.setdefault(K("sigmas"), list(GC.DEFAULT_SIGMAS))
    values = cols[1].multiselect("σ values", GC.SIGMA_OPTIONS, key=K("sigmas"),
                                 format_func=fmt_setting)
else:
    ss.setdefault(K("degrees"), list(GC.DEFAULT_DEGREES))
    values = cols[1].multiselect("degrees", GC.DEGREE_OPTIONS, key=K("degrees"))
ss.setdefault(K("k"), GC.DEFAULT_K)
k = cols[2].number_input("folds k", 2, 10, step=1, key=K("k"))
if not Cs or not values:
    st.error("Choose at least one C value and one " + ("σ." if family == "gaussian" else
                                                       "degree."))
    st.stop()
cv = guarded(cv_run, xb, yb, family, tuple(sorted(Cs)), tuple(sorted(values)), int(k), seed)
if cv is not None:
    grid = cv.grid
    (st.warning if grid.stopped else st.caption)(GT.cv_sentence(grid))
    left, right = st.columns(2)
    with left:
        chart(GF.cv_heatmap(grid, "held-out"), "cv", f"kernel {FAMILY_LABELS[family]}",
              f"{int(k)} folds", f"seed {seed}")
    with right:
        chart(GF.cv_heatmap(grid, "training"), "train", f"kernel {FAMILY_LABELS[family]}",
              f"{int(k)} folds", f"seed {seed}")
    st.markdown(GT.overfit_sentence(grid))
    if cv.model is not None:
        p = grid.best_params
        if cv.warning:
            st.warning(cv.warning)
        best = f"C = {fmt_setting(p['C'])}, {GT.param_text(grid.param, p[grid.param])}"
        chart(GF.chosen_figure(cv.model, f"The chosen model, on all {len(X)} points: {best}"),
              "chosen", f"kernel {FAMILY_LABELS[family]}", best,
              f"chosen by {int(k)}-fold cross-validation, seed {seed}")
