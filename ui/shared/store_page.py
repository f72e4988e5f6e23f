"""The store (``ui.classroom.store``) for a page: the live class's two pages open it the same
way, and say the same thing when the database cannot be reached."""

from __future__ import annotations

import streamlit as st

from ui.classroom.store import Store, StoreUnavailable, get_store


def store_or_stop() -> Store:
    """The process's store, or an error on the page and the end of its run."""
    try:
        return get_store()
    except StoreUnavailable:
        st.error("The class's database cannot be reached on this server just now: reload the "
                 "page in a moment.")
        st.stop()
