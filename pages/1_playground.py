"""Playground: click to place points; every change retrains; the whole geometry is drawn.

The browser draws the picture, the numbers and the points table from the fit endpoint's
answer (``ui/serving/fit_api.py``), so a click costs the server one fit and no page rerun but a
cheap
sync of the points. Two parts rerun separately:
- the sidebar (data, model settings): a change reruns the whole page;
- the canvas fragment (the plot and the panels under it): a panel's edit or the canvas's sync
  of the points reruns only it.
"""

import streamlit as st

from ui.playground import teacher_panel
from ui.shared import controls
from ui.shared.nav import run_through_app

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
link_message = controls.init_session(ss)

if link_message:
    st.warning(link_message)
teacher_panel.header(ss)  # a teacher link's title, question and reset; present mode

controls.sidebar_data(ss)
controls.sidebar_model(ss)
controls.sync_url(ss)


@st.fragment
def canvas_fragment() -> None:
    controls.show_flash(ss)
    controls.draw_canvas(ss)
    controls.lower_panels(ss)


canvas_fragment()
