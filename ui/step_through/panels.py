"""The Step-through page's panels (streamlit): what ``pages/3_step_through.py`` draws below
its summary, for a recorded run.

SMO steps in the browser: ``smo_player`` mounts the step player (``ui.step_through.player``),
which keeps the controls and redraws a step itself; ``smo_panels`` (a fragment) shows the
numbers, why this pair, the formulas and the α table of the step it reports. SGA and Newton
step on the server: ``server_stepper`` (a fragment that ticks while playing) draws the
controls and the charts (the ``*_figure(s)`` modules through ``ui.step_through.plot``).
What to show is decided in ``ui.step_through.view`` and ``.text`` (pure, tested); the page's
AppTests (tests/test_page_step_through.py) read what these panels show.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from ui.shared.chart import CHART_CONFIG
from ui.shared.cite import cite
from ui.shared.labels import SOLVER_NAMES
from ui.step_through import cursor, snapshot
from ui.step_through import player as SP
from ui.step_through import text as W
from ui.step_through import view as V
from ui.step_through.bars_figure import alpha_bars_figure
from ui.step_through.coordinate_figure import coordinate_figure
from ui.step_through.curves_figure import curves_figure
from ui.step_through.decision_figures import step_decision_figure
from ui.step_through.page_state import StepThrough
from ui.step_through.plot import step_plot

K = StepThrough.widget_key


def chart(fig: dict, key: str, settings: str, title: str | None = None) -> None:
    # redrawn in place with Plotly.react (st.plotly_chart would remount it on every step); its
    # saved image is titled ``title``, or else by the figure's own title
    step_plot(fig, key=key, config=CHART_CONFIG, title=title, settings=settings)


def numbers_panel(run, stt) -> None:
    st.table(pd.DataFrame(W.numbers_rows(run, stt), columns=["quantity", "value"])
             .set_index("quantity"))


def alpha_table(run, stt) -> None:
    # built only on request: a table of n rows on every step slows stepping down
    label = f"Show every α after this {run.step_name} (with h(x), category) as a table"
    if st.toggle(label, key=K("show_alpha")):
        st.dataframe(V.alpha_frame(run, stt), key=K("alpha_table"), height=300)


# ------------------------------------------------------------- SGA and Newton: the server


def _on_nav(action: str, total: int) -> None:
    sp = StepThrough.of(st.session_state)
    sp.cursor, sp.playing = cursor.move(sp.cursor, action, total), False


def _on_play(total: int) -> None:
    sp = StepThrough.of(st.session_state)
    if sp.playing:
        sp.playing = False
        return
    if cursor.clamp(sp.cursor, total) >= total:
        sp.cursor = 0
    sp.playing = True
    sp.last_tick = None  # the clock starts on the first run: the press itself takes no step


def _on_jump(events: np.ndarray, what: str) -> None:
    sp = StepThrough.of(st.session_state)
    nxt = cursor.next_event(events, sp.cursor)
    sp.playing = False
    if nxt is None:
        sp.message = f"No further {what} in the recorded run."
    else:
        sp.cursor = nxt


NAV_BUTTONS = (("first", "first_page", None), ("prev", "navigate_before", "Left"),
               ("next", "navigate_next", "Right"), ("last", "last_page", None))


def controls(run, total: int, coordinate: bool, unit: str) -> None:
    sp = StepThrough.of(st.session_state)
    events = cursor.event_steps(run, coordinate)
    jump, jump_help, what = W.jump_texts(run.solver, unit, not np.isfinite(run.C_box))
    playing = sp.playing
    cols = st.columns([1, 1, 1, 1, 1.1, 1.4, 2.2], vertical_alignment="bottom")
    for col, (action, icon, shortcut) in zip(cols[:4], NAV_BUTTONS, strict=True):
        col.button(action.capitalize(), key=K(action), icon=f":material/{icon}:",
                   shortcut=shortcut, on_click=_on_nav, args=(action, total), width="stretch",
                   type="primary" if action == "next" else "secondary")
    # no letter shortcuts (P, J): Streamlit's fire page-wide, wherever focus is (WCAG 2.1.4)
    cols[4].button("Pause" if playing else "Play", key=K("play"),
                   icon=":material/pause:" if playing else ":material/play_arrow:",
                   on_click=_on_play, args=(total,), width="stretch", disabled=total == 0)
    cols[5].selectbox("Speed", list(V.SPEEDS), key=K("speed"))
    cols[6].button(jump, key=K("jump"), icon=":material/redo:", on_click=_on_jump,
                   args=(events, what), width="stretch", help=jump_help,
                   disabled=cursor.next_event(events, sp.cursor) is None)
    if total > 0:
        # No key, value = the cursor: the widget is a new one whenever the cursor moved, so a
        # value the browser sends for an older position (a play tick or a quick click racing
        # the redraw) is dropped instead of pulling the cursor back.
        k = cursor.clamp(sp.cursor, total)
        picked = st.slider(f"{unit} k", 0, total, value=k)
        if picked != k:
            sp.cursor, sp.playing = picked, False
            st.rerun()  # the buttons above were drawn for the old step; a playing timer stops


def draw(run, k: int, coordinate: bool, unit: str, ranges, uirev: str, about: str = "") -> None:
    """SGA and Newton: step k drawn on the server (``about``: the points and the model, for
    the charts' saved images)."""
    v = V.step_view(run, k, coordinate)
    stt = v.state
    words = " · ".join(filter(None, (about, f"{unit} {k} of {V.total_steps(run, coordinate)}")))
    top = st.columns([1.0, 4.0], vertical_alignment="center")
    top[0].metric(unit.capitalize(), f"{k} / {V.total_steps(run, coordinate)}")
    top[1].markdown(f"## {W.headline(v, unit)}")  # h2: under the h1
    left, right = st.columns([1.15, 1.0], gap="medium")
    with left:
        chart(step_decision_figure(
            stt, v.prev, pair=v.pair, pair_labels=v.pair_labels, x_range=ranges[0],
            y_range=ranges[1], show_slack=bool(st.session_state.get(K("show_slack"))),
            height=560, uirevision=uirev, step=k, resolution=V.DECISION_GRID, legend=False,
            violator_label="yᵢh(xᵢ) < 1" if run.solver == "newton" else "violates KKT",
        ), K("fig.decision"), words, f"{SOLVER_NAMES[run.solver]}: the decision function h(x)")
        st.caption(W.decision_key(run.solver, coordinate, open_box=not np.isfinite(run.C_box)))
    with right:
        if coordinate and k > 0:
            chart(coordinate_figure(v.coord, height=260), K("fig.coord"), words,
                  "SGA: one coordinate αₖ, clipped to [0, C]" if np.isfinite(run.C_box)
                  else "SGA: one coordinate αₖ, clipped at 0 (no upper bound)")
        elif coordinate:
            st.info("Each step updates one αₖ (slide 33, lines 12–14). Press **Next**.")
        elif run.solver == "sga":
            st.markdown(W.sga_sweep_text(run))
            if note := W.sga_clip_note(run.loss, run.C):
                st.caption(note)
            if k > 0:
                st.markdown(W.sga_sweep_numbers(run, k))
        else:
            st.markdown(W.newton_text(run))
            if k > 0:
                st.table(pd.DataFrame(W.newton_lines(stt.record, run, k),
                                      columns=["quantity", "value"]).set_index("quantity"))
        numbers_panel(run, stt)
    if coordinate and k > 0:  # the formulas are wide: the whole width
        st.latex(W.latex_block(W.sga_coordinate_formulas(v.coord)))
        if note := W.sga_clip_note(run.loss, run.C):
            st.caption(note)
    title = f"α after this {unit}" + (
        " (changed entries in green, old value marked)" if len(stt.changed) else "")
    chart(alpha_bars_figure(stt.alpha, run.y, stt.changed, alpha_before=stt.alpha_before,
                              C=run.C_box, title=title, height=320, step=k), K("fig.alpha"),
          words)
    chart(curves_figure(run.dual, run.primal, run.kkt, v.xpos, step_name=run.step_name,
                          current=(stt.dual, stt.primal, stt.kkt) if coordinate else None,
                          height=440, **V.curves_names(run)), K("fig.curves"), words,
          f"{SOLVER_NAMES[run.solver]}: convergence, {run.step_name} by {run.step_name}")
    alpha_table(run, stt)


def server_stepper(run, coordinate: bool, unit: str, ranges, rid: str, about: str = "") -> None:
    """The controls and charts of SGA and Newton in a fragment that ticks while playing
    (``about``: the points and the model, for the charts' saved images)."""
    ss = st.session_state
    sp = StepThrough.of(ss)
    playing = sp.playing
    speed = ss.get(K("speed"), V.DEFAULT_SPEED)
    interval, stride = V.SPEEDS.get(speed, V.SPEEDS[V.DEFAULT_SPEED])

    @st.fragment(run_every=interval if playing else None)
    def stepper() -> None:
        # play/pause and the speed are fixed when the fragment is defined: rerun the page
        # when they changed so the timer starts, stops or changes pace
        if sp.playing != playing or (
                playing and ss.get(K("speed"), V.DEFAULT_SPEED) != speed):
            st.rerun()
        total = V.total_steps(run, coordinate)
        if playing:
            sp.cursor, sp.last_tick, keep = V.timer_tick(
                sp.cursor, sp.last_tick, time.monotonic(), interval, total, stride)
            if not keep:
                sp.playing = False
                st.rerun()
        msg, sp.message = sp.message, None
        if msg:
            st.toast(msg)
        controls(run, total, coordinate, unit)
        k = sp.cursor = cursor.clamp(sp.cursor, total)
        draw(run, k, coordinate, unit, ranges, rid, about)

    stepper()


# ------------------------------------------------------------- SMO: the step player


def smo_player(run, rid: str, payload: Callable[[], dict], about: str = "") -> None:
    """Mount the player; ``payload()`` (cached) travels only when this session has not sent
    it for this run (or the element asked for it again). ``about``: the points and the model,
    for the charts' saved images."""
    ss = st.session_state
    sp = StepThrough.of(ss)
    need = (ss.get(K("player")) or {}).get("need")
    send, sp.need_seen = SP.must_send(sp.payload_sent, rid, need, sp.need_seen)
    data = SP.player_data(rid, payload() if send else None,
                          start=cursor.clamp(sp.cursor, run.n_steps),
                          show_slack=bool(ss.get(K("show_slack"))), need_seen=int(sp.need_seen),
                          settings=about)
    SP.step_player(data, key=K("player"))
    if send:
        sp.payload_sent = rid


@st.fragment
def smo_panels(run, rid: str) -> None:
    """The server's panels for the step the player reported (they follow it)."""
    ss = st.session_state
    T = run.n_steps
    k = SP.parse_step((ss.get(K("sync")) or {}).get("step"), rid, T)
    if k is None:  # no report for this run yet
        k = cursor.clamp(StepThrough.of(ss).cursor, T)
    StepThrough.of(ss).cursor = k
    SP.step_listener(key=K("sync"), run_id=rid, k=k)
    stt = snapshot.state_at(run, k)
    head = W.smo_summary(stt.record) if k > 0 else "the start, α = 0"
    st.markdown(f"## Numbers of step {k:,} / {T:,}: {head}")  # h2: under the h1
    st.caption("These panels follow the player a moment after each step (while it plays fast, "
               "when it pauses).")
    if k == 0:
        left, right = st.columns([1, 1.4], gap="medium")
        with left:
            numbers_panel(run, stt)
        right.info("Each step shows here why SMO chose its pair (i, j) and the two-variable "
                   "update with this step's numbers (η, Eᵢ, Eⱼ, L, H, the clipping).")
    else:
        nums, why = st.columns([1, 1.25], gap="medium")
        with nums:
            st.subheader("The state after this step")
            numbers_panel(run, stt)
        with why:
            st.subheader("Why this pair")
            st.markdown(W.smo_why(snapshot.selection_numbers(run, k), stt.record, run.model.tol))
            cands = W.candidates_rows(stt.record)
            if cands:
                st.caption("Second-order gains of the best candidates j (LIBSVM's WSS 2):")
                st.table(pd.DataFrame(cands).set_index("j"))
        # the formulas are wide: the whole width
        st.subheader("The two-variable update")
        st.latex(W.latex_block(W.smo_formulas(stt.record)))
        st.caption(f"Platt (1998), as in {cite('kkt')} (which writes η = 2K₁₂ − K₁₁ − K₂₂ "
                   "and E₂ − E₁: the same update). Eₜ uses h before the step.")
    alpha_table(run, stt)
