"""Step-through: watch SMO (and the book's SGA and Newton) one step at a time.

Thin page: sidebar widgets → one cached fit with ``trace=True``
(``ui.step_through.record.build_run``, in a budget worker) → the panels of
``ui.step_through.panels``: the state after step k (``.snapshot``, ``.view``), its figures
and words (``.*_figure(s)``, ``.text``). Stepping never refits: it replays the
recorded run. SMO steps in the browser (the step player); SGA and Newton on the server.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

from svm_engine import datasets
from ui.serving import budget
from ui.shared import controls as ctl
from ui.shared import present, reveal, state, student
from ui.shared.chart import model_words
from ui.shared.labels import DATASET_LABELS, SOLVER_NAMES, WSS_LABELS
from ui.shared.markdown import points_and_model
from ui.shared.nav import run_through_app
from ui.shared.points import default_range, validate_points
from ui.shared.settings import DEFAULTS
from ui.step_through import panels, record
from ui.step_through import player as SP
from ui.step_through import text as W
from ui.step_through import view as V
from ui.step_through.page_state import StepThrough

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
present.page_header(ss)  # a projector: no sidebar, larger text
page = StepThrough.of(ss)
P, K = StepThrough.PREFIX, StepThrough.widget_key
SOURCE_LABELS = {"playground": "The Playground's points", **DATASET_LABELS}
GEN_DEFAULTS = {"n": 200, "noise": 0.2}  # this page's generator defaults
KEPT = ("source", "gen.n", "gen.noise", "gen.seed", "solver", *ctl.MODEL_KEYS, "wss", "bias",
        "sga_mode", "show_slack", "show_alpha", "speed")  # what another page must not reset

st.title("Step-through")
st.caption(
    "Watch the solver one step at a time. Stepping replays the recorded run (the first "
    f"{record.TRACE_CAP:,} steps are kept); it never refits. Indices are 1-based: x₁ … xₙ."
)


# ----------------------------------------------------------------------------- sidebar


def seed_model_widgets(settings: dict) -> None:
    for key in (*ctl.MODEL_KEYS, "wss"):
        ss[K(key)] = settings[key]
    ss[K("solver")] = settings["solver"] if settings["solver"] in record.STEP_SOLVERS else "smo"


def on_source_change() -> None:
    name = ss[K("source")]
    if name in datasets.GENERATORS:  # each generator's own default noise
        ss[K("gen.noise")] = float(ctl.generator_default(name, "noise"))
    try:
        seed_model_widgets(ctl.source_settings(ss, P, name, **GEN_DEFAULTS))
    except ValueError as exc:
        page.message = f"Could not load the dataset: {exc}"


def init_widgets() -> None:
    if K("solver") in ss:
        return
    try:
        seed_model_widgets(ctl.source_settings(ss, P, ss.get(K("source"), "playground"),
                                               **GEN_DEFAULTS))
    except ValueError:
        seed_model_widgets(dict(DEFAULTS))
    for key, value in (("sga_mode", "sweep"), ("show_slack", False), ("show_alpha", False),
                       ("speed", V.DEFAULT_SPEED)):
        ss.setdefault(K(key), value)


def sidebar_model() -> dict:
    sb = st.sidebar
    sb.header("Solver and model")
    # widget values are dropped when a widget is not drawn (e.g. σ for a linear kernel)
    for k, v in DEFAULTS.items():
        ss.setdefault(K(k), v)
    solver = sb.radio("Algorithm", record.STEP_SOLVERS, key=K("solver"),
                      format_func=SOLVER_NAMES.get)
    sb.caption(record.SOLVER_CAPTIONS[solver])
    s = ctl.model_sidebar(
        ss, P, {k: ss[K(k)] for k in ctl.MODEL_KEYS},
        fixed_loss=("quadratic", "Loss: quadratic (k = 2), as SVM-Primal needs.")
        if solver == "newton" else None)
    s["wss"] = ss[K("wss")]
    if solver == "smo" and student.full_view(ss):  # a solver internal: not the student view's
        s["wss"] = sb.radio("Working-set rule", ("max_violating_pair", "second_order"),
                            key=K("wss"), format_func=WSS_LABELS.get,
                            help="Which pair (i, j) SMO optimises next; the iteration counts "
                                 "differ.")
    if solver == "sga":
        sb.radio("One step is", tuple(V.SGA_MODE_LABELS), key=K("sga_mode"),
                 format_func=V.SGA_MODE_LABELS.get)
    ctl.limits_caption(s, "step", record.STEP_SOLVERS)  # the point limits of the time budget
    sb.header("Plot")
    sb.toggle("Show slack ξ", key=K("show_slack"))
    return {**s, "bias": record.SOLVER_BIAS[solver], "solver": solver}


# --------------------------------------------------------------------------- the run


@st.cache_data(max_entries=16, show_spinner="Running the solver and recording every step …")
def cached_run(xb: bytes, yb: bytes, skey: tuple, solver: str):
    """(StepRun, None) or (None, message): a pure function of the points and settings, run
    in a worker within the time budget (``budget.Stopped`` is raised, not cached)."""
    X = np.frombuffer(xb, dtype=np.float64).reshape(-1, 2)
    y = np.frombuffer(yb, dtype=np.int64)
    try:
        return budget.run("step", record.run_or_message, (X, y, dict(skey), solver),
                          settings=dict(skey), n=len(X), solver=solver)
    except budget.Refused as exc:  # predicted over the budget: a pure message
        return None, str(exc)


@st.cache_data(max_entries=16, show_spinner=False)
def cached_payload(xb: bytes, yb: bytes, skey: tuple, solver: str, rid: str, ranges: tuple):
    """The step player's payload for a run (pure: a function of the run and the view)."""
    run, _ = cached_run(xb, yb, skey, solver)
    return SP.player_payload(run, rid, x_range=ranges[0], y_range=ranges[1],
                             resolution=V.DECISION_GRID)


