"""A worked example's "Why?" panel: the Lagrangian and the dual for the example's loss and
bias, its KKT cases with its points, and b as the slides average it beside the solver's b,
written with the numbers of the example's own fit (``ui.shared.theory``)."""

from __future__ import annotations

import streamlit as st

from ui.shared import theory
from ui.shared.why import show_sections, why_panel


def main_model(r):
    """The model the example's per-point table shows (its first fit)."""
    return next(iter(r.models.values()))


def _build(model) -> None:
    sections = theory.example_sections(model)
    if not sections:
        st.info("PSVM solves another problem (a least-squares system, not the SVM's dual): "
                "the dual's bounds, the KKT cases and the average of bᵢ do not apply to it.")
        return
    st.caption(f"Written for this example's first fit ({model.solver}).")
    show_sections(sections)


def panel(key: str, r) -> None:
    why_panel("Lagrangian, dual, KKT conditions and b for this example", f"we.why.{key}",
              lambda: _build(main_model(r)))
