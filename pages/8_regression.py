"""Regression: ε-SVR (the kernel lecture's dual with a and â) on 1-D points the student generates or
places: the fitted function, the ε-tube, ξ and ξ̂ drawn and valued per point, the support
vectors on and outside the tube, the solver and whether it converged, the formulas beside
the numbers.

Thin: the shared data-source and model blocks (``ui.shared.controls``) → one cached
fit in a fit worker (``ui.regression.compute.run``, within the time budget) → the figures of
``ui.regression.figures``. A click or a tap on the plot
adds a point there (``ui.shared.click_plot``).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from svm_engine.datasets_regression import FUNCTIONS
from ui.regression import compute as R
from ui.regression import figures as F
from ui.regression.page_state import Regression
from ui.serving import budget
from ui.shared import click_plot, student
from ui.shared import controls as ctl
from ui.shared.chart import model_words, show_chart
from ui.shared.cite import cite
from ui.shared.figures import PLOTLY_CONFIG
from ui.shared.labels import kernel_formula
from ui.shared.nav import run_through_app
from ui.shared.numbers import fmt_fixed, fmt_num, fmt_setting, fmt_tex

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
page = Regression.of(ss)
P, K = Regression.PREFIX, Regression.widget_key  # the widget keys of this page
EPS_GRID = [0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0]
SOURCES = {"generate": "Generate: a function + noise", "place": "Place my own points"}
DEFAULTS = {"source": "generate", "function": "sine", "n": 30, "noise": 0.2, "seed": 0,
            **{k: v for k, v in R.DEFAULTS.items()}}
CHART_CONFIG = {**PLOTLY_CONFIG, "scrollZoom": False}
GENERATE = ctl.Sliders(n=(2, R.MAX_POINTS, 1), noise=(0.0, 1.0, 0.05), seed_max=10_000,
                       n_label="n points", noise_label="noise (std)", keys="")

st.title("Regression: ε-SVR")
st.caption(f"Support vector regression ({cite('kernels')}, “the regression case”): a function that "
           "stays within ε of the targets where it can, paying C per unit of slack ξ above "
           "the tube and ξ̂ below it. Click the plot to add a point. Symbols as in that "
           "lecture: t is a point's target and y(x) the fitted function (on the classification "
           "pages y is the class label and h(x) the decision function).")


def function_select() -> str:
    return st.sidebar.selectbox("Function", tuple(FUNCTIONS), key=K("function"),
                                format_func=lambda f: FUNCTIONS[f][0])


def sidebar() -> tuple[np.ndarray, np.ndarray, dict, str | None, bool]:
    sb = st.sidebar
    src = ctl.data_source(ss, P, SOURCES, radio=True, generators=("generate",),
                          sliders=GENERATE, options={"generate": function_select},
                          on_change=lambda: setattr(page, "added", []))  # none carried over
    x, t, function = np.zeros(0), np.zeros(0), src.option
    if src.name == "generate":
        g = src.params
        x, t = R.generated(function, int(g["n"]), float(g["noise"]), int(g["seed"]))
    added = page.added
    if added:
        x = np.concatenate([x, [p[0] for p in added]])
        t = np.concatenate([t, [p[1] for p in added]])
        # one under the other: side by side the sidebar cut their words ("Undo last p…")
        sb.button("Undo last point", key=K("undo"), on_click=lambda: page.added.pop(),
                  width="stretch")
        sb.button(f"Clear my {R.count(len(added), 'point')}", key=K("clear"),
                  on_click=lambda: setattr(page, "added", []), width="stretch")
    sb.header("Model")
    s = ctl.model_sidebar(ss, P,
                          {k: ss[K(k)] for k in ("kernel", "degree", "coef0", "sigma", "C")},
                          loss=False, hard_margin=False, c_help="The price of one unit of ξ or ξ̂.")
    s["epsilon"] = sb.select_slider("ε (tube half-width)", sorted({*EPS_GRID, ss[K("epsilon")]}),
                                    key=K("epsilon"), format_func=fmt_setting)
    s["solver"] = sb.radio("Solver", tuple(R.SOLVERS), key=K("solver"),
                           format_func=R.SOLVERS.get)
    return x, t, s, function, src.name == "place"


def add_point(xy) -> None:
    page.added.append((float(xy[0]), float(xy[1])))


def on_plot_click(xr, yr, n: int) -> None:
    xy = click_plot.parse_click(ss.get(K("plot")), xr, yr)
    if xy is not None and n < R.MAX_POINTS:
        add_point(xy)


@st.cache_data(max_entries=32, show_spinner="Fitting …")
def cached_fit(xb: bytes, tb: bytes, skey: tuple, function: str | None) -> R.Answer:
    x, t = np.frombuffer(xb), np.frombuffer(tb)
    answer = budget.run("regression", R.run, (x, t, dict(skey), function, R.SMO_BUDGET_S),
                        settings=None, n=len(x), lane="light" if len(x) <= 100 else "heavy")
    return budget.unless_cut(answer, answer.time_cut)   # SMO stopped by the clock: not cached


page.widgets.restore(ss)
ctl.default_widgets(ss, P, DEFAULTS)
page.widgets.keep(ss, DEFAULTS)
x_all, t_all, settings, function, placing = sidebar()
view = F.PLACE_VIEW if placing else None
s = R.check_settings(settings)
why = R.refusal(len(x_all), s) or R.point_refusal(x_all, t_all)
answer = None
if why is None:
    try:
        answer = budget.result_of(cached_fit, x_all.tobytes(), t_all.tobytes(),
                                  tuple(sorted(s.items())), function)
    except budget.BudgetError as exc:       # stopped at the budget: never cached
        why = f"{exc} Try fewer points, a smaller C or a larger ε, or the other solver."
    except ValueError as exc:
        why = f"This fit was refused: {exc}"

left, right = st.columns([3, 2], gap="medium")
with left:
    if answer is not None:
        fig = F.fit_figure(answer, view)
    else:                                    # no fit: the points alone, still clickable
        xr, yr = (F.data_view(x_all, t_all, view=view) if len(x_all) else
                  F.PLACE_VIEW)
        fig = {"data": [{"type": "scatter", "mode": "markers", "x": x_all, "y": t_all,
                         "name": "points", "marker": {"size": 12}}],
               "layout": {"xaxis": {"range": xr, "title": {"text": "x"}},
                          "yaxis": {"range": yr, "title": {"text": "t"}}, "height": 520}}
    xr, yr = fig["layout"]["xaxis"]["range"], fig["layout"]["yaxis"]["range"]
    about = (FUNCTIONS[function][0] if function else "your points", f"n = {len(x_all)}",
             model_words(s, solver=R.SOLVERS[s["solver"]]))
    click_plot.click_plot(fig, key=K("plot"), config=CHART_CONFIG,
                          on_click=partial(on_plot_click, xr, yr, len(x_all)),
                          title="Regression: ε-SVR", settings=about,
                          table=None if answer is None
                          else "Every point: its multipliers and slacks")
    st.caption(f"{R.count(len(x_all), 'point')} (at most {R.MAX_POINTS}). Click or tap the "
               "plot to add a point there; drag to zoom (the toolbar's house resets it). "
               + click_plot.KEYS_HINT)
    with st.expander("Add a point by its coordinates"):
        c1, c2, c3 = st.columns([2, 2, 1], vertical_alignment="bottom")
        px = c1.number_input("x", value=0.0, step=0.1, key=K("add.x"))
        pt = c2.number_input("t", value=0.0, step=0.1, key=K("add.t"))
        c3.button("Add", key=K("add.go"), on_click=add_point, args=((px, pt),),
                  disabled=len(x_all) >= R.MAX_POINTS)

with right:
    if why is not None and placing and len(x_all) < 2:    # a step to take, not an error
        st.info(f"Click the plot to place points: {R.count(len(x_all), 'point')} so far, a "
                "function needs at least 2.")
    elif why is not None:
        st.error(why)
    else:
        m = answer.model
        sm = R.summary(m)
        (st.success if m.converged else st.warning)(
            f"**{R.SOLVERS[m.solver]}**, {m.n_iter:,} iterations, "
            f"{fmt_fixed(1000 * m.time_s, 1)} ms — {m.status}.")
        st.markdown(f"**The fit, the primal and the dual** ({cite('kernels')})")
        st.latex(r"y(\mathbf{x}) = \sum_{i=1}^N (a_i - \hat a_i)\, k(\mathbf{x}, \mathbf{x}_i) + b")
        st.latex(f"b = {fmt_tex(sm['b'], 6)}")
        st.latex(r"\min_{\mathbf{w},b}\ \tfrac12\|\mathbf{w}\|^2 + C\sum_i (\xi_i + \hat\xi_i)"
                 f" = {fmt_tex(sm['primal'], 6)}")
        st.latex(r"\begin{aligned}\max_{\mathbf{a},\hat{\mathbf{a}}}\ \tilde L &= \sum_i (a_i -"
                 r" \hat a_i)t_i - \epsilon\sum_i (a_i + \hat a_i) \\ &\quad - \tfrac12 \sum_{i,l}"
                 r"(a_i - \hat a_i)(a_l - \hat a_l)\,k(\mathbf{x}_i, \mathbf{x}_l) \\"
                 f" &= {fmt_tex(sm['dual L̃'], 6)}" r"\end{aligned}")  # 3 lines: no scrolling
        st.latex(r"\text{s.t.}\ \sum_i (a_i - \hat a_i) = 0,\quad 0 \le a_i, \hat a_i \le C")
        rows = [("support vectors: aᵢ > 0 or âᵢ > 0", f"{sm['support vectors']} of {len(m.t)}"),
                ("on the tube's edge: |tᵢ − y(xᵢ)| = ε", str(sm["on the edge"])),
                ("outside the tube: aᵢ = C or âᵢ = C", str(sm["outside"])),
                ("Σ(ξᵢ + ξ̂ᵢ)", fmt_num(sm["Σξ + Σξ̂"])),
                ("Σ(aᵢ − âᵢ) = 0", fmt_num(sm["Σ(a − â)"], 2)),
                ("duality gap primal − L̃", fmt_num(sm["gap"], 2)),
                ("largest KKT violation", fmt_num(sm["KKT violation"], 2)),
                ("C, ε", f"{fmt_num(m.C)}, {fmt_num(m.epsilon)}"),
                ("kernel", kernel_formula(m.kernel))]
        st.table(pd.DataFrame(rows, columns=["quantity", "value"]).set_index("quantity"))
        st.caption("ξᵢ = max(0, tᵢ − y(xᵢ) − ε) above the tube, ξ̂ᵢ = max(0, y(xᵢ) − tᵢ − ε) "
                   "below it. aᵢ > 0 only on or above the upper edge, âᵢ > 0 only on or below "
                   "the lower edge; a point strictly inside the tube has aᵢ = âᵢ = 0 and does "
                   "not shape y(x). Converged means the solver stopped by its own rule and an "
                   "independent check (KKT conditions within 10⁻⁶, duality gap) passed.")

if answer is not None:
    m = answer.model
    st.header("Every point: its multipliers and slacks")
    st.dataframe(pd.DataFrame(R.point_rows(m)), hide_index=True, key=K("table"),
                 column_config={c: st.column_config.NumberColumn(format="%.4f")
                                for c in ("x", "t", "y(x)", "t − y(x)", "a", "â", "ξ", "ξ̂")})
    prog = F.progress_figure(m)
    if prog is not None and student.full_view(ss):  # SMO's stopping rule: a solver internal
        with st.expander("SMO's progress: the stopping gap m(α) − M(α) and L̃ per step"):
            show_chart(prog, key=K("progress"), config=CHART_CONFIG, settings=about,
                       title="SMO's progress: the stopping gap m(α) − M(α) and L̃ per step")
            st.caption("SMO works on 2N multipliers (a, â), two at a time (LIBSVM's "
                       "formulation): it stops when m(α) − M(α), the largest KKT violation of "
                       f"the pair rule, is ≤ {fmt_num(m.tol, 2)}; L̃ rises at every step.")
