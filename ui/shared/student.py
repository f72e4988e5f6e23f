"""The student view: one switch per session (``K_STUDENT``), a toggle in every page's sidebar
(``nav.run_through_app`` draws it). On, the pages hide the solvers' internals (tolerance
formulas, ulps, working-set rules, time budgets, conjugate-gradient steps, the certificate's
inner checks) and keep the chapter's quantities (w, b, α, ξ, margin, the objectives); off,
the full view for the curious. On by default inside a teacher link and on the Join page
(``default_on``); a student may still turn it off."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping

import streamlit as st

K_STUDENT = "svmlab.student"
#: a teacher link's parameters (ui/playground/teacher.py LINK_PARAMS without "present")
TEACHER_PARAMS = ("t", "ts")
K_WIDGET = "svmlab.student.toggle"  # the toggle's own key: its value is copied to K_STUDENT
LABEL = "Student view"
HELP = ("Hide the solvers' internals (tolerances, ulps, working-set rules, time budgets, "
        "conjugate-gradient steps, certificate checks) and keep the chapter's quantities. "
        "Off: the full view.")


def is_student(ss: Mapping) -> bool:
    return bool(ss.get(K_STUDENT, False))


def full_view(ss: Mapping) -> bool:
    """Whether the solvers' internals are shown (the student view is off)."""
    return not is_student(ss)


def default_on(ss: MutableMapping) -> None:
    """A teacher link or the live class: the student view, unless this session chose."""
    ss.setdefault(K_STUDENT, True)


def _copy() -> None:
    st.session_state[K_STUDENT] = bool(st.session_state.get(K_WIDGET, False))


def sidebar_switch(ss) -> None:
    """The toggle, mirroring the session's switch (a widget's own value is dropped when a
    page does not draw it; K_STUDENT is plain state and survives page changes). A teacher
    link's first run draws this before the Playground opens the link: the link's own
    parameters (``TEACHER_PARAMS``) already turn it on."""
    if any(k in st.query_params for k in TEACHER_PARAMS):
        default_on(ss)
    ss[K_WIDGET] = is_student(ss)
    st.sidebar.toggle(LABEL, key=K_WIDGET, on_change=_copy, help=HELP)


#: the columns of a table that are a solver's internals (Compare solvers: each row's stopping
#: tolerance)
INTERNAL_COLUMNS = ("tolerance",)


def unless(ss: Mapping, text: str) -> str:
    """``text`` in the full view, "" in the student view."""
    return "" if is_student(ss) else text


def drop_internals(ss: Mapping, frame):
    """A table without its solver-internal columns in the student view."""
    if not is_student(ss):
        return frame
    return frame.drop(columns=[c for c in INTERNAL_COLUMNS if c in frame.columns])
