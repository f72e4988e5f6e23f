"""Present mode (a projector) on any page: no sidebar nor header bar, larger text, and an
"Exit present mode" button on top. The session's one switch (``Shared.present``): the Playground's
teacher panel and a link's ``&present=1`` set it too, so a teacher who projects stays in
present mode from page to page."""

from __future__ import annotations

from collections.abc import MutableMapping

import streamlit as st

from ui.shared.session import Shared, shared

#: What every page hides and enlarges; a page adds its own (the Playground's canvas).
BASE_CSS = """
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapseButton"],
[data-testid="stHeader"] { display: none !important; }
[data-testid="stMainBlockContainer"] { padding-top: 0.5rem; }
[data-testid="stMainBlockContainer"] p, [data-testid="stMainBlockContainer"] li,
[data-testid="stMainBlockContainer"] td, [data-testid="stMainBlockContainer"] th,
[data-testid="stMainBlockContainer"] [data-testid="stText"] { font-size: 1.4rem; }
"""


def is_present(ss: MutableMapping) -> bool:
    return shared(ss).present


def set_present(ss: MutableMapping, on: bool) -> None:
    shared(ss).present = bool(on)


def _set(on: bool) -> None:
    set_present(st.session_state, on)


def exit_button(width: str = "content") -> None:
    st.button("Exit present mode", key=Shared.widget_key("present.exit"), on_click=_set,
              args=(False,), icon=":material/close_fullscreen:", width=width)


def page_header(ss) -> None:
    """A page's present mode (Step-through, Worked examples): the sidebar's button to enter
    it; in it, the style and the button to leave."""
    sh = shared(ss)
    if not sh.present:
        if sh.present_drawn:  # just left it: the sidebar opens again
            sh.present_drawn = False
            st.set_page_config(initial_sidebar_state="expanded")
        st.sidebar.button("Present mode (projector)", key=Shared.widget_key("present.enter"),
                          on_click=_set, args=(True,), icon=":material/present_to_all:",
                          help="This page without the sidebar, with larger text, for a "
                          "projector. The Exit button on top brings the sidebar back.")
        return
    sh.present_drawn = True
    st.set_page_config(initial_sidebar_state="collapsed")
    st.html(f"<style>{BASE_CSS}</style>")
    exit_button()
