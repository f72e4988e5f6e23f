"""One rule for a page that waits on someone else (the teacher): ask every few seconds, and
rerun the whole page once the answer differs from what the page drew.

Two pages wait so: a student's Join page (the class's pace, pause, reveals: ``ui.join.views``)
and any page showing a teacher's hidden link (its reveal: ``ui.shared.reveal``). Each tick is
a fragment run (a small request, not a page run); only a change reruns the page.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import streamlit as st

#: what a probe returns when it could not ask this time (e.g. the database is unreachable):
#: nothing changes and the next tick asks again
NO_ANSWER = None


def changed(now: Hashable | None, drawn: Hashable | None) -> bool:
    """Rerun the page? Only for an answer that differs from what the page drew."""
    return now is not NO_ANSWER and now != drawn


def _tick(probe: Callable[[], Hashable | None], drawn: Hashable | None) -> None:
    if changed(probe(), drawn):
        st.rerun(scope="app")


def rerun_on_change(probe: Callable[[], Hashable | None], *, drawn: Hashable | None,
                    every_s: float) -> None:
    """Every ``every_s`` seconds call ``probe`` (in a fragment) and rerun the page when its
    answer is not ``drawn``. The fragment is made here so each caller keeps its own period;
    Streamlit names a fragment by its function and its place on the page, so it is the same
    fragment on every run."""
    st.fragment(_tick, run_every=every_s)(probe, drawn)