# ----------------------------------------------------------------------------- page

page.widgets.restore(ss)
page.widgets.keep(ss, KEPT)
init_widgets()
try:
    X, y, title = ctl.points_sidebar(
        ss, P, **GEN_DEFAULTS, labels=SOURCE_LABELS, on_change=on_source_change,
        help="The Playground's current points (default), a book dataset or a generator.")
except ValueError as exc:
    st.error(f"Could not load the dataset: {exc}")
    st.stop()
settings = sidebar_model()
solver = settings["solver"]
coordinate = solver == "sga" and ss.get(K("sga_mode")) == "coordinate"
unit = V.unit_name(solver, coordinate)

if st.sidebar.button("Open these points in the Playground", icon=":material/scatter_plot:"):
    try:
        state.load_into_playground(ss, X, y, settings, title)
    except ValueError as exc:
        st.sidebar.error(str(exc))
    else:
        st.switch_page("pages/1_playground.py")
reveal.hide_page_if_hidden(ss, X, y)  # a teacher link's hidden points: not one page away

try:
    Xv, yv = validate_points(X, y)
    skey = tuple(sorted(record.step_settings(settings, solver).items()))
except ValueError as exc:
    st.error(str(exc))
    st.stop()
xb, yb = Xv.astype(np.float64).tobytes(), yv.astype(np.int64).tobytes()
try:
    run, error = cached_run(xb, yb, skey, solver)
except budget.Stopped as exc:  # over the time budget: the message says what to change
    run, error = None, str(exc)

st.markdown(points_and_model(title, len(Xv), settings, SOLVER_NAMES[solver]))
if error:
    st.error(error)
    st.stop()

key = V.run_key(xb, yb, skey, solver, "coordinate" if coordinate else "sweep")
if page.run_key != key:
    page.run_key, page.cursor, page.playing = key, 0, False

# the student view's summary names no working-set rule (a solver internal)
st.markdown(W.run_summary(run if student.full_view(ss) else replace(run, wss=None)))
if run.final is not None and run.final.converged and student.full_view(ss):  # the polish
    st.caption(W.polish_text(run.model, run.final))
if run.truncated:
    st.warning(W.truncation_text(run))
if run.warning:
    st.warning(run.warning[:1].upper() + run.warning[1:])
if run.n_steps == 0:
    st.info("The starting point already satisfies the stopping rule: there is nothing to step.")

ranges = default_range(Xv)
about = " · ".join((str(title), f"n = {len(Xv)}", model_words(run.settings,
                                                                solver=SOLVER_NAMES[solver])))
if solver == "smo":
    panels.smo_player(run, key, lambda: cached_payload(xb, yb, skey, solver, key, ranges), about)
    panels.smo_panels(run, key)
else:
    panels.server_stepper(run, coordinate, unit, ranges, key, about)
