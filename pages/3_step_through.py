"""Step-through: watch SMO (and the book's SGA and Newton) one step at a time.

Thin page: sidebar widgets → one cached fit with ``trace=True``
(``ui.step_through.state.build_run``)
→ the state after step k (``ui.step_through.state``) → figures and words. Stepping never refits: it
replays the recorded run.

SMO steps in the browser: the step player (``ui.step_through.player``) gets the recorded run once,
keeps the controls (first/prev/next/last, play/pause, speed, slider, next bound change) and
redraws a step itself, with no server round trip; it reports the step, and the panels below it
(the numbers, why this pair, the formulas, the α table) follow in their own fragment. SGA and
Newton are stepped on the server: their controls and charts (``ui.step_through.figures`` drawn by
``ui.step_through.plot``) live in one fragment, and play uses ``st.fragment(run_every=...)``.
"""

from __future__ import annotations

import hashlib
import math
import time

import numpy as np
import pandas as pd
import streamlit as st

from svm_engine import datasets
from ui.serving import budget
from ui.shared import controls as ctl
from ui.shared import state
from ui.shared.controls import (
    C_GRID,
    DATASET_LABELS,
    KERNEL_LABELS,
    LOSS_LABELS,
    SIGMA_GRID,
    WSS_LABELS,
)
from ui.shared.figures import PLOTLY_CONFIG
from ui.shared.nav import keep_widgets, restore_widgets, run_through_app
from ui.shared.tables import option_values
from ui.step_through import figures as F
from ui.step_through import player as SP
from ui.step_through import state as S
from ui.step_through import text as W
from ui.step_through.plot import step_plot

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
P = "stp."  # widget keys of this page
K_CURSOR = "step.cursor"
K_PLAY = "step.playing"
K_RUN = "step.run_key"
K_TICK = "step.last_tick"
K_MSG = "step.message"
K_SENT = "step.payload_sent"  # the run whose player payload this session has sent
K_NEED = "step.need_seen"  # the player's last request for the payload (its counter)

SOURCE_LABELS = {"playground": "The Playground's points", **DATASET_LABELS}
SOLVER_LABELS = {"smo": "SMO", "sga": "SGA (SVM-Dual)", "newton": "Newton (SVM-Primal)"}
#: speed label → (seconds between frames, steps per frame)
SPEEDS = {
    "1 step/s": (1.0, 1),
    "2 steps/s": (0.5, 1),
    "4 steps/s": (0.25, 1),
    "20 steps/s": (0.25, 5),
    "100 steps/s": (0.25, 25),
}
DEFAULT_SPEED = "2 steps/s"
PLOT_CONFIG = {**PLOTLY_CONFIG, "scrollZoom": False}
DECISION_GRID = 50  # grid points per side for h(x): redrawn on every step, so coarser than 100

st.title("Step-through")
st.caption(
    "Watch the solver one step at a time. Stepping replays the recorded run (the first "
    f"{S.TRACE_CAP:,} steps are kept); it never refits. Indices are 1-based: x₁ … xₙ."
)


# ----------------------------------------------------------------------------- sidebar


GEN_DEFAULTS = {"n": 200, "noise": 0.2}  # this page's generator defaults


def source_settings(name: str) -> dict:
    return ctl.source_settings(ss, P, name, **GEN_DEFAULTS)


def seed_model_widgets(settings: dict) -> None:
    for key in ("kernel", "degree", "coef0", "sigma", "loss", "C", "hard_margin", "wss"):
        ss[P + key] = settings[key]
    ss[P + "solver"] = settings["solver"] if settings["solver"] in S.STEP_SOLVERS else "smo"


def on_source_change() -> None:
    name = ss[P + "source"]
    if name in datasets.GENERATORS:  # each generator's own default noise
        ss[P + "gen.noise"] = float(ctl.generator_default(name, "noise"))
    try:
        seed_model_widgets(source_settings(name))
    except ValueError as exc:
        ss[K_MSG] = f"Could not load the dataset: {exc}"


