"""The sidebar's drawer on a phone closes after a page link is followed (Streamlit leaves it
open over the new page). The decision and the listener are in ``ui/browser/drawer.js``; this
draws its element once per run, in the sidebar (app.py, every page)."""

from __future__ import annotations

import streamlit as st

from ui.serving import browser_modules

COMPONENT_NAME = "svmlab_drawer"


def close_after_navigation() -> None:
    element = browser_modules.element(COMPONENT_NAME, "drawer.js")
    with st.sidebar:
        element(key="svmlab-drawer")
