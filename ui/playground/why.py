"""The Playground's "Why?" panel under the picture: distance, margin, KKT cases and b written
with the numbers of the fit the page shows (the texts come with its answer,
``fit_api.answer(theory=True)``, built by ``ui.shared.theory``)."""

from __future__ import annotations

import streamlit as st

from ui.playground import panels, teacher
from ui.serving import budget
from ui.shared import reveal
from ui.shared.theory import Section
from ui.shared.why import show_sections, why_panel

KEY = "svmlab.why"


def _build(ss) -> None:
    try:
        ans = panels.shown_answer(ss)
    except budget.Stopped as exc:
        st.info(f"No model to explain: {exc}")
        return
    if not ans.get("ok"):
        st.info("No model to explain: " + (ans.get("message") or "the fit failed."))
        return
    rows = ans.get("theory") or []
    if not rows:
        st.info("PSVM solves another problem (a least-squares system, not the SVM's dual): "
                "the margin's KKT cases and the average of bᵢ do not apply to it.")
        return
    show_sections([Section(k, t, tuple(text.split("\n\n"))) for k, t, text in rows])


def panel(ss) -> None:
    """The collapsed panel; none while a teacher hides the numbers (predict first), in a
    place kept for the reveal (``reveal.slot``: nothing after it moves)."""
    with reveal.slot(ss):
        if teacher.shows(ss, "numbers"):
            why_panel("Distance, margin, KKT conditions and b for these points", KEY,
                      lambda: _build(ss))
