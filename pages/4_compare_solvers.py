"""Compare solvers: every solver of the engine on the same points, side by side.

Thin page: sidebar widgets → one cached comparison (``ui.compare.comparison.compare``: every
applicable
solver, the cvxopt reference per bias form, the agreement check, convergence curves) → the
table of ``ui.compare.table`` and the figures of ``ui.compare.figures``; the solver notes come
from ``ui.compare.solver_docs``.
The scaling run (``ui.compare.scaling.run_scaling``) runs only on its button and keeps its partial
result in this session. It is not a fragment on purpose: a click inside a running fragment
waits for it to end, while any click on the page (Stop included) interrupts a full run at its
next progress update.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from svm_engine import datasets
from ui.compare import comparison as cmp
from ui.compare import figures as F
from ui.compare import scaling as sc
from ui.compare import table as T
from ui.compare.page_state import Compare
from ui.compare.solver_docs import anchor, doc_sections, note_problem, solver_doc
from ui.compare.sv_count import sv_count_note
from ui.serving import budget, costs
from ui.shared import controls as ctl
from ui.shared import reveal, student
from ui.shared.chart import model_words, show_chart
from ui.shared.labels import DATASET_LABELS
from ui.shared.markdown import points_and_model
from ui.shared.nav import run_through_app
from ui.shared.numbers import fmt_num, fmt_setting
from ui.shared.settings import DEFAULTS, Settings, effective_C, settings_to_kernel

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
page = Compare.of(ss)
P, K = Compare.PREFIX, Compare.widget_key  # the widget keys of this page
SOURCE_LABELS = {"playground": "The Playground's points and settings", **DATASET_LABELS}
BIAS_CHOICES = {"both": ("free", "augmented"), "free": ("free",), "augmented": ("augmented",)}
BIAS_CHOICE_LABELS = {"both": "both forms", "free": "free b only", "augmented": "augmented only"}
TOL_LABELS = {"tight": "tight, for the agreement check (SMO 10⁻⁸, cvxopt 10⁻¹⁰, SGA 10⁻⁷, "
                       "Newton 10⁻⁸)",
              "default": "as the Playground and Step-through run them (SMO 10⁻⁵, SGA 10⁻⁴, "
                         "…)"}

st.title("Compare solvers")
st.caption(
    "Every solver that can handle the chosen kernel and loss, in both bias forms, on the same "
    "points — each checked against cvxopt's exact answer to the same problem."
)


# ----------------------------------------------------------------------------- sidebar


GEN_DEFAULTS = {"n": 100, "noise": 0.1}  # this page's generator defaults


def source_settings(name: str) -> dict:
    return ctl.source_settings(ss, P, name, **GEN_DEFAULTS)


def seed_model_widgets() -> None:
    try:
        s = source_settings(ss.get(K("source"), "playground"))
    except ValueError:
        s = dict(DEFAULTS)
    for k in ctl.MODEL_KEYS:
        ss[K(k)] = s[k]


def sidebar() -> tuple[np.ndarray, np.ndarray, str, dict]:
    sb = st.sidebar
    X, y, title = ctl.points_sidebar(ss, P, **GEN_DEFAULTS, labels=SOURCE_LABELS,
                                          on_change=seed_model_widgets)
    if K("kernel") not in ss:
        seed_model_widgets()
    sb.header("Model")
    s = ctl.model_sidebar(ss, P, {k: ss[K(k)] for k in ctl.MODEL_KEYS})
    sb.header("Comparison")
    sb.radio("Bias forms", tuple(BIAS_CHOICES), key=K("biases"),
             format_func=BIAS_CHOICE_LABELS.get)
    if student.is_student(ss):  # tolerances, caps and budgets are the solvers' internals
        return np.asarray(X, dtype=float), np.asarray(y), str(title), Settings.parse(s)
    sb.radio("Tolerance", cmp.TOL_MODES, key=K("tol"), format_func=TOL_LABELS.get,
             help="The agreement check needs tight tolerances; the other setting runs every "
                  "solver as the other pages do (the same iterations as there), and shows how "
                  "far off each stops as it is usually run.")
    sb.number_input("Max iterations (0 = each solver's own cap)", 0, 10_000_000, step=1,
                    key=K("max_iter"),
                    help="A small number shows what a stopped, non-converged run looks like.")
    sb.caption(f"Within the {fmt_setting(costs.BUDGET_S)} s budget: at most "
               f"{costs.max_points('compare', s):,} points with these settings.")
    return np.asarray(X, dtype=float), np.asarray(y), str(title), Settings.parse(s)


# --------------------------------------------------------------------------- the runs


@st.cache_data(max_entries=8, show_spinner="Running every solver and the cvxopt reference …")
def cached_compare(xb: bytes, yb: bytes, skey: tuple, biases: tuple, tol: str, max_iter: int):
    """(Comparison, None) or (None, why): a pure function of the points and settings (so it
    may be shared between sessions), run in a worker within the time budget."""
    X = np.frombuffer(xb, dtype=np.float64).reshape(-1, 2)
    y = np.frombuffer(yb, dtype=np.int64)
    try:
        return budget.run("compare", cmp.compare, (X, y, dict(skey), biases, tol,
                                                   max_iter or None),
                          settings=dict(skey), n=len(X)), None
    except budget.Refused as exc:  # predicted over the budget: a pure message
        return None, str(exc)


def scaling_fit(X, y, kernel, C, spec, tol, max_iter):
    """One fit of the scaling run in a worker: (Run, seconds in the worker), or (Run with
    the message, None) when it was stopped at the budget."""
    settings = {"solver": spec.solver, "kernel": kernel.name, "loss": spec.loss,
                "hard_margin": False, "C": C}
    try:
        return budget.run("fit", sc.timed_fit_row, (X, y, kernel, C, spec, tol, max_iter),
                          settings=settings, n=len(X), solver=spec.solver, refuse=False)
    except budget.Stopped as exc:
        return cmp.Run(error=str(exc)), None


def chart(fig: dict, key: str, settings, title: str | None = None) -> None:
    # the wheel scrolls the page (the toolbar zooms); the saved image is titled ``title`` or
    # by the figure's own title
    show_chart(fig, key=key, title=title, settings=settings)


# ----------------------------------------------------------------------------- scaling


def on_scaling_run() -> None:
    page.scaling_request, page.scaling_stop = True, False


def on_scaling_stop() -> None:
    page.scaling_stop = True
    res = page.scaling
    if res is not None and res.status == "running":
        res.status = "cancelled"


def scaling_section(specs: list, settings: dict, tol_mode: str) -> None:
    st.header("Scaling: time against n")
    st.caption(sc.SCALING_TEXT)
    res = page.scaling
    if res is not None and res.status == "running" and not page.scaling_request:
        res.status = "cancelled"  # the run was interrupted (Stop or another widget)
    c = st.columns([2, 1, 1.2, 0.8, 0.8], vertical_alignment="bottom")
    lo, hi = c[0].slider("n range", sc.N_MIN, sc.N_MAX, (sc.N_MIN, sc.N_MAX), step=10,
                         key=K("scale.range"))
    count = c[1].slider("sizes", 2, 10, sc.DEFAULT_COUNT, key=K("scale.count"))
    gens = datasets.GENERATORS
    gen = c[2].selectbox("data", gens, index=gens.index(sc.default_generator(settings)),
                         key=K("scale.gen"), format_func=lambda g: DATASET_LABELS.get(g, g))
    c[3].button("Run", key=K("scale.run"), on_click=on_scaling_run, type="primary",
                icon=":material/play_arrow:", width="stretch")
    c[4].button("Stop", key=K("scale.stop"), on_click=on_scaling_stop,
                icon=":material/stop:", width="stretch")
    if page.scaling_request:
        page.scaling_request = False
        bar = st.progress(0.0, text="Loading the solvers …")
        sc.run_scaling(
            specs, settings, sc.size_range(lo, hi, count), generator=gen, tol_mode=tol_mode,
            progress=lambda done, total, text: bar.progress(done / total, text=text),
            should_stop=lambda: page.scaling_stop,
            on_update=lambda r: setattr(page, "scaling", r), fit=scaling_fit,
        )
        bar.empty()
        res = page.scaling
    if res is None:
        return
    done = sum(m.time_s is not None for m in res.measurements)
    msg = (f"{res.status}: {done} fits timed of {res.planned} planned, sizes "
           f"{', '.join(map(str, res.sizes))}, {fmt_num(res.elapsed_s, 3)} s in all.")
    (st.warning if res.status == "cancelled" else st.caption)(msg)
    chart(F.scaling_figure(res), key=K("fig.scaling"),
          settings=(DATASET_LABELS.get(gen, gen), f"n = {', '.join(map(str, res.sizes))}",
                    model_words(settings, bias=False), f"tolerance {tol_mode}"))
    notes = res.notes()
    if notes:
        with st.expander(f"Skipped, failed or not converged ({len(notes)})"):
            st.dataframe(pd.DataFrame([{"solver": m.label, "n": m.n, "note": m.note}
                                       for m in notes]), hide_index=True)


# -------------------------------------------------------------------------------- page

KEPT = ("source", "gen.n", "gen.noise", "gen.seed", *ctl.MODEL_KEYS, "biases", "tol", "max_iter",
        "scale.count", "scale.gen", "scale.range")  # what a visit to another page must not reset
page.widgets.restore(ss)
page.widgets.keep(ss, KEPT)
X, y, title, settings = sidebar()
biases = BIAS_CHOICES[ss.get(K("biases"), "both")]
tol_mode = ss.get(K("tol"), "tight")
max_iter = int(ss.get(K("max_iter"), 0) or 0)
st.markdown(points_and_model(title, len(X), settings))
reveal.hide_page_if_hidden(ss, X, y)  # a teacher link's hidden points: not one page away
ctl.stop_unless_two_classes(y)

skey = tuple(sorted(settings.items()))
try:
    comp, why = cached_compare(np.ascontiguousarray(X, dtype=np.float64).tobytes(),
                               np.ascontiguousarray(y, dtype=np.int64).tobytes(), skey, biases,
                               tol_mode, max_iter)
except budget.Stopped as exc:  # over the time budget: not cached, the message says why
    comp, why = None, str(exc)
if why:
    st.error(why)
    st.stop()
if not comp.rows:
    st.error("No solver of the engine can solve this combination.")
    st.stop()
errors = [r.run.error for r in comp.rows if r.run.model is None and not r.skipped]
if len(errors) == len(comp.rows):
    st.error(f"No solver could train on these points: {errors[0]}")
    st.stop()

notes = doc_sections(r.spec for r in comp.rows)
st.dataframe(student.drop_internals(ss, T.shown_frame(comp)), hide_index=True,
             key=K("table"), column_config={"converged": st.column_config.CheckboxColumn()})
st.caption(cmp.AGREEMENT_TEXT + " " + student.unless(ss, T.tolerance_note(tol_mode))
           + " Solver notes: "
           + " · ".join(f"[{t}](#{anchor(t)})" for t in notes))
if sv_note := sv_count_note(r.run.model for r in comp.rows):
    st.caption(sv_note)                   # 3 / 4 / 5 support vectors for one hyperplane (D1)
if len({r.spec.bias for r in comp.rows}) > 1:
    st.info(" ".join(filter(None, (cmp.BIAS_SENTENCE, T.bias_forms_note(comp)))),
            icon=":material/info:")

st.header("Boundaries h(x) = 0")
about = (title, f"n = {len(X)}", model_words(settings, bias=False),
         BIAS_CHOICE_LABELS[ss.get(K("biases"), "both")], f"tolerance {tol_mode}")
chart(F.boundaries_figure(comp, X, y), key=K("fig.boundaries"), settings=about,
      title="Every solver's boundary h(x) = 0")

st.header("Convergence")
if any(r.curve is not None for r in comp.rows):
    st.caption("Every quantity is computed from the iterate α_t by the same bookkeeping as the "
               "table. An iteration is one SMO step (two α), one SGA sweep (all n α) or one "
               "Newton step; SMO traces keep the first 5,000 steps.")
    left, right = st.columns(2)
    with left:
        chart(F.convergence_figure(comp), key=K("fig.convergence"), settings=about)
    with right:
        chart(F.kkt_figure(comp), key=K("fig.kkt"), settings=about)
    st.caption("KKT violation: m(α) − M(α) with the free b (LIBSVM's stopping quantity); the "
               "largest projected-gradient entry with the augmented b (no Σαᵢyᵢ = 0).")
else:
    st.caption("No iterative solver applies here (cvxopt and PSVM have no iterations to show).")

st.header("The solvers")
kernel, C = settings_to_kernel(settings), effective_C(settings)
for note_title, spec in notes.items():
    doc = solver_doc(spec, comp.linear, note_problem(note_title, [r.spec for r in comp.rows],
                                                     kernel, C))
    st.subheader(note_title, anchor=anchor(note_title))
    limits = f"  \n**Limits:** {doc.limits}" if doc.limits else ""
    cost = student.unless(ss, f"  \n**Cost per iteration:** {doc.cost}{limits}")
    st.markdown(f"{doc.summary}  \n**Reference:** {doc.reference}{cost}")
    st.code(doc.problem, language=None)

scaling_section([r.spec for r in comp.rows], settings, tol_mode)