def sidebar_data() -> tuple[np.ndarray, np.ndarray, str]:
    return ctl.points_sidebar(
        ss, P, **GEN_DEFAULTS, labels=SOURCE_LABELS, on_change=on_source_change,
        help="The Playground's current points (default), a book dataset or a generator.")


def sidebar_model() -> tuple[dict, str]:
    sb = st.sidebar
    sb.header("Solver and model")
    # widget values are dropped when a widget is not drawn (e.g. σ for a linear kernel)
    for k, v in state.DEFAULT_SETTINGS.items():
        ss.setdefault(P + k, v)
    ss.setdefault(P + "sga_mode", "sweep")
    solver = sb.radio("Algorithm", S.STEP_SOLVERS, key=P + "solver", format_func=SOLVER_LABELS.get)
    sb.caption(S.SOLVER_NAMES[solver])
    s: dict = {}
    s["kernel"] = sb.radio(
        "Kernel", state.KERNELS, key=P + "kernel", format_func=KERNEL_LABELS.get, horizontal=True
    )
    s["degree"], s["coef0"], s["sigma"] = ss[P + "degree"], ss[P + "coef0"], ss[P + "sigma"]
    if s["kernel"] == "polynomial":
        s["degree"] = sb.slider("degree q", state.DEGREE_MIN, state.DEGREE_MAX, key=P + "degree")
        s["coef0"] = sb.radio(
            "K(x, z) = (c + xᵀz)^q",
            sorted({0.0, 1.0, float(ss[P + "coef0"])}),
            key=P + "coef0",
            horizontal=True,
            format_func=lambda c: f"c = {c:g}",
        )
    elif s["kernel"] == "gaussian":
        s["sigma"] = sb.select_slider(
            "σ (width)",
            option_values(SIGMA_GRID, ss[P + "sigma"]),
            key=P + "sigma",
            format_func=lambda v: f"{v:g}",
        )
    if solver == "newton":
        sb.caption("Loss: quadratic (k = 2), as SVM-Primal needs.")
        s["loss"] = "quadratic"
    else:
        s["loss"] = sb.radio(
            "Loss", state.LOSSES, key=P + "loss", format_func=LOSS_LABELS.get, horizontal=True
        )
    can_hard = solver != "newton" and s["loss"] == "hinge"
    if not can_hard and ss.get(P + "hard_margin"):
        ss[P + "hard_margin"] = False
    s["hard_margin"] = sb.toggle(
        "Hard margin (C = ∞)",
        key=P + "hard_margin",
        disabled=not can_hard,
        help="Needs the hinge loss (and SMO or SGA)." if not can_hard else None,
    )
    s["C"] = sb.select_slider(
        "C (log scale)",
        option_values(C_GRID, ss[P + "C"]),
        key=P + "C",
        format_func=lambda v: f"{v:g}",
        disabled=bool(s["hard_margin"]),
    )
    s["wss"] = ss[P + "wss"]
    if solver == "smo":
        s["wss"] = sb.radio(
            "Working-set rule",
            ("max_violating_pair", "second_order"),
            key=P + "wss",
            format_func=WSS_LABELS.get,
            help="Which pair (i, j) SMO optimises next; the iteration counts differ.",
        )
    if solver == "sga":
        sb.radio(  # read as ss[P + "sga_mode"]
            "One step is",
            ("sweep", "coordinate"),
            key=P + "sga_mode",
            format_func={"sweep": "one sweep (all k)", "coordinate": "one coordinate αₖ"}.get,
        )
    ctl.limits_caption(s, "step", S.STEP_SOLVERS)  # the point limits of the time budget
    sb.header("Plot")
    sb.toggle("Show slack ξ", key=P + "show_slack")
    s["bias"] = S.SOLVER_BIAS[solver]
    s["solver"] = solver
    return s, solver


