"""Screens a teacher adds to a ready activity (Streamlit widgets → ``Screen``s): a "mark the
support vectors" screen on the Playground's current points and settings
(``exercises.screen_from_link``), and a multiple-choice question of the teacher's own (plain
text, checked by ``exercises.validate_screen`` when the class starts)."""

from __future__ import annotations

from types import SimpleNamespace

import streamlit as st

from ui.classroom import exercises
from ui.classroom.model import PROMPT_MAX, Screen
from ui.shared import state
from ui.shared.markdown import markdown_safe
from ui.teach.page_state import Teach


def _key(name: str) -> str:
    """The key of the builder's widget ``name`` (the Teach page's, under "add.")."""
    return Teach.widget_key("add." + name)


def extra_screens(ss) -> list[Screen]:
    out: list[Screen] = []
    with st.expander("Add your own screens"):
        if st.checkbox("Mark the support vectors of the Playground's current points",
                       key=_key("playground")):
            try:
                X, y, title = state.current_dataset(ss)
                spec = SimpleNamespace(X=X, y=y, settings=state.current_settings(ss),
                                       title=title, question="")
                out.append(exercises.screen_from_link(spec))
            except ValueError as exc:
                st.error(markdown_safe(f"The Playground's points cannot make a screen: {exc}"))
        question = st.text_input("A question of your own (multiple choice)", key=_key("q"),
                                 max_chars=PROMPT_MAX)
        choices = st.text_area("Its choices, one per line", key=_key("choices"), height=100)
        right = st.number_input("The right choice's line number", 1, 9, 1, key=_key("right"))
        why = st.text_input("Why (shown after an answer)", key=_key("why"),
                            max_chars=PROMPT_MAX)
        lines = [c.strip() for c in (choices or "").splitlines() if c.strip()]
        if question.strip():
            out.append(Screen("choice", {"question": question, "choices": lines,
                                         "answer": int(right) - 1, "why": why},
                              "Your question"))
    return out
