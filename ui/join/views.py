"""The Join page's parts (Streamlit): the join form, one screen of the class (its picture, its
answer form, what the student is told), and the watch that follows the teacher (pace, pause,
reveal, the answer shown to the class). Every decision is in ``ui.join.flow`` (plain Python,
tested); every text a user typed is shown as plain text (``markdown_safe``)."""

from __future__ import annotations

import functools
import time

import streamlit as st

from ui.classroom import figures as CF
from ui.classroom.model import NICKNAME_MAX, AnswerRow, ClassState, Seat, Task
from ui.classroom.store import ClassNotFound, Store, StoreUnavailable, get_store
from ui.join import flow
from ui.join.page_state import Join
from ui.shared import click_plot, poll
from ui.shared.chart import show_chart
from ui.shared.markdown import markdown_safe

P = Join.PREFIX  # widget keys of this page
# how often a student's page asks whether the teacher changed something (200 pages: 50 small
# fragment runs a second; at 3 s they took half of the answers' time, bench_live_class.py)
WATCH_S = 4.0


def say(said: flow.Said | None) -> None:
    if said is not None:
        getattr(st, said.level)(markdown_safe(said.text))


def join_form(ss, store: Store) -> None:
    ss.setdefault(P + "code", flow.clean_code(st.query_params.get("code", "")))
    with st.form(P + "form"):
        st.text_input("Class code", key=P + "code", max_chars=flow.CODE_LEN + 4,
                      placeholder="e.g. K7QF2M")
        st.text_input("Nickname", key=P + "nick", max_chars=NICKNAME_MAX,
                      help="The only thing stored about you: no account, no e-mail. "
                      "Your teacher sees it (or a number, when names are hidden).")
        pressed = st.form_submit_button("Join", type="primary")
    if pressed:
        said = flow.join(ss, store, ss.get(P + "code"), ss.get(P + "nick"), time.time())
        if flow.seat_of(ss) is None:
            say(said)
            return
        code, seat = flow.seat_of(ss)
        # in the address bar: a reload, or a new session after this server went away,
        # finds the same seat (flow.rejoin)
        st.query_params.update({"code": code, "seat": seat.token})
        st.rerun()


def _signature(state: ClassState) -> tuple:
    shown = None if state.shown is None else (state.shown.screen, state.shown.summary,
                                              state.shown.name)
    return (state.pace, state.paused, tuple(sorted(state.revealed)), state.anonymise, shown,
            len(state.activity.screens))


def _watch(code: str) -> None:
    ss = st.session_state

    def probe():
        store = get_store()
        try:
            sig = _signature(store.class_state(code))
            # "here now" on the dashboard (rarely written)
            store.touch(code, flow.seat_of(ss)[1].token)
        except ClassNotFound:
            return "ended"
        except StoreUnavailable:
            return poll.NO_ANSWER  # asked again at the next tick
        return sig

    poll.rerun_on_change(probe, drawn=Join.of(ss).drawn, every_s=WATCH_S)


def class_view(ss, store: Store) -> None:
    code, seat = flow.seat_of(ss)
    try:
        state = store.class_state(code)
    except ClassNotFound:
        Join.of(ss).drawn = "ended"
        st.warning(f"The class {code} has ended. Thank you!")
        if st.button("Join another class"):
            Join.of(ss).seat = None
            st.query_params.clear()
            st.rerun()
        _watch(code)
        return
    except StoreUnavailable:
        st.error("The class's database cannot be reached just now: this page tries again "
                 "in a few seconds.")
        _watch(code)
        return
    Join.of(ss).drawn = _signature(state)
    st.header(markdown_safe(state.title))
    st.caption(markdown_safe(f"You are {seat.nickname} in class {code}."))
    if state.paused:
        st.warning("Your teacher paused the class: look up.", icon=":material/pause:")
    if state.shown is not None:
        s = state.shown
        st.info(markdown_safe(f"On the projector: {s.name}'s answer to screen {s.screen + 1}: "
                              f"{s.summary}"), icon=":material/co_present:")
    screens = flow.open_screens(state)
    if not screens:
        st.info("Wait for your teacher to open the first screen.")
        _watch(code)
        return
    _screens(state, seat)
    _watch(code)


@st.fragment
def _screens(state: ClassState, seat: Seat) -> None:
    """The screen chooser and the open screen: a fragment, so that choosing a screen, marking
    a point and submitting rerun only this part (``state`` is at most one watch old: the
    watch reruns the whole page when the teacher changes something, and the store itself
    refuses an answer to a closed screen or in a pause)."""
    ss, store = st.session_state, get_store()
    code = flow.seat_of(ss)[0]
    screens = flow.open_screens(state)
    titles = [s.title for s in state.activity.screens]
    if ss.get(P + "screen") not in screens:
        ss[P + "screen"] = screens[-1] if ss.get(P + "screen") is not None else 0
    k = st.radio(f"Screen (of {len(titles)})", list(screens), key=P + "screen",
                 horizontal=True, format_func=lambda i: f"{i + 1}. {titles[i]}")
    try:
        row = store.my_answers(code, seat.token).get(k)
    except (ClassNotFound, *StoreUnavailable):  # StoreUnavailable is a tuple of classes
        row = None  # the watch says why on its next tick
    screen_view(ss, store, state, seat, k, row)