def init_widgets() -> None:
    if P + "solver" in ss:
        return
    try:
        seed_model_widgets(source_settings(ss.get(P + "source", "playground")))
    except ValueError:
        seed_model_widgets(dict(state.DEFAULT_SETTINGS))
    ss.setdefault(P + "sga_mode", "sweep")
    ss.setdefault(P + "show_slack", False)
    ss.setdefault(P + "show_alpha", False)
    ss.setdefault(P + "speed", DEFAULT_SPEED)


# --------------------------------------------------------------------------- the run


@st.cache_data(max_entries=16, show_spinner="Running the solver and recording every step …")
def cached_run(xb: bytes, yb: bytes, skey: tuple, solver: str):
    """(StepRun, None) or (None, message): a pure function of the points and settings, run
    in a worker within the time budget (``budget.Stopped`` is raised, not cached)."""
    X = np.frombuffer(xb, dtype=np.float64).reshape(-1, 2)
    y = np.frombuffer(yb, dtype=np.int64)
    return budget.step_run(X, y, dict(skey), solver)


def run_key(xb: bytes, yb: bytes, skey: tuple, solver: str, mode: str) -> str:
    h = hashlib.blake2b(digest_size=12)
    for part in (xb, yb, repr(skey).encode(), solver.encode(), mode.encode()):
        h.update(part)
    return h.hexdigest()


# --------------------------------------------------------------------- callbacks


def _total(run, coordinate: bool) -> int:
    return S.coordinate_count(run) if coordinate else run.n_steps


def on_nav(action: str, total: int) -> None:
    ss[K_CURSOR] = S.move(ss.get(K_CURSOR, 0), action, total)
    ss[K_PLAY] = False


def on_play(total: int) -> None:
    if ss.get(K_PLAY):
        ss[K_PLAY] = False
        return
    if S.clamp(ss.get(K_CURSOR, 0), total) >= total:
        ss[K_CURSOR] = 0
    ss[K_PLAY] = True
    ss[K_TICK] = None  # the clock starts on the first run: the press itself takes no step


def on_jump(events: np.ndarray, what: str) -> None:
    nxt = S.next_event(events, ss.get(K_CURSOR, 0))
    ss[K_PLAY] = False
    if nxt is None:
        ss[K_MSG] = f"No further {what} in the recorded run."
    else:
        ss[K_CURSOR] = nxt


# ------------------------------------------------------------------------ drawing


def chart(fig: dict, key: str) -> None:
    # redrawn in place with Plotly.react (st.plotly_chart would remount it on every step)
    step_plot(fig, key=key, config=PLOT_CONFIG)


def controls(run, total: int, coordinate: bool, unit: str) -> None:
    events = S.event_steps(run, coordinate)
    what = "change of the violator set" if run.solver == "newton" else "α hitting 0 or C"
    playing = bool(ss.get(K_PLAY))
    cols = st.columns([1, 1, 1, 1, 1.1, 1.4, 2.2], vertical_alignment="bottom")
    cols[0].button(
        "First",
        key=P + "first",
        icon=":material/first_page:",
        on_click=on_nav,
        args=("first", total),
        width="stretch",
    )
    cols[1].button(
        "Prev",
        key=P + "prev",
        icon=":material/navigate_before:",
        shortcut="Left",
        on_click=on_nav,
        args=("prev", total),
        width="stretch",
    )
    cols[2].button(
        "Next",
        key=P + "next",
        icon=":material/navigate_next:",
        shortcut="Right",
        on_click=on_nav,
        args=("next", total),
        width="stretch",
        type="primary",
    )
    cols[3].button(
        "Last",
        key=P + "last",
        icon=":material/last_page:",
        on_click=on_nav,
        args=("last", total),
        width="stretch",
    )
    cols[4].button(
        "Pause" if playing else "Play",
        key=P + "play",
        icon=":material/pause:" if playing else ":material/play_arrow:",
        shortcut="P",
        on_click=on_play,
        args=(total,),
        width="stretch",
        disabled=total == 0,
    )
    cols[5].selectbox("Speed", list(SPEEDS), key=P + "speed")
    cols[6].button(
        "Next bound change" if run.solver != "newton" else "Next violator change",
        key=P + "jump",
        icon=":material/redo:",
        shortcut="J",
        on_click=on_jump,
        args=(events, what),
        width="stretch",
        help=f"Jump to the next {unit} where an {what}"
        if run.solver != "newton"
        else f"Jump to the next {unit} where the violators yᵢh(xᵢ) < 1 change",
        disabled=S.next_event(events, ss.get(K_CURSOR, 0)) is None,
    )
    if total > 0:
        # No key, value = the cursor: the widget is a new one whenever the cursor moved, so a
        # value the browser sends for an older position (a play tick or a quick click racing
        # the redraw) is dropped instead of pulling the cursor back.
        k = S.clamp(ss.get(K_CURSOR, 0), total)
        picked = st.slider(f"{unit} k", 0, total, value=k)
        if picked != k:
            ss[K_CURSOR] = picked
            ss[K_PLAY] = False
            st.rerun()  # the buttons above were drawn for the old step; a playing timer stops


