"""Sources: the documents SVM Lab teaches from, by title and author, and the conventions the
app keeps where they differ (issue 27 item 10). Thin: ``ui.sources.text`` holds the words."""

import pandas as pd
import streamlit as st

from ui.shared import present
from ui.shared.markdown import markdown_safe
from ui.shared.nav import run_through_app
from ui.sources import text as T

run_through_app()  # a deep link on a fresh server must still go through app.py

present.page_header(st.session_state)
st.title("Sources")
st.caption(T.INTRO)
st.dataframe(pd.DataFrame(T.source_rows()), hide_index=True)
st.subheader("Conventions")
for line in T.convention_lines():
    st.markdown("- " + markdown_safe(line))