def screen_view(ss, store: Store, state: ClassState, seat: Seat, k: int,
                row: AnswerRow | None) -> None:  # fmt: skip
    task = flow.task_for(state, seat, k)
    st.markdown(markdown_safe(task.prompt))
    st.caption(markdown_safe(f"Practises: {task.slide}"))
    picture(ss, task, k)
    with st.form(P + f"answer.{k}"):
        raw = answer_widgets(ss, task, k)
        pressed = st.form_submit_button("Submit", type="primary", disabled=state.paused)
    if pressed:
        say(flow.submit(ss, store, state, k, raw(), time.time()))
    else:
        said = Join.of(ss).said.get(k)
        say(said if said is not None else flow.last_answer_said(row, task, state, k))


def picture(ss, task: Task, k: int) -> None:
    if not task.X:
        return
    if task.form in ("points", "point"):
        key = P + f"plot.{k}"
        marked = ss.get(P + f"marked.{k}", []) if task.form == "points" else ()
        placed = _placed(ss, task, k) if task.form == "point" else None
        fig = CF.task_figure(task, marked=marked, placed=placed)
        click_plot.click_plot(fig, key=key, on_click=functools.partial(_on_click, task, k),
                              title=task.prompt[:80], settings=task.slide)
        st.caption("Tap or click the plot: " + ("a point to mark or unmark it (or choose "
                   "the points below)." if task.form == "points" else
                   "where your point goes (or type its coordinates below).")
                   + " " + click_plot.KEYS_HINT)
    else:
        show_chart(CF.task_figure(task), key=P + f"chart.{k}", title=task.prompt[:80],
                   settings=task.slide)


def _on_click(task: Task, k: int) -> None:
    ss = st.session_state
    xr, yr = CF.ranges(task)
    xy = click_plot.parse_click(ss.get(P + f"plot.{k}"), xr, yr)
    if xy is None:
        return
    if task.form == "points":
        i = CF.nearest(task, xy)
        if i is not None:
            marked = set(ss.get(P + f"marked.{k}", []))
            ss[P + f"marked.{k}"] = sorted(marked ^ {i})
    else:
        ss[P + f"px.{k}"], ss[P + f"py.{k}"] = round(xy[0], 2), round(xy[1], 2)


def _placed(ss, task: Task, k: int):
    x, y = ss.get(P + f"px.{k}"), ss.get(P + f"py.{k}")
    if x is None or y is None:
        return None
    return (x, y), int(task.data.get("label", ss.get(P + f"label.{k}", 1)))


def answer_widgets(ss, task: Task, k: int):
    """The answer form's widgets; returns a function giving the raw answer (read after the
    form was submitted)."""
    if task.form == "points":
        st.multiselect("Your points", list(range(len(task.X))), key=P + f"marked.{k}",
                       format_func=lambda i: f"x{i + 1}", placeholder="none yet")
        return lambda: {"points": list(ss.get(P + f"marked.{k}", []))}
    if task.form == "number":
        st.text_input(markdown_safe(f"Your answer{f' ({task.unit})' if task.unit else ''}")
                      if task.unit else "Your answer", key=P + f"value.{k}", max_chars=60,
                      placeholder="e.g. 0.71")
        return lambda: {"value": ss.get(P + f"value.{k}", "")}
    if task.form == "choice":
        st.radio("Your answer", list(range(len(task.choices))), key=P + f"choice.{k}",
                 index=None, format_func=lambda i: markdown_safe(task.choices[i]))
        return lambda: {"choice": ss.get(P + f"choice.{k}")}
    lo, hi = task.bounds
    if task.form == "control":
        step = 1.0 if task.control == "degree" else None
        st.number_input(f"Your {task.control}", min_value=lo, max_value=hi, step=step,
                        key=P + f"control.{k}", value=None)
        return lambda: {"value": ss.get(P + f"control.{k}")}
    c1, c2, c3 = st.columns(3)
    c1.number_input("x₁ of your point", min_value=lo, max_value=hi, key=P + f"px.{k}",
                    value=None, step=0.1)
    c2.number_input("x₂ of your point", min_value=lo, max_value=hi, key=P + f"py.{k}",
                    value=None, step=0.1)
    if "label" not in task.data:
        c3.radio("its class", [1, -1], key=P + f"label.{k}", horizontal=True,
                 format_func=lambda v: "+1" if v > 0 else "−1")

    def raw() -> dict:
        x, y = ss.get(P + f"px.{k}"), ss.get(P + f"py.{k}")
        out = {"x": None if x is None or y is None else [x, y]}
        if "label" not in task.data:
            out["label"] = ss.get(P + f"label.{k}", 1)
        return out
    return raw