def fmt_list(v: np.ndarray) -> str:
    return "(" + ", ".join(W.num(x) for x in np.asarray(v, dtype=float)) + ")"


def numbers_panel(run, stt) -> None:
    rows = [("b", W.num(stt.b, 6))]
    if stt.w is not None:
        rows.insert(0, ("w", fmt_list(stt.w)))
        rows.append(("hyperplane", _equation(stt.w, stt.b)))
    rows += [
        ("dual objective", W.num(stt.dual, 8)),
        ("primal objective", W.num(stt.primal, 8) if math.isfinite(stt.primal) else "∞"),
        ("max KKT violation" if run.solver != "newton" else "‖∇J(w)‖", W.num(stt.kkt)),
        (
            f"points violating KKT (> {W.num(S.KKT_TOL)})"
            if run.solver != "newton"
            else "violators yᵢh(xᵢ) < 1",
            str(len(stt.violators)),
        ),
        ("support vectors (α > 0)", str(len(stt.model.support))),
    ]
    st.table(pd.DataFrame(rows, columns=["quantity", "value"]).set_index("quantity"))


def _equation(w, b) -> str:
    parts = [f"{W.num(w[0])}·x1"]
    for k in range(1, len(w)):
        parts.append(f" {'−' if w[k] < 0 else '+'} {W.num(abs(w[k]))}·x{k + 1}")
    parts.append(f" {'−' if b < 0 else '+'} {W.num(abs(b))} = 0")
    return "".join(parts)


def alpha_table(run, stt) -> None:
    # built only on request: a table of n rows on every step slows stepping down
    label = f"Show every α after this {run.step_name} (with h(x), category) as a table"
    if st.toggle(label, key=P + "show_alpha"):
        df = pd.DataFrame(
            {
                "x1": run.X[:, 0],
                "x2": run.X[:, 1],
                "y": run.y.astype(int),
                "α": stt.alpha,
                "h(x)": stt.model.h_train,
                "KKT violation": stt.violation,
                "category": stt.model.category,
            },
            index=pd.RangeIndex(1, run.n + 1, name="i"),
        )
        st.dataframe(df, key=P + "alpha_table", height=300)


