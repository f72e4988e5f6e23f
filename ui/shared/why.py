"""The collapsed "Why?" panels that write the theory beside a picture (``ui.shared.theory``'s
sections, drawn here). Built only when open: the panel reruns the page when a student opens
it (``on_change="rerun"``), so a closed one costs nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st


def show_sections(sections: Sequence) -> None:
    """Each section as a bold title and its markdown lines (our text and printed numbers:
    no user text goes in)."""
    for s in sections:
        st.markdown(f"**{s.title}**")
        for line in s.lines:
            st.markdown(line)


def why_panel(label: str, key: str, build: Callable[[], None]) -> None:
    """A collapsed expander "Why? …"; ``build`` draws its content when it is open."""
    with st.expander(f"Why? {label}", key=key, on_change="rerun",
                     icon=":material/school:") as panel:
        if panel.open:
            build()
