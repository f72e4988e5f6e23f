"""Kernels you can see: the quadratic kernel's feature map, the Gram matrix and Mercer's
condition, and what σ and the degree do (seeds 002 and 004; slides 24–29).

Thin page: widgets → cached calls into ``ui.kernels.compute`` (run in a fit worker within the
time budget: ``ui.serving.budget.run``) → the figures of ``ui.kernels.figures`` and the words
of ``ui.kernels.text``. The points are the Playground's (or a dataset chosen in the sidebar).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from svm_engine import feature_maps as fm
from ui.kernels import compute as KC
from ui.kernels import figures as KF
from ui.kernels import text as KT
from ui.kernels import why as KW
from ui.kernels.page_state import Kernels
from ui.serving import budget
from ui.shared import controls as ctl
from ui.shared import reveal, student
from ui.shared.chart import show_chart
from ui.shared.cite import cite
from ui.shared.controls import C_GRID, SIGMA_GRID
from ui.shared.labels import DATASET_LABELS
from ui.shared.markdown import markdown_safe
from ui.shared.nav import run_through_app
from ui.shared.numbers import fmt_num, fmt_setting
from ui.shared.tables import option_values

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
page = Kernels.of(ss)
P, K = Kernels.PREFIX, Kernels.widget_key  # the widget keys of this page
SOURCE_LABELS = {"playground": "The Playground's points", **DATASET_LABELS}
C_VALUES = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0]
KEPT = ("source", "gen.n", "gen.noise", "gen.seed", "C", "c", "fn", "sigma", "degree", "coef0",
        "neg_c", "kappa", "family", "i", "j")
STOP_HINT = " Try fewer points or a smaller C."

page.widgets.restore(ss)
page.widgets.keep(ss, KEPT)


def chart(fig: dict, key: str, *settings: str, name: str | None = None) -> None:
    """A chart whose saved image is titled ``name`` (None: the figure's title) and names the
    points, ``settings`` and C (the sidebar's)."""
    show_chart(fig, key=K("fig." + key), title=name,
               settings=(f"{title}, n = {len(X)}", *settings, f"C = {fmt_setting(C)}"))


def in_worker(fn, *args):
    """``fn(*args)`` in a fit worker, killed at the time budget (``budget.Stopped``)."""
    return budget.run("kernels", fn, args, settings=None, n=len(args[0]))


@st.cache_data(max_entries=16, show_spinner="Fitting (xᵀz + c)² …")
def feature_view(xb: bytes, yb: bytes, c: float, C: float) -> KC.FeatureView:
    return in_worker(KC.feature_view, *unpack(xb, yb), c, C)


@st.cache_data(max_entries=16, show_spinner="Gram matrix, eigenvalues, cvxopt and SMO …")
def gram_study(xb: bytes, yb: bytes, name: str, params: tuple, C: float) -> KC.GramStudy:
    study = in_worker(KC.gram_study, *unpack(xb, yb), name, dict(params), C,
                      KC.STARTS_BUDGET_S)
    return budget.unless_cut(study, study.time_cut)   # starts cut by the clock: not cached


@st.cache_data(max_entries=16, show_spinner="Fitting the same points at each value …")
def multiples(xb: bytes, yb: bytes, family: str, values: tuple, C: float) -> list:
    return in_worker(KC.multiples, *unpack(xb, yb), family, values, C)


def unpack(xb: bytes, yb: bytes):
    return np.frombuffer(xb, dtype=np.float64).reshape(-1, 2), np.frombuffer(yb, np.int64)


def guarded(call, *args):
    """A cached call's result, or None after an st.error that says what to change."""
    try:
        return budget.result_of(call, *args)
    except budget.Stopped as exc:  # depends on the load: never cached
        st.error(str(exc) + STOP_HINT)
    except ValueError as exc:
        st.error(f"This could not be computed: {exc}")
    return None


# ----------------------------------------------------------------------------- sidebar

X, y, title = ctl.points_sidebar(ss, P, n=100, noise=0.1, labels=SOURCE_LABELS, on_change=None)
st.sidebar.header("Model")
ss.setdefault(K("C"), 4.0)
C = st.sidebar.select_slider("C", option_values(sorted({*C_GRID, *C_VALUES}), ss[K("C")]),
                             key=K("C"), format_func=fmt_setting,
                             help="Slide 29 uses C = 4 with (1 + xᵀz)².")

st.title("Kernels you can see")
st.caption("A kernel is a dot product in a feature space, K(x, z) = φ(x)ᵀφ(z) (slide 26). "
           "For the quadratic kernel φ can be written down and drawn; for any function, the "
           "Gram matrix of the points tells whether it can be a kernel at all (Mercer).")
st.markdown(f"**{markdown_safe(title)}**: n = {len(X)} points, C = {fmt_setting(C)}")
y = np.asarray(y, dtype=np.int64)
reveal.hide_page_if_hidden(ss, X, y)  # a teacher link's hidden points: not one page away
ctl.stop_unless_two_classes(y)
if (why := KC.too_many(len(X))) is not None:
    st.error(why)
    st.stop()
xb, yb = np.ascontiguousarray(X, dtype=np.float64).tobytes(), y.tobytes()

# --------------------------------------------------------------------- 1. the feature map

st.header("1. The feature map of the quadratic kernel")
st.latex(r"(x^\top z)^2 = \varphi_0(x)^\top\varphi_0(z),\quad "
         r"\varphi_0(x) = (x_1^2,\ \sqrt2\,x_1x_2,\ x_2^2)")
st.latex(r"(x^\top z + c)^2 = \varphi_c(x)^\top\varphi_c(z),\quad \varphi_c(x) = "
         r"(x_1^2,\ \sqrt2\,x_1x_2,\ x_2^2,\ \sqrt{2c}\,x_1,\ \sqrt{2c}\,x_2,\ c)")
ss.setdefault(K("c"), 0.0)
c = st.radio("c", [0.0, 0.5, 1.0, 2.0], key=K("c"), horizontal=True,
             format_func=lambda v: "c = 0 (homogeneous, 3-D)" if v == 0
             else f"c = {fmt_setting(v)}")
fv = guarded(feature_view, xb, yb, float(c), float(C))
if fv is not None:
    if fv.warning:
        st.warning(fv.warning)
    left, right = st.columns(2)
    with left:
        chart(KF.lift_figure(fv), "lift", f"(xᵀz + c)², c = {fmt_setting(c)}",
              "SMO, hinge loss, free b", name="The feature map φ of the quadratic kernel")
        st.caption(fv.view.note)
    with right:
        chart(KF.preimage_figure(fv), "preimage", f"(xᵀz + c)², c = {fmt_setting(c)}",
              "SMO, hinge loss, free b", name="The plane's preimage in the plane of the points")
        st.caption("The plane's preimage: the points x with w_φᵀφ(x) + b = 0, solved exactly "
                   "(orange diamonds), on the boundary h(x) = 0 the engine draws from the kernel.")
    st.markdown(f"Preimage: **{KT.preimage_equation(fv.plane)}** — w_φ = Σ αᵢyᵢφ(xᵢ) "
                "(slide 28):")
    st.dataframe(pd.DataFrame(KT.plane_rows(fv)).set_index("feature").T, key=K("plane"))
    KW.panel(fv.model)  # the kernel's decision function and b, with this fit's numbers

st.subheader("K(x, z) = φ(x)ᵀφ(z), checked for two points")
names = [f"x{k + 1} = ({fmt_num(X[k, 0], 3)}, {fmt_num(X[k, 1], 3)})" for k in range(len(X))]
ss.setdefault(K("i"), 0)
ss.setdefault(K("j"), min(1, len(X) - 1))
for key in ("i", "j"):
    if ss[K(key)] >= len(X):
        ss[K(key)] = 0
ci, cj = st.columns(2)
i = ci.selectbox("x", range(len(X)), key=K("i"), format_func=names.__getitem__)
j = cj.selectbox("z", range(len(X)), key=K("j"), format_func=names.__getitem__)
chk = fm.identity(X[i], X[j], float(c))
st.markdown(KT.identity_sentence(chk, i + 1, j + 1))
st.dataframe(pd.DataFrame(KT.identity_rows(chk)), hide_index=True, key=K("identity"))

# ------------------------------------------------------------------ 2. the Gram matrix

st.header("2. The Gram matrix and Mercer's condition")
st.markdown("K is a kernel if and only if, for every finite set of points, the matrix "
            f"Kᵢⱼ = K(xᵢ, xⱼ) is symmetric positive semi-definite ({cite('kkt')}, §4.2). "
            "These points "
            "can prove that a function is *not* a kernel (one negative eigenvalue), never that "
            "it is.")
ss.setdefault(K("fn"), "gaussian")
fn = st.selectbox("Function", KC.FUNCTIONS, key=K("fn"), format_func=KC.FUNCTION_LABELS.get)
cols = st.columns(3)
if fn == "gaussian":
    ss.setdefault(K("sigma"), 1.0)
    params = {"sigma": cols[0].select_slider("σ", option_values(SIGMA_GRID, ss[K("sigma")]),
                                             key=K("sigma"), format_func=fmt_setting)}
elif fn in ("polynomial", "negative_c"):
    ss.setdefault(K("degree"), 2)
    params = {"degree": cols[0].slider("degree q", 1, 6, key=K("degree"))}
    if fn == "polynomial":
        ss.setdefault(K("coef0"), 1.0)
        params["coef0"] = cols[1].select_slider("c", [0.0, 0.5, 1.0, 2.0], key=K("coef0"),
                                                format_func=fmt_setting)
    else:
        ss.setdefault(K("neg_c"), -1.0)
        params["coef0"] = cols[1].select_slider("c", [-4.0, -2.0, -1.0, -0.5, -0.1],
                                                key=K("neg_c"), format_func=fmt_setting)
else:
    ss.setdefault(K("kappa"), 1.0)
    ss.setdefault(K("neg_c"), -1.0)
    params = {"kappa": cols[0].select_slider("κ", [0.1, 0.5, 1.0, 2.0], key=K("kappa"),
                                             format_func=fmt_setting),
              "coef0": cols[1].select_slider("c", [-4.0, -2.0, -1.0, -0.5, -0.1],
                                             key=K("neg_c"), format_func=fmt_setting)}
study = guarded(gram_study, xb, yb, fn, tuple(sorted(params.items())), float(C))
if study is not None:
    st.markdown(f"**{study.label}** on the {len(X)} points")
    left, right = st.columns(2)
    with left:
        chart(KF.gram_heatmap(study), "gram", study.label)
    with right:
        chart(KF.eigen_figure(study), "eigen", study.label)
    chk_m = study.check
    lam = chk_m.eigenvalues
    st.markdown(f"λ_min = **{fmt_num(lam[0], 6)}**, λ_max = **{fmt_num(lam[-1], 6)}**; eigenvalues "
                f"below {fmt_num(-chk_m.tolerance, 2)} count as negative: "
                f"**{chk_m.n_negative}**."
                + student.unless(ss, " The tolerance is 100·n·ε·‖K‖₂: a computed Gram matrix "
                                 "and its computed eigenvalues are exact only to a few ulps of "
                                 "the largest one."))
    (st.success if chk_m.psd else st.warning)(f"Mercer check: {KT.mercer_verdict(chk_m)}.")
    st.markdown(KT.curvature_sentence(study))
    st.subheader("What the solvers do with it (hinge loss, free b, C as in the sidebar)")
    st.dataframe(pd.DataFrame(KT.solver_rows(study)), hide_index=True, key=K("solvers"))
    st.markdown(KT.solver_sentence(study))

# ----------------------------------------------------------------- 3. σ and the degree

st.header("3. What σ and the degree do")
ss.setdefault(K("family"), "gaussian")
family = st.radio("Kernel", ("gaussian", "polynomial"), key=K("family"), horizontal=True,
                  format_func={"gaussian": "Gaussian, σ = "
                                           + ", ".join(map(fmt_setting, KC.SIGMAS)),
                               "polynomial": "polynomial (xᵀz + 1)^q, q = "
                                             + ", ".join(map(str, KC.DEGREES))}.get)
values = KC.SIGMAS if family == "gaussian" else KC.DEGREES
panels = guarded(multiples, xb, yb, family, values, float(C))
if panels is not None:
    for row in (panels[:2], panels[2:]):
        for col, panel in zip(st.columns(2), row):
            with col:
                chart(KF.panel_figure(panel, X, y, KT.panel_title(family, panel)),
                      f"panel.{panel.value}", "SMO, hinge loss, free b",
                      name=f"{family.capitalize()} kernel, {KT.panel_title(family, panel)}")
                if panel.error:
                    st.error(panel.error)
                else:
                    st.caption(KT.panel_caption(panel))
                    if panel.warning:
                        st.warning(panel.warning)
    st.caption(KT.sigma_gamma_note(KC.SIGMAS))
    st.caption("A small σ makes every point its own bump: the boundary wraps single points and "
               "the training accuracy climbs towards 1. A large σ or degree 1 gives a nearly "
               "straight line. The same C everywhere; the Generalisation page measures which "
               "value does best on points the model has not seen.")
