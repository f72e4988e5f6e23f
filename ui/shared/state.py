"""The Playground's session state: its points, its settings and their messages.

They live in the session's ``ui.shared.session.Shared`` object (``st.session_state`` is passed
in here as any mutable mapping, so these functions are tested without streamlit). Other
pages use the shared contract:

- ``current_dataset(ss) -> (X (n, 2) float ndarray, y (n,) ±1 int ndarray, title)``
- ``current_settings(ss) -> ui.shared.settings.Settings``
- ``load_into_playground(ss, X, y, settings, title)``

The settings type is ``ui.shared.settings``, the points' check ``ui.shared.points``, the
URL codec ``ui.shared.links``.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from svm_engine import datasets
from ui.shared.points import MAX_POINTS, default_range, validate_points
from ui.shared.session import PageState, Widgets, shared
from ui.shared.settings import Settings

DEFAULT_DATASET = "d1"


@dataclass
class Playground(PageState):
    """The Playground's own state (its points and settings are ``Shared``: other pages read
    them). Its widget keys start with ``PREFIX``; ``load_into_playground`` drops them so the
    widgets re-seed from the settings."""

    KEY: ClassVar[str] = "svmlab.playground"
    PREFIX: ClassVar[str] = "pg."
    TEACHER_PREFIX: ClassVar[str] = "tl."  # the teacher panel's widgets: a load keeps them
    CANVAS_KEY: ClassVar[str] = "svmlab_canvas"  # the canvas component's (a load keeps it)

    answered: tuple | None = None  # (epoch, settings, view_rev, style) the canvas was answered
    canvas_session: str | None = None  # this session's id for the canvas: a new one = a restart
    rerun_app: bool = False  # the canvas changed what the sidebar shows: rerun the page
    editor: dict | None = None  # the table's base {"gen": n, "X": x1, x2, "y": labels}
    import_pending: tuple | None = None  # (file name, Table, default Choice, serial)
    import_serial: int = 0  # numbers the pending imports (their pickers' keys)
    # a teacher link (ui.playground.teacher): how the address bar names it ({"t": id} or
    # {"ts": blob}), and what "Undo the reset" brings back (X, y, settings, title, source)
    teacher_ref: dict | None = None
    before_reset: tuple | None = None
    # the teacher panel (ui.playground.teacher_panel): the links made last and their spec,
    # present mode as the last full run drew it, a preset's rerun, the link's nonce and key
    made: dict | None = None
    drawn_present: bool | None = None
    teacher_rerun: bool = False
    nonce: str | None = None
    reveal_key: str | None = None
    teacher: Widgets = field(default_factory=lambda: Widgets(Playground.TEACHER_PREFIX))

    @classmethod
    def teacher_key(cls, name: str) -> str:
        """The key of the teacher panel's widget ``name``."""
        return cls.TEACHER_PREFIX + name


def push_flash(ss: MutableMapping, level: str, text: str) -> None:
    """Queue a message ("error", "warning", "info", "success") for the next run."""
    shared(ss).flash.append((level, str(text)))


def pop_flash(ss: MutableMapping) -> list[tuple[str, str]]:
    """The queued messages (and forget them)."""
    sh = shared(ss)
    out, sh.flash = list(sh.flash), []
    return out


# ------------------------------------------------------------------------ session state


def _default_load(ss: MutableMapping) -> None:
    load_dataset(ss, DEFAULT_DATASET)


def has_state(ss: MutableMapping) -> bool:
    """Whether the session has points and settings (a first run has neither)."""
    sh = shared(ss)
    return sh.X is not None and sh.settings is not None


def ensure_state(ss: MutableMapping) -> None:
    """Load the default (book D1 with its suggested settings) unless state exists."""
    if not has_state(ss):
        _default_load(ss)


def current_dataset(ss: MutableMapping) -> tuple[np.ndarray, np.ndarray, str]:
    """(X (n, 2), y ±1, title) of the Playground's points (copies)."""
    ensure_state(ss)
    sh = shared(ss)
    return np.array(sh.X, dtype=float), np.array(sh.y, dtype=np.int64), str(sh.title)


def current_settings(ss: MutableMapping) -> Settings:
    """The Playground's settings (frozen: change them with ``set_settings(ss, s.replace(...))``)."""
    ensure_state(ss)
    return shared(ss).settings


def set_settings(ss: MutableMapping, settings: Mapping[str, Any]) -> Settings:
    """Validate and store settings (does not touch widget keys)."""
    s = Settings.parse(settings)
    shared(ss).settings = s
    return s


def set_points(
    ss: MutableMapping,
    X: Any,
    y: Any,
    *,
    title: str | None = None,
    reset_view: bool = False,
    from_canvas: bool = False,
) -> None:
    """Replace the points (validated; ValueError leaves the state untouched).

    Points changed from Python (dataset, import, table editor, link) bump the epoch so the
    browser adopts them; points that came from the canvas do not.
    """
    Xa, ya = validate_points(X, y)
    sh = shared(ss)
    if sh.X is not None and not from_canvas and not reset_view:
        same = np.array_equal(np.asarray(sh.X), Xa) and np.array_equal(np.asarray(sh.y), ya)
        if same and title is None:
            return
    sh.X, sh.y, sh.source = Xa, ya, None
    if title is not None:
        sh.title = title
    elif sh.title is None:
        sh.title = "My points"
    elif not str(sh.title).endswith("(edited)"):
        sh.title = f"{sh.title} (edited)"
    if not from_canvas:
        sh.epoch += 1
    if reset_view or sh.range is None:
        sh.range = default_range(Xa)
        sh.view = None
        sh.view_rev += 1


def clear_widget_keys(ss: MutableMapping) -> None:
    """Drop the Playground's widget values so its widgets re-seed from the settings (and a
    file waiting for its columns: the points it would replace are gone)."""
    Playground.clear_widgets(ss)
    Playground.of(ss).import_pending = None


def load_into_playground(
    ss: MutableMapping, X: Any, y: Any, settings: Mapping[str, Any], title: str
) -> None:
    """Put points and settings into the Playground (used by "Open in Playground" buttons).

    ``settings`` may be partial (defaults fill the rest) and may use ``C = math.inf`` for
    the hard margin. Raises ValueError (state untouched) if points or settings are bad.
    Call it from a callback or before the Playground's widgets are drawn in this run, then
    ``st.switch_page("pages/1_playground.py")``.
    """
    from ui.shared import history  # (it imports this module

    s = Settings.from_dataset(settings)
    Xa, ya = validate_points(X, y)
    history.remember(ss)
    set_points(ss, Xa, ya, title=str(title), reset_view=True)
    sh = shared(ss)
    sh.settings, sh.canvas_seq = s, 0
    clear_widget_keys(ss)


def load_dataset(ss: MutableMapping, name: str, **params: Any) -> None:
    """Load a named dataset (svm_engine.datasets) with its suggested settings."""
    ds = datasets.load(name, **params)
    if ds.n > MAX_POINTS:
        raise ValueError(f"too many points: {ds.n} (at most {MAX_POINTS})")
    load_into_playground(ss, ds.X, ds.y, Settings.from_dataset(ds.settings), ds.title)
    shared(ss).source = {"name": name, "params": dict(params)}


