"""A teacher link in a student's session: opening it, its locks and hidden parts, the address
bar, and the teacher's reset.

Pure (no streamlit): session state is passed in as any mutable mapping, as in
``ui.shared.state``. The picture itself is ``ui.playground.teacher_spec``, the short link's
store ``ui.playground.teacher_store``, the presets ``ui.playground.teacher_presets``.

A student's own changes are added to the address bar as the ordinary Playground parameters
(``ui.shared.links.encode_query``), so a reload keeps them; locked values always come from
the spec.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

import numpy as np

from ui.classroom.store import Store, StoreUnavailable
from ui.playground.teacher_spec import ID_LEN, TeacherLinkError, TeacherSpec, decode_blob, make_spec
from ui.playground.teacher_store import get_link
from ui.shared import links, reveal, state, student
from ui.shared.present import is_present, set_present
from ui.shared.session import shared
from ui.shared.state import Playground

PRESENT_SCALE = 1.6  # fonts, markers and lines of the figure in present mode
POINTS_TITLE = "The teacher's points"  # fixed: the numbers panel renders it as markdown
LOCKED_HELP = "Locked by your teacher."

#: The settings each lock holds to the teacher's values.
LOCKED_SETTINGS = {
    "kernel": ("kernel", "degree", "coef0", "sigma"),
    "loss": ("loss",),
    "C": ("C", "hard_margin"),
    "bias": ("bias",),
    "solver": ("solver", "wss"),
}

#: Why a change of something the teacher locked was undone (``hold_locks``).
HELD_TEXT = "That is locked by your teacher: the teacher's value is back."

# the session keeps the opened link in Shared.teacher_spec, how the address bar names it in
# Playground.teacher_ref, what "Undo the reset" brings back in Playground.before_reset
LINK_PARAMS = ("t", "ts", "present")  # the teacher's query parameters (the rest: ui.shared.links)


def spec_of(ss: MutableMapping) -> TeacherSpec | None:
    """The teacher link this session opened (None: an ordinary Playground)."""
    spec = shared(ss).teacher_spec
    return spec if isinstance(spec, TeacherSpec) else None


def is_locked(ss: MutableMapping, name: str) -> bool:
    spec = spec_of(ss)
    return spec is not None and name in spec.locked


def shows(ss: MutableMapping, name: str) -> bool:
    """False when the teacher hid this part (``HIDES``) and has not revealed it yet."""
    return spec_of(ss) is None or name not in reveal.hidden(ss)



def lock_kwargs(ss: MutableMapping, name: str, *, disabled: bool = False,
                help: str | None = None) -> dict:  # fmt: skip
    """``disabled`` and ``help`` for a widget under lock ``name``: spread them into the
    widget call (``**lock_kwargs(ss, "kernel")``); the widget's own values otherwise."""
    if is_locked(ss, name):
        return {"disabled": True, "help": LOCKED_HELP}
    out: dict[str, Any] = {"disabled": bool(disabled)}
    if help is not None:
        out["help"] = help
    return out


def figure_options(ss: MutableMapping) -> dict:
    """The Playground answer's style (``fit_schema.Style``): scale (present mode), show_sv
    and, when the teacher hid any, ``hide``: the parts the server leaves out of every answer
    (the canvas's payload and the endpoint's), so hidden answers never reach the browser."""
    out: dict[str, Any] = {"scale": PRESENT_SCALE if is_present(ss) else 1.0,
                           "show_sv": shows(ss, "sv")}
    hide = tuple(h for h in ("numbers", "table") if not shows(ss, h))
    if hide:
        out["hide"] = hide
    if student.is_student(ss):  # the numbers panel without the solver's internals
        out["student"] = True
    return out


def has_link_params(q: Mapping[str, Any]) -> bool:
    return any(k in q for k in LINK_PARAMS)


def split_query(q: Mapping[str, Any]) -> tuple[dict, dict]:
    """(the teacher's parameters, the Playground's parameters)."""
    tq = {k: v for k, v in q.items() if k in LINK_PARAMS}
    return tq, {k: v for k, v in q.items() if k not in LINK_PARAMS}


def _param(q: Mapping[str, Any], key: str) -> Any:
    v = q.get(key)
    return v[-1] if isinstance(v, (list, tuple)) and v else v


def apply_spec(ss: MutableMapping, spec: TeacherSpec) -> None:
    """Load the spec's points and settings into the Playground (widgets re-seed)."""
    state.load_into_playground(ss, spec.X, spec.y, spec.settings, POINTS_TITLE)
    shared(ss).source = None


def enforce_locks(ss: MutableMapping, spec: TeacherSpec) -> None:
    """Put the spec's values back into every locked setting (and the points if locked)."""
    held = {k: spec.settings[k] for lock, keys in LOCKED_SETTINGS.items()
            if lock in spec.locked for k in keys}  # fmt: skip
    state.set_settings(ss, state.current_settings(ss).replace(**held))
    if "points" in spec.locked and not at_points(ss, spec):
        state.set_points(ss, spec.X, spec.y, title=POINTS_TITLE, reset_view=True)
        shared(ss).source = None