def draw(run, k: int, coordinate: bool, unit: str, ranges, uirev: str) -> None:
    """SGA and Newton: step k drawn on the server (SMO: the step player)."""
    total = _total(run, coordinate)
    show_slack = bool(ss.get(P + "show_slack"))
    if coordinate:
        stt, crec = S.coordinate_state(run, k)
        t, kk = S.coordinate_position(run, k)
        prev = S.coordinate_state(run, k - 1)[0].model if k > 0 else None
        pair = [kk] if k > 0 else []
        labels = ("k",)
        xpos = (t - 1) + (kk + 1) / run.n if k > 0 else 0.0
    else:
        stt = S.state_at(run, k)
        crec = None
        prev = S.prev_model(run, k)
        pair = []
        labels = ()
        xpos = float(k)
    top = st.columns([1.0, 4.0], vertical_alignment="center")
    top[0].metric(unit.capitalize(), f"{k} / {total}")
    with top[1]:
        if coordinate and k > 0:
            line = (
                f"sweep {t}, k = {kk + 1}: α{W._subscript(kk + 1)} {W.num(crec['a_old'])} → "
                f"{W.num(crec['a_new'])}" + (" (clipped)" if crec["clipped"] else "")
            )
        elif k > 0:
            line = f"{len(stt.changed)} α changed in this {unit}"
        else:
            line = "the start: α = 0. Press **Next** (or the → key) to take a step."
        st.markdown(f"### {line}")
    left, right = st.columns([1.15, 1.0], gap="medium")
    with left:
        fig = F.step_decision_figure(
            stt,
            prev,
            pair=pair,
            pair_labels=labels,
            x_range=ranges[0],
            y_range=ranges[1],
            show_slack=show_slack,
            height=560,
            uirevision=uirev,
            violator_label="yᵢh(xᵢ) < 1" if run.solver == "newton" else "violates KKT",
            step=k,
            resolution=DECISION_GRID,
            legend=False,
        )
        chart(fig, P + "fig.decision")
        st.caption(W.decision_key(run.solver, coordinate))
    with right:
        if coordinate:
            if k > 0:
                chart(F.coordinate_figure(crec, height=260), P + "fig.coord")
                st.latex(W.latex_block(W.sga_coordinate_formulas(crec)))
            else:
                st.info("Each step updates one αₖ (slide 33, lines 12–14). Press **Next**.")
        elif run.solver == "sga":
            st.markdown(W.SGA_SWEEP_TEXT)
            if k > 0:
                st.markdown(
                    f"‖αₜ − αₜ₋₁‖ = **{W.num(run.detail['delta_norm'][k])}** "
                    f"(ε = {W.num(run.model.tol)})"
                )
        else:
            st.markdown(W.NEWTON_TEXT)
            if k > 0:
                nl = W.newton_lines(stt.record)
                st.table(pd.DataFrame(nl, columns=["quantity", "value"]).set_index("quantity"))
        numbers_panel(run, stt)
    bars_title = f"α after this {unit}" + (
        " (changed entries in green, old value marked)" if len(stt.changed) else ""
    )
    chart(
        F.alpha_bars_figure(
            stt.alpha,
            run.y,
            stt.changed,
            alpha_before=stt.alpha_before,
            C=run.C_box,
            title=bars_title,
            height=320,
            step=k,
        ),
        P + "fig.alpha",
    )
    if run.solver == "sga":
        kkt_name = "max KKT violation"
        extra, extra_name = run.detail["delta_norm"], "‖αₜ − αₜ₋₁‖"
        tol, tol_name = run.model.tol, "ε"
    else:
        kkt_name = "‖∇J(w)‖"
        extra, extra_name = run.detail["step_norm"], "‖wₜ − wₜ₋₁‖"
        tol, tol_name = run.model.tol, "ε"
    current = (stt.dual, stt.primal, stt.kkt) if coordinate else None
    chart(
        F.curves_figure(
            run.dual,
            run.primal,
            run.kkt,
            xpos,
            step_name=run.step_name,
            kkt_name=kkt_name,
            tol=tol,
            tol_name=tol_name,
            extra=extra,
            extra_name=extra_name,
            current=current,
            height=440,
        ),
        P + "fig.curves",
    )
    alpha_table(run, stt)


# ------------------------------------------------------------- SMO: the step player


@st.cache_data(max_entries=16, show_spinner=False)
def cached_payload(xb: bytes, yb: bytes, skey: tuple, solver: str, rid: str, ranges: tuple):
    """The player's payload for a run (pure: a function of the run and the view)."""
    run, _ = cached_run(xb, yb, skey, solver)
    return SP.player_payload(
        run, rid, x_range=ranges[0], y_range=ranges[1], resolution=DECISION_GRID
    )


