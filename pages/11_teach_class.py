"""Teach a class: a teacher's side of a live class (issue 26).

Thin: choose an activity (and add screens) → Start the class → its code, join link and QR
code for the projector, the teacher key shown once → the controls (pace, pause, reveal,
names, the answer on the projector, export, end) → the dashboard, refreshed every second
(``ui.teach``). Every action needs the teacher key, kept in this session only.
"""

import streamlit as st

from ui.classroom.store import ClassNotFound, NotTeacher
from ui.shared import present
from ui.shared.nav import run_through_app
from ui.shared.store_page import store_or_stop
from ui.teach import builder, views
from ui.teach.page_state import Teach

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
present.page_header(ss)
st.title("Teach a class")
store = store_or_stop()

if views.class_of(ss) is None:
    st.caption("Students join from their phones with a code: no account, only a nickname. "
               "You see their answers live, and decide what they may open.")
    views.start_form(ss, store, builder.extra_screens(ss))
    views.open_form(ss, store)
    st.stop()

code, key = views.class_of(ss)
try:
    state = store.class_state(code)
    if not store.is_teacher(code, key):
        raise NotTeacher(code)
except (ClassNotFound, NotTeacher):
    Teach.of(ss).taught = None
    st.warning(f"The class {code} has ended (or this key is not its teacher's).")
    st.stop()
views.header(ss, code, key)
views.controls(ss, store, code, key, state)
views.end_and_export(ss, store, code, key)
views.dashboard(code, key)
