"""The student view: one switch per session (``Shared.student``), a toggle in every page's sidebar
(``nav.run_through_app`` draws it). On, the pages hide the solvers' internals (tolerance
formulas, ulps, working-set rules, time budgets, conjugate-gradient steps, the certificate's
inner checks) and keep the chapter's quantities (w, b, α, ξ, margin, the objectives); off,
the full view for the curious. On by default inside a teacher link and on the Join page
(``default_on``); a student may still turn it off."""

from __future__ import annotations

from collections.abc import MutableMapping

import streamlit as st

from ui.shared.session import Shared, shared

#: a teacher link's parameters (ui/playground/teacher.py LINK_PARAMS without "present")
TEACHER_PARAMS = ("t", "ts")
TOGGLE = Shared.widget_key("student.toggle")  # the toggle's key: copied to Shared.student
LABEL = "Student view"
HELP = ("Hide the solvers' internals (tolerances, ulps, working-set rules, time budgets, "
        "conjugate-gradient steps, certificate checks) and keep the chapter's quantities. "
        "Off: the full view.")


def is_student(ss: MutableMapping) -> bool:
    return bool(shared(ss).student)


def set_student(ss: MutableMapping, on: bool) -> None:
    shared(ss).student = bool(on)


def full_view(ss: MutableMapping) -> bool:
    """Whether the solvers' internals are shown (the student view is off)."""
    return not is_student(ss)


def default_on(ss: MutableMapping) -> None:
    """A teacher link or the live class: the student view, unless this session chose."""
    sh = shared(ss)
    if sh.student is None:
        sh.student = True


def _copy() -> None:
    ss = st.session_state
    set_student(ss, bool(ss.get(TOGGLE, False)))


def sidebar_switch(ss) -> None:
    """The toggle, mirroring the session's switch (a widget's own value is dropped when a
    page does not draw it; ``Shared.student`` is plain state and survives page changes). A teacher
    link's first run draws this before the Playground opens the link: the link's own
    parameters (``TEACHER_PARAMS``) already turn it on."""
    if any(k in st.query_params for k in TEACHER_PARAMS):
        default_on(ss)
    ss[TOGGLE] = is_student(ss)
    st.sidebar.toggle(LABEL, key=TOGGLE, on_change=_copy, help=HELP)


#: the columns of a table that are a solver's internals (Compare solvers: each row's stopping
#: tolerance)
INTERNAL_COLUMNS = ("tolerance",)


def unless(ss: MutableMapping, text: str) -> str:
    """``text`` in the full view, "" in the student view."""
    return "" if is_student(ss) else text


def drop_internals(ss: MutableMapping, frame):
    """A table without its solver-internal columns in the student view."""
    if not is_student(ss):
        return frame
    return frame.drop(columns=[c for c in INTERNAL_COLUMNS if c in frame.columns])