def hold_locks(ss: MutableMapping) -> bool:
    """Put back any locked setting or locked points a client changed (a disabled widget or
    the table editor is only disabled in the browser: a websocket client can still send a
    value). Every run of the canvas calls it; True (and a message) when something was put
    back."""
    spec = spec_of(ss)
    if spec is None:
        return False
    s = state.current_settings(ss)
    moved = any(s[k] != spec.settings[k]
                for lock, keys in LOCKED_SETTINGS.items() if lock in spec.locked for k in keys)
    if not moved and not ("points" in spec.locked and not at_points(ss, spec)):
        return False
    enforce_locks(ss, spec)
    state.push_flash(ss, "error", HELD_TEXT)
    return True


def at_points(ss: MutableMapping, spec: TeacherSpec) -> bool:
    X, y, _ = state.current_dataset(ss)  # type: ignore[arg-type]
    return np.array_equal(X, spec.X) and np.array_equal(y, spec.y)


def at_spec(ss: MutableMapping) -> bool:
    """Whether the Playground shows exactly the teacher's picture."""
    spec = spec_of(ss)
    return spec is not None and at_points(ss, spec) and (
        state.current_settings(ss) == spec.settings
    )


def unknown_id_message(link_id: str) -> str:
    return (f"The teacher link “{link_id}” is not stored on this server (it may have been "
            "made on another server, or removed). Ask your teacher for the long link: it "
            "holds the whole picture and works on any server.")  # fmt: skip


def open_link(ss: MutableMapping, q: Mapping[str, Any], store: Store | None = None,
              ) -> str | None:  # fmt: skip
    """First run of a session opened with teacher parameters (``t``, ``ts``, ``present``),
    maybe with the Playground's own (a student's changes, kept over a reload). Loads the
    state; returns a message for the user when something could not be read (the state is
    then the Playground's parameters if they are valid, else the default)."""
    tq, sq = split_query(q)
    msgs: list[str] = []
    present = _param(tq, "present")
    set_present(ss, present == "1")
    if present not in (None, "0", "1"):
        msgs.append("The link's present=… should be 1 or 0; present mode is off.")
    spec, ref = None, None
    try:
        if "ts" in tq:
            blob = _param(tq, "ts")
            spec, ref = decode_blob(blob), {"ts": blob}
        elif "t" in tq:
            link_id = _param(tq, "t")
            spec = get_link(link_id, store)
            if spec is None:
                msgs.append(unknown_id_message(str(link_id)[:ID_LEN]))
            ref = {"t": link_id}
    except TeacherLinkError as exc:
        msgs.append(f"This teacher link could not be opened: {exc}.")
        spec = None
    except StoreUnavailable:
        msgs.append("The stored teacher links cannot be read on this server (its database "
                    "is unavailable). Ask your teacher for the long link.")
        spec = None
    if spec is not None:
        shared(ss).teacher_spec, Playground.of(ss).teacher_ref = spec, ref
        apply_spec(ss, spec)
        student.default_on(ss)  # a teacher's link opens in the student view
    if links.is_link(sq):
        if spec is None:
            m = links.restore_from_query(ss, sq)
            return " ".join([*msgs, m] if m else msgs) or None
        try:
            d = links.decode_query(sq)
        except links.LinkError as exc:
            msgs.append(f"Your own changes in the link could not be read ({exc}); showing the "
                        "teacher's picture.")  # fmt: skip
        else:
            state.load_into_playground(ss, d["X"], d["y"], d["settings"], POINTS_TITLE)
            shared(ss).source = d["source"]
            enforce_locks(ss, spec)
    elif spec is None:
        state.ensure_state(ss)
        if msgs and ("t" in tq or "ts" in tq):
            msgs.append("Showing the default example instead.")
    return " ".join(msgs) or None


def page_query(ss: MutableMapping) -> dict[str, str]:
    """The address bar's parameters: the teacher link (if any), the Playground's state when
    it is not the teacher's picture, and ``present=1`` in present mode."""
    q: dict[str, str] = {}
    spec = spec_of(ss)
    ref = Playground.of(ss).teacher_ref
    if spec is not None and ref:
        q.update(ref)
        if not at_spec(ss):
            q.update(links.state_query(ss))
    else:
        q.update(links.state_query(ss))
    if is_present(ss):
        q["present"] = "1"
    return q


def reset(ss: MutableMapping) -> bool:
    """Back to the teacher's picture (remembering the student's for ``undo_reset``)."""
    spec = spec_of(ss)
    if spec is None:
        return False
    X, y, title = state.current_dataset(ss)
    Playground.of(ss).before_reset = (X, y, state.current_settings(ss), title, shared(ss).source)
    apply_spec(ss, spec)
    return True


def undo_reset(ss: MutableMapping) -> bool:
    """The student's picture from before the last reset (within the locks)."""
    pg = Playground.of(ss)
    before, spec, pg.before_reset = pg.before_reset, spec_of(ss), None
    if not before or spec is None:
        return False
    X, y, settings, title, source = before
    state.load_into_playground(ss, X, y, settings, title)
    shared(ss).source = source
    enforce_locks(ss, spec)
    return True


def make_current_spec(ss: MutableMapping, *, title: str, question: str, locked, hidden,
                      nonce: str = "") -> TeacherSpec:  # fmt: skip
    """A spec of the Playground's current points and settings."""
    X, y, _ = state.current_dataset(ss)
    return make_spec(X, y, state.current_settings(ss), title=title, question=question,
                     locked=locked, hidden=hidden, nonce=nonce)  # fmt: skip