def smo_player(run, rid: str, payload_args: tuple) -> None:
    """Mount the player; the payload travels only when this session has not sent it (or the
    element asked for it again)."""
    need = (ss.get(P + "player") or {}).get("need")
    send, ss[K_NEED] = SP.must_send(ss.get(K_SENT), rid, need, int(ss.get(K_NEED, 0)))
    data = SP.player_data(
        rid,
        cached_payload(*payload_args) if send else None,
        start=S.clamp(ss.get(K_CURSOR, 0), run.n_steps),
        show_slack=bool(ss.get(P + "show_slack")),
        need_seen=int(ss[K_NEED]),
    )
    SP.step_player(data, key=P + "player")
    if send:
        ss[K_SENT] = rid


@st.fragment
def smo_panels(run, rid: str) -> None:
    """The server's panels for the step the player reported (they follow it)."""
    T = run.n_steps
    k = SP.parse_step((ss.get(P + "sync") or {}).get("step"), rid, T)
    if k is None:  # no report for this run yet
        k = S.clamp(ss.get(K_CURSOR, 0), T)
    ss[K_CURSOR] = k
    SP.step_listener(key=P + "sync", run_id=rid, k=k)
    stt = S.state_at(run, k)
    head = W.smo_summary(stt.record) if k > 0 else "the start, α = 0"
    st.markdown(f"#### Numbers of step {k:,} / {T:,}: {head}")
    st.caption(
        "These panels follow the player a moment after each step (while it plays fast, "
        "when it pauses)."
    )
    if k == 0:
        left, right = st.columns([1, 1.4], gap="medium")
        with left:
            numbers_panel(run, stt)
        right.info(
            "Each step shows here why SMO chose its pair (i, j) and the two-variable update "
            "with this step's numbers (η, Eᵢ, Eⱼ, L, H, the clipping)."
        )
    else:
        nums, why = st.columns([1, 1.25], gap="medium")
        with nums:
            st.subheader("The state after this step")
            numbers_panel(run, stt)
        with why:
            st.subheader("Why this pair")
            sel = S.selection_numbers(run, k)
            st.markdown(W.smo_why(sel, stt.record, run.model.tol))
            cands = W.candidates_rows(stt.record)
            if cands:
                st.caption("Second-order gains of the best candidates j (LIBSVM's WSS 2):")
                st.table(pd.DataFrame(cands).set_index("j"))
        # the formulas are wide: the whole width
        st.subheader("The two-variable update")
        st.latex(W.latex_block(W.smo_formulas(stt.record)))
        st.caption(
            "Platt (1998), as in seed 004 (which writes η = 2K₁₂ − K₁₁ − K₂₂ and E₂ − E₁: "
            "the same update). Eₜ uses h before the step."
        )
    alpha_table(run, stt)


# ----------------------------------------------------------------------------- page

KEPT = ("source", "gen.n", "gen.noise", "gen.seed", "solver", "kernel", "degree", "coef0",
        "sigma", "loss", "hard_margin", "C", "wss", "bias", "sga_mode", "show_slack",
        "show_alpha", "speed")  # the settings a visit to another page must not reset
restore_widgets(ss, P)
keep_widgets(ss, P, KEPT)
init_widgets()
try:
    X, y, title = sidebar_data()
except ValueError as exc:
    st.error(f"Could not load the dataset: {exc}")
    st.stop()
settings, solver = sidebar_model()
coordinate = solver == "sga" and ss.get(P + "sga_mode") == "coordinate"
unit = {"smo": "step", "sga": "coordinate step" if coordinate else "sweep", "newton": "iteration"}[
    solver
]

