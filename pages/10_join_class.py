"""Join a class: a student's side of a live class (issue 26).

Thin: the class code and a nickname (no account; the nickname is all that is stored) → a seat,
kept in the session and in the address bar (a reload or another server finds it again) →
the screens the teacher has opened, each with its picture, its answer form and feedback that
says why (``ui.join``: ``flow`` decides, ``views`` draws). A small fragment follows the
teacher (pause, pace, reveal, the answer on the projector) and reruns the page when they
change.
"""

import streamlit as st

from ui.join import flow, views
from ui.shared import present, student
from ui.shared.nav import run_through_app
from ui.shared.store_page import store_or_stop

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
student.default_on(ss)  # the chapter's quantities, not the solvers' internals
present.page_header(ss)
st.title("Join a class")
store = store_or_stop()

views.say(flow.rejoin(ss, store, st.query_params.get("code"), st.query_params.get("seat")))
if flow.seat_of(ss) is None:
    st.caption("Type the code your teacher shows, and a nickname.")
    views.join_form(ss, store)
else:
    views.class_view(ss, store)
