"""Text for ``st.markdown`` (pure): user text shown as typed, and the line that names a page's
points and model.

User text (an imported file's name, columns or labels, anything a link holds) inside markdown,
st.error, st.warning or a widget's label must not become a link, an image fetched from another
server, emphasis, a heading, a list, LaTeX, an icon or HTML: ``markdown_safe`` folds line
breaks, backslash-escapes the characters that make those (CommonMark's escapes), a heading's,
list's or rule's start, and puts a WORD JOINER (U+2060, invisible) where GitHub's markdown
would turn bare text into a link (``https://…``, ``www.…``, ``name@host``: after the colon,
before the dot, after the at sign): escapes do not stop those, because the renderer finds
them in the text after the escapes are undone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ui.shared.numbers import fmt_setting

_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>~$&"})
#: invisible, not a word character: splits what would be autolinked
WORD_JOINER = "\u2060"
# where remark's autolink literals (and :emoji: / :material/…: shortcodes) would start: a
# WORD JOINER goes at each of these places
# (inside "://", not after it: the renderer's tokenizer takes any non-punctuation as a host)
_AUTOLINK = re.compile(r"(?<=:)(?=//)|(?<=www)(?=\.)|(?<=@)|(?<=:)(?=[A-Za-z+])", re.IGNORECASE)
_BLOCK_START = re.compile(r"^(?:[#\-+=|]|\d+[.)](?=\s|$))")


def markdown_safe(text: Any) -> str:
    """``text`` for st.markdown (st.error, st.success, a widget's label …), shown exactly as
    typed, on one line (but for invisible word joiners inside would-be links)."""
    text = _AUTOLINK.sub(WORD_JOINER, " ".join(str(text).split()).translate(_MARKDOWN))
    m = _BLOCK_START.match(text)
    if m:  # "# x", "- x", "1. x": a heading or list; "1\\. x" is text
        text = text[:m.end() - 1] + "\\" + text[m.end() - 1:]
    return text


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
