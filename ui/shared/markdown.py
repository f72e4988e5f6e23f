"""Text for ``st.markdown`` (pure): user text shown as typed, and the line that names a page's
points and model.

User text (an imported file's name or cells, a link's title) inside markdown, st.error or
st.success must not become a link, an image fetched from another server, emphasis, a
heading, a list, LaTeX or HTML: ``markdown_safe`` folds line breaks and backslash-escapes
the characters that make those (CommonMark's escapes), and a heading's, list's or rule's
first character.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ui.shared.numbers import fmt_setting

_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>~$"})


def markdown_safe(text: Any) -> str:
    """``text`` for st.markdown (st.error, st.success …), shown exactly as typed, on one
    line."""
    text = " ".join(str(text).split()).translate(_MARKDOWN)
    return "\\" + text if text[:1] in tuple("#-+=|") else text


def kernel_text(settings: Mapping[str, Any]) -> str:
    """"linear", "polynomial q = 2, c = 1", "Gaussian σ = 0.5"."""
    kernel = settings["kernel"]
    if kernel == "polynomial":
        return f"polynomial q = {settings['degree']}, c = {fmt_setting(settings['coef0'])}"
    if kernel == "gaussian":
        return f"Gaussian σ = {fmt_setting(settings['sigma'])}"
    return str(kernel)


def points_and_model(title: Any, n: int, settings: Mapping[str, Any],
                     solver: str | None = None) -> str:
    """The line under a page's title: "**Book D1** · n = 14 · SMO · kernel linear · C = 1 ·
    loss hinge" (``solver``: a label, when the page runs one solver)."""
    C = "∞ (hard margin)" if settings["hard_margin"] else fmt_setting(settings["C"])
    parts = [f"**{markdown_safe(title)}**", f"n = {n:,}", *([solver] if solver else []),
             f"kernel {kernel_text(settings)}", f"C = {C}", f"loss {settings['loss']}"]
    return " · ".join(parts)
