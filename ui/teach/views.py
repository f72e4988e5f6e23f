"""The Teach page's parts (Streamlit): starting a class from an activity, reopening one with
its key, the code and the join link for the projector, the teacher's controls, and the live
dashboard (a fragment rerun every ``DASH_S`` seconds). What it shows is computed in
``ui.teach.summary`` and drawn by ``ui.teach.figures``; every action goes through the store
with the teacher's key (``NotTeacher`` otherwise)."""

from __future__ import annotations

import time
from urllib.parse import urlsplit, urlunsplit

import pandas as pd
import streamlit as st

from ui.classroom import exercises
from ui.classroom.activities import READY
from ui.classroom.model import ClassState, Dashboard
from ui.classroom.store import ClassNotFound, NotTeacher, Store, StoreUnavailable, get_store
from ui.shared import class_address as CA
from ui.shared import qr
from ui.shared.chart import show_chart
from ui.shared.markdown import markdown_safe
from ui.teach import figures as TF
from ui.teach import summary as S
from ui.teach.page_state import Teach

P = Teach.PREFIX  # widget keys of this page
DASH_S = 1.0  # the dashboard's refresh: every answer is on it ≤ 2 s after its commit
NOT_TEACHER = "This needs the class's teacher key: open the class with its code and key."


def class_of(ss) -> tuple[str, str] | None:
    got = Teach.of(ss).taught
    return got if isinstance(got, tuple) and len(got) == 2 else None


def start_form(ss, store: Store, extra_screens) -> None:
    """Choose a ready activity (with the teacher's own screens added) and start the class."""
    st.header("Start a class")
    title = st.selectbox("Activity", list(READY), key=P + "activity")
    st.caption(" · ".join(f"{k + 1}. {s.title}" for k, s in enumerate(READY[title].screens)))
    screens = list(READY[title].screens) + list(extra_screens)
    if st.button("Start the class", type="primary", key=P + "start",
                 icon=":material/play_arrow:"):
        try:
            activity = type(READY[title])(READY[title].title, tuple(
                exercises.validate_screen(s) for s in screens))
            code, key = store.create_class(activity)
        except ValueError as exc:
            st.error(markdown_safe(f"The class was not started: {exc}"))
            return
        except StoreUnavailable:
            st.error("The class's database cannot be reached just now: try again.")
            return
        page = Teach.of(ss)
        page.taught, page.key_shown = (code, key), False
        st.rerun()


def open_form(ss, store: Store) -> None:
    with st.expander("Open a class you started (its code and teacher key)"):
        with st.form(P + "open"):
            code = st.text_input("Class code", key=P + "open_code", max_chars=10)
            key = st.text_input("Teacher key", key=P + "open_key", type="password",
                                max_chars=100)
            pressed = st.form_submit_button("Open the dashboard")
        if pressed:
            code = "".join(str(code).split()).upper()
            if store.is_teacher(code, key):
                page = Teach.of(ss)
                page.taught, page.key_shown = (code, key), True
                st.rerun()
            st.error("No class has this code and key.")


def join_link(code: str) -> CA.ClassBase:
    """The students' link to the Join page (the address students can open)."""
    try:
        url = (st.context.url or "").split("?", 1)[0].split("#", 1)[0]
    except Exception:  # st.context.url is unavailable outside a browser session
        url = ""
    parts = urlsplit(url)
    root = parts.path.rsplit("/", 1)[0] + "/" if parts.netloc else ""
    page = urlunsplit(parts._replace(path=root)) if parts.netloc else ""
    base = CA.class_base(page, st.session_state.get(P + "class_url") or "",
                         st.get_option("server.address"), CA.network_addresses())
    link = f"{base.url.rstrip('/')}/join_class?code={code}" if base.url else ""
    return CA.ClassBase(link, base.note, base.reachable)


def header(ss, code: str, key: str) -> None:
    st.markdown(f"## Class code: `{code}`")
    where = join_link(code)
    c1, c2 = st.columns([2, 1])
    with c1:
        st.markdown("Students open **Join a class** and type the code, or scan:")
        if where.url:
            st.code(where.url, language=None, wrap_lines=True)
        if where.note:
            (st.info if where.reachable else st.warning)(markdown_safe(where.note))
        st.text_input("Class address (optional)", key=P + "class_url",
                      placeholder="e.g. http://192.168.1.20:8501",
                      help="The address students open, when it is not the one you see.")
        if not Teach.of(ss).key_shown:
            st.warning("Your teacher key (shown once: keep it to reopen this dashboard from "
                       "another tab or computer):", icon=":material/key:")
            st.code(key, language=None)
            if st.button("I have kept it", key=P + "key_kept"):
                Teach.of(ss).key_shown = True
                st.rerun()
    with c2:
        if where.url:
            try:
                st.image(qr.png(where.url), caption="Scan to join", width=260,
                         alt=f"QR code of the class's address, {where.url}")
            except qr.QRError as exc:
                st.warning(f"No QR code: {exc}.")


