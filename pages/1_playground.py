"""Playground: click to place points; every change retrains; the whole geometry is drawn.

Three parts rerun separately so a click stays fast:
- the sidebar (data, model settings): a change reruns the whole page;
- the canvas fragment: a click reruns only the fit and the plot;
- the panels fragment (numbers, table, editor, import/export, link): reruns after the canvas
  has drawn a refit (the canvas pings ``controls.drawn_listener``), and reruns the whole
  page when a panel replaced the points or changed the highlighted rows.
"""

import streamlit as st

from ui import controls, teacher, teacher_panel
from ui.nav import run_through_app

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
link_message = controls.init_session(ss)

if link_message:
    st.warning(link_message)
teacher_panel.header(ss)  # a teacher link's title, question and reset; present mode

controls.sidebar_data(ss)
controls.sidebar_model(ss)
controls.sync_url(ss)

plot_col, numbers_col = st.columns([3, 1.15], gap="small")
panels_area = st.container()


@st.fragment
def canvas_fragment() -> None:
    highlight = controls.selected_rows(ss)
    outcome, fig_json = controls.compute(ss, highlight)
    controls.draw_canvas(ss, outcome, fig_json, teacher.page_query(ss), highlight)


@st.fragment
def panels_fragment() -> None:
    if controls.panels_stale(ss):
        st.rerun()
    controls.show_flash(ss)
    outcome, _ = controls.compute(ss, controls.selected_rows(ss))
    query = teacher.page_query(ss)
    with numbers_col:
        if teacher.shows(ss, "numbers"):
            controls.numbers_panel(ss, outcome)
        else:
            teacher_panel.hidden_note("numbers")
    with panels_area:
        controls.lower_panels(ss, outcome, query)
        controls.drawn_listener()


with plot_col:
    canvas_fragment()
panels_fragment()
