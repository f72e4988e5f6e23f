"""Playground: click to place points; every change retrains; the whole geometry is drawn.

The browser draws the picture, the numbers and the points table from the fit endpoint's
answer (``ui/serving/fit_api.py``), so a click costs the server one fit and no page rerun but a
cheap sync of the points. Two parts rerun separately (``ui.playground.sidebar``,
``ui.playground.panels``):
- the sidebar (data, model settings): a change reruns the whole page;
- the canvas fragment (the plot and the panels under it): a panel's edit or the canvas's sync
  of the points reruns only it.
"""

import functools

import streamlit as st

from ui.playground import panels, sidebar, teacher, teacher_panel, why
from ui.shared import reveal
from ui.shared.nav import run_through_app
from ui.shared.quick_controls import quick_controls

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
link_message = panels.init_session(ss)
panels.heading(ss)  # issue 32: the page had no heading of its own

if link_message:
    st.warning(link_message)
teacher_panel.header(ss)  # a teacher link's title, question and reset; present mode
reveal.watch(ss)  # what the link hides appears once the teacher reveals it

sidebar.sidebar_data(ss)
sidebar.sidebar_model(ss)
panels.sync_url(ss)
# kernel, σ, loss and C beside the plot (the sidebar is a drawer on phones, hidden when
# presenting): the same settings as the sidebar's widgets
quick_controls(ss, sidebar.P, functools.partial(teacher.lock_kwargs, ss))


@st.fragment
def canvas_fragment() -> None:
    panels.show_flash(ss)
    panels.draw_canvas(ss)
    why.panel(ss)  # the theory beside the picture, with its numbers (issue 27)
    panels.lower_panels(ss)


canvas_fragment()
