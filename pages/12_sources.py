"""Sources: the course's documents by title and author, and the app's conventions where a
source writes the same thing differently (``ui.sources.text``)."""

import pandas as pd
import streamlit as st

from ui.shared.markdown import markdown_safe
from ui.shared.nav import run_through_app
from ui.sources import text

run_through_app()  # a deep link on a fresh server must still go through app.py

st.title("Sources")
st.markdown("SVM Lab teaches from these documents. Pages cite them by the short name in the "
            "first column, with a slide number where there is one. The explanations in the "
            "app are our own words. A bare \"slide N\" anywhere in the app is a slide of "
            "Zaki & Meira's chapter 21.")
st.dataframe(pd.DataFrame(text.source_rows()), hide_index=True, key="src.table")
st.header("Conventions")
for topic, words in text.conventions():
    st.markdown(f"**{markdown_safe(topic)}.** {markdown_safe(words)}")