if st.sidebar.button("Open these points in the Playground", icon=":material/scatter_plot:"):
    try:
        state.load_into_playground(ss, X, y, settings, title)
    except ValueError as exc:
        st.sidebar.error(str(exc))
    else:
        st.switch_page("pages/1_playground.py")

try:
    Xv, yv = state.validate_points(X, y)
    skey = tuple(sorted(S.step_settings(settings, solver).items()))
except ValueError as exc:
    st.error(str(exc))
    st.stop()
xb, yb = Xv.astype(np.float64).tobytes(), yv.astype(np.int64).tobytes()
try:
    run, error = cached_run(xb, yb, skey, solver)
except budget.Stopped as exc:  # over the time budget: the message says what to change
    run, error = None, str(exc)

kernel_text = {
    "linear": "linear",
    "polynomial": f"polynomial q = {settings['degree']}, c = {settings['coef0']:g}",
    "gaussian": f"Gaussian σ = {settings['sigma']:g}",
}[settings["kernel"]]
C_text = "∞ (hard margin)" if settings["hard_margin"] else f"{settings['C']:g}"
st.markdown(
    f"**{title}** · n = {len(Xv)} · {SOLVER_LABELS[solver]} · kernel {kernel_text} · "
    f"C = {C_text} · loss {'quadratic' if solver == 'newton' else settings['loss']}"
)
if error:
    st.error(error)
    st.stop()

key = run_key(xb, yb, skey, solver, "coordinate" if coordinate else "sweep")
if ss.get(K_RUN) != key:
    ss[K_RUN] = key
    ss[K_CURSOR] = 0
    ss[K_PLAY] = False

summary = (
    f"The run took **{run.n_iter:,}** {run.step_name}s"
    + (f" (working-set rule: {WSS_LABELS[run.wss]})" if run.wss else "")
    + (": converged." if run.model.converged else ".")
)
st.markdown(summary)
if run.final is not None and run.final.converged:
    st.caption(W.polish_text(run.model, run.final))
if run.truncated:
    st.warning(
        f"This run took {run.n_iter:,} {run.step_name}s; the trace keeps the first "
        f"{S.TRACE_CAP:,}, so stepping stops at {run.step_name} {run.n_steps:,}. The final "
        "model (after every step) is the one the Playground shows."
    )
if run.warning:
    st.warning(run.warning[:1].upper() + run.warning[1:])
if run.n_steps == 0:
    st.info("The starting point already satisfies the stopping rule: there is nothing to step.")

ranges = state.default_range(Xv)
playing_now = bool(ss.get(K_PLAY))
speed_now = ss.get(P + "speed", DEFAULT_SPEED)
interval, stride = SPEEDS.get(speed_now, SPEEDS[DEFAULT_SPEED])


@st.fragment(run_every=interval if playing_now and solver != "smo" else None)
def stepper() -> None:
    # play/pause and the speed are fixed when the fragment is defined: rerun the page
    # when they changed so the timer starts, stops or changes pace
    if bool(ss.get(K_PLAY)) != playing_now or (
        playing_now and ss.get(P + "speed", DEFAULT_SPEED) != speed_now
    ):
        st.rerun()
    total = _total(run, coordinate)
    if playing_now:
        now = time.monotonic()
        if ss.get(K_TICK) is None:
            ss[K_TICK] = now
        elif now - float(ss[K_TICK]) >= 0.5 * interval:
            ss[K_TICK] = now
            ss[K_CURSOR], keep = S.play_tick(ss.get(K_CURSOR, 0), total, stride)
            if not keep:
                ss[K_PLAY] = False
                st.rerun()
    msg = ss.pop(K_MSG, None)
    if msg:
        st.toast(msg)
    controls(run, total, coordinate, unit)
    k = S.clamp(ss.get(K_CURSOR, 0), total)
    ss[K_CURSOR] = k
    draw(run, k, coordinate, unit, ranges, key)


if solver == "smo":
    smo_player(run, key, (xb, yb, skey, solver, key, ranges))
    smo_panels(run, key)
else:
    stepper()
