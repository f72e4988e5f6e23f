"""What a teacher link hides ("predict first"), on every page, until the teacher reveals it.

A teacher link may hide the numbers, the points table or the support vectors
(``ui.playground.teacher.HIDES``). The Playground hides those parts; every other page that
would fit the same points (Step-through, Compare solvers, Kernels, …: their source "the
Playground's points" or a book dataset equal to the teacher's) shows ``HIDDEN_TEXT`` instead
of its answer, so the hidden numbers are not one page away. The teacher's panel keeps a reveal
key for the link (``ui.classroom.store``: ``put_link(…, key)``); its *Reveal to the students*
button marks the link revealed in the database, and each student page that hides something
polls that flag every ``POLL_S`` seconds (``watch``: one indexed row read) and shows
everything once it is set.

The session holds the opened link in ``Shared.teacher_spec`` (a ``TeacherSpec``; read here only
through its ``id``, ``X``, ``y`` and ``hidden``, so this shared module needs no page's package).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import MutableMapping
from typing import Any

import numpy as np
import streamlit as st

from ui.classroom.store import StoreUnavailable, get_store
from ui.shared.poll import rerun_on_change
from ui.shared.session import shared

POLL_S = 2.0  # how often a student's page asks whether the teacher revealed
HIDDEN_TEXT = ("Hidden by your teacher: predict first. These are the points of your teacher's "
               "link; this page shows its answer once your teacher reveals it (or choose other "
               "points in the sidebar).")

log = logging.getLogger(__name__)


def link_spec(ss: MutableMapping) -> Any | None:
    """The opened teacher link when it hides something, else None."""
    spec = shared(ss).teacher_spec
    return spec if spec is not None and getattr(spec, "hidden", None) else None


def revealed(ss: MutableMapping) -> bool:
    spec = link_spec(ss)
    return spec is not None and spec.id in shared(ss).revealed


def hidden(ss: MutableMapping) -> frozenset[str]:
    """The parts the teacher hides from this session now (empty once revealed)."""
    spec = link_spec(ss)
    if spec is None or revealed(ss):
        return frozenset()
    return frozenset(spec.hidden)


def hides_points(ss: MutableMapping, X: Any, y: Any) -> bool:
    """True when these points are the teacher's hidden ones (a page then shows HIDDEN_TEXT)."""
    if not hidden(ss):
        return False
    spec = link_spec(ss)
    Xa, ya = np.asarray(X, dtype=float), np.asarray(y)
    return (Xa.shape == spec.X.shape and np.array_equal(Xa, spec.X)
            and np.array_equal(ya, spec.y))  # fmt: skip


def poll(ss: MutableMapping, store=None) -> bool:
    """Ask the store whether the teacher revealed this session's link; True when it just was.
    A database that cannot be read keeps things hidden (asked again at the next poll)."""
    if not hidden(ss):
        return False
    spec = link_spec(ss)
    try:
        done = (store or get_store()).link_revealed(spec.id)
    except StoreUnavailable:
        log.warning("could not read whether link %s was revealed", spec.id, exc_info=True)
        return False
    if done:
        sh = shared(ss)
        sh.revealed = sh.revealed | {spec.id}
    return bool(done)


def watch(ss: MutableMapping) -> None:
    """On a page that hides something: poll for the teacher's reveal (a fragment that reruns
    the page once it comes). Nothing at all without a hiding link.

    The fragment sits in a container that stays, empty, after the reveal: the browser keeps
    an element by its place, and without it every later element moved up one place (the
    Playground's canvas was mounted anew beside the old one, losing its unsent clicks)."""
    with slot(ss):
        if hidden(ss):
            rerun_on_change(lambda: poll(st.session_state), drawn=False, every_s=POLL_S)


def slot(ss: MutableMapping):
    """Where to draw what a reveal adds or takes away: a container kept (empty while hidden)
    when this session's link hides something, so that the reveal moves nothing after it (the
    browser keeps an element without a key by its place: a moved canvas or expander was made
    anew, losing unsent clicks, and closing the "Keyboard" help under a student reading it);
    the page itself otherwise."""
    return st.container() if link_spec(ss) is not None else contextlib.nullcontext()


def hide_page_if_hidden(ss: MutableMapping, X: Any, y: Any) -> None:
    """A page other than the Playground, about to fit these points: if they are the teacher's
    hidden ones, say so and stop the run here (the sidebar is already drawn: other points can
    be chosen)."""
    if hides_points(ss, X, y):
        st.info(HIDDEN_TEXT, icon=":material/visibility_off:")
        watch(ss)
        st.stop()