def controls(ss, store: Store, code: str, key: str, state: ClassState) -> None:
    """Pace, pause, reveal, names, the answer on the projector, export, end."""
    n = len(state.activity.screens)
    titles = [f"{k + 1}. {s.title}" for k, s in enumerate(state.activity.screens)]
    predict = [k for k, s in enumerate(state.activity.screens) if s.kind == "predict"]
    # the widgets start from the class's state (another tab of this teacher may change it)
    for name, value in (("pace", state.pace), ("paused", state.paused),
                        ("anon", state.anonymise),
                        ("revealed", sorted(state.revealed & set(predict)))):
        ss.setdefault(P + name, value)
    c1, c2, c3 = st.columns(3)
    pace = c1.selectbox("Students may open", [None, *range(n)], key=P + "pace",
                        format_func=lambda k: "every screen" if k is None else
                        f"screens up to {titles[k]}")
    paused = c2.toggle("Pause everyone", key=P + "paused")
    anon = c3.toggle("Hide names on the projector", key=P + "anon")
    revealed = st.multiselect("Revealed (ends \"predict first\" for everyone)", predict,
                              format_func=lambda k: titles[k], key=P + "revealed")
    try:
        if pace != state.pace:
            store.set_pace(code, key, pace)
        if paused != state.paused:
            store.set_paused(code, key, paused)
        if anon != state.anonymise:
            store.set_anonymise(code, key, anon)
        for k in set(predict):
            if (k in revealed) != (k in state.revealed):
                store.set_revealed(code, key, k, k in revealed)
    except NotTeacher:
        st.error(NOT_TEACHER)
    except StoreUnavailable:
        st.error("The class's database cannot be reached just now: try again.")


def end_and_export(ss, store: Store, code: str, key: str) -> None:
    c1, c2 = st.columns(2)
    try:
        c1.download_button("Export the answers (CSV)", store.export_csv(code, key),
                           file_name=f"svmlab_class_{code}.csv", mime="text/csv",
                           on_click="ignore", key=P + "csv", icon=":material/download:")
    except (NotTeacher, ClassNotFound):
        c1.error(NOT_TEACHER)
    with c2.popover("End and delete the class", icon=":material/delete:"):
        st.markdown("Every student's answers are deleted; export them first.")
        if st.button("Delete the class now", type="primary", key=P + "end"):
            try:
                store.end_class(code, key)
            except (NotTeacher, ClassNotFound):
                st.error(NOT_TEACHER)
                return
            Teach.of(ss).taught = None
            st.rerun()


@st.fragment(run_every=DASH_S)
def dashboard(code: str, key: str) -> None:
    try:
        d = get_store().dashboard(code, key)
    except NotTeacher:
        st.error(NOT_TEACHER)
        return
    except ClassNotFound:
        st.warning("This class has ended.")
        return
    except StoreUnavailable:
        st.error("The class's database cannot be reached just now: the dashboard tries again.")
        return
    show_dashboard(d, code, key)


def show_dashboard(d: Dashboard, code: str, key: str) -> None:
    names = S.display_names(d)
    tasks = {k: exercises.variant(s, 0) for k, s in enumerate(d.state.activity.screens)}
    n_points = {k: len(t.X) for k, t in tasks.items() if t.form == "points"}
    summaries = S.summarise(d, n_points)
    st.metric("Joined", len(d.students),
              help=f"{S.here_now(d, time.time())} with the page open now")
    st.caption(markdown_safe("Joined: " + ", ".join(names[s.id] for s in d.students))
               if d.students else "Nobody has joined yet.")
    for s in summaries:
        with st.expander(f"{s.screen + 1}. {s.title}: {S.progress_line(s)}",
                         expanded=s.answered > 0):
            task = tasks[s.screen]
            if s.numbers:
                show_chart(TF.numbers_histogram(s), key=P + f"hist.{s.screen}",
                           title=f"Answers to screen {s.screen + 1}", settings=task.slide)
            if (s.marks or s.placed) and not d.state.activity.screens[s.screen].params.get(
                    "seeded"):
                show_chart(TF.overlay(task, s), key=P + f"overlay.{s.screen}",
                           title=f"Everyone's answer to screen {s.screen + 1}",
                           settings=task.slide)
            if s.common_wrong:
                st.markdown("**Most common wrong answers**")
                st.dataframe(pd.DataFrame(s.common_wrong, columns=["answer", "students"]),
                             hide_index=True)
            if s.latest:
                show_answer(d, s, names, code, key)


def show_answer(d: Dashboard, s: S.ScreenSummary, names: dict, code: str, key: str) -> None:
    """Show one student's answer to the class (a snapshot on every student's page)."""
    options = [None, *sorted(s.latest)]
    pick = st.selectbox("Show one answer to the class", options, key=P + f"show.{s.screen}",
                        format_func=lambda sid: "—" if sid is None else
                        f"{names.get(sid, '?')}: {s.latest[sid].summary}")
    shown = d.state.shown
    if st.button("Show it" if pick is not None else "Show none", key=P + f"showb.{s.screen}"):
        try:
            get_store().show_answer(code, key, None if pick is None else s.latest[pick].id)
        except NotTeacher:
            st.error(NOT_TEACHER)
    if shown is not None and shown.screen == s.screen:
        st.info(markdown_safe(f"On the students' pages: {shown.name}: {shown.summary}"))
