"""The one home of what a session keeps: one typed object per page, each under one session key.

A page's state is a dataclass deriving from ``PageState``; ``page_state(ss, Cls)`` (or
``Cls.of(ss)``) gives this session's object under ``Cls.KEY``, made on first use. What the
pages share (the Playground's points and settings, the undo stack, the messages for the next
run, the navigation's run counter, present mode, the student view, a teacher link's spec) is
one ``Shared`` object. Nothing else writes a string key into ``st.session_state``
(tests/test_session_keys.py).

Widget values stay where Streamlit owns them, under widget keys, but their names come from
the page's class (``Cls.widget_key("C")`` = ``Cls.PREFIX + "C"``), and the copy that lets them
survive a visit to another page (Streamlit drops the value of a widget a run does not draw)
is kept in the page's object (``Widgets.keep`` / ``Widgets.restore``).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

T = TypeVar("T", bound="PageState")


@dataclass
class Widgets:
    """A group of widgets (keys ``prefix + name``) and the copy of their values that survives a
    page switch."""

    prefix: str
    kept: dict[str, Any] = field(default_factory=dict)
    restored_run: int | None = None  # the full run whose ``restore`` last ran

    def key(self, name: str) -> str:
        return self.prefix + name

    def keep(self, ss: MutableMapping, names) -> None:
        """Remember the widgets' values (call it after they are drawn)."""
        self.kept = {n: ss[self.key(n)] for n in names if self.key(n) in ss}

    def restore(self, ss: MutableMapping) -> None:
        """Give the widgets back the values ``keep`` remembered (call it before they are drawn;
        a value the session already has wins, unless the student just came back from another
        page: Streamlit then lists the values it drew from the widgets' defaults, see
        ``Shared.arrived``).

        Stale once only: widgets drawn in a fragment (the Playground's teacher panel) are drawn
        again by the fragment's reruns, which do not pass through app.py, so ``arrived`` stays
        true until the next full run; the values the user typed since are theirs."""
        nav = shared(ss)
        back = nav.arrived() and self.restored_run != nav.run
        self.restored_run = nav.run
        for n, v in self.kept.items():
            if back or self.key(n) not in ss:
                ss[self.key(n)] = v


@dataclass
class PageState:
    """Base of a page's state: ``KEY`` its session key, ``PREFIX`` its widget keys' start."""

    KEY: ClassVar[str] = ""
    PREFIX: ClassVar[str] = ""

    widgets: Widgets = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.widgets = Widgets(self.PREFIX)

    @classmethod
    def widget_key(cls, name: str) -> str:
        """The key of the page's widget ``name``."""
        return cls.PREFIX + name

    @classmethod
    def of(cls: type[T], ss: MutableMapping) -> T:
        return page_state(ss, cls)

    @classmethod
    def clear_widgets(cls, ss: MutableMapping) -> None:
        """Drop the page's widget values so its widgets re-seed from its state (never a page's
        object: ``Shared.PREFIX`` starts every ``KEY``)."""
        for k in [k for k in list(ss.keys()) if isinstance(k, str) and k.startswith(cls.PREFIX)
                  and not isinstance(ss[k], PageState)]:
            del ss[k]


def page_state(ss: MutableMapping, cls: type[T]) -> T:
    """This session's ``cls`` object (under ``cls.KEY``), made on first use."""
    obj = ss.get(cls.KEY)
    if not isinstance(obj, cls):
        obj = cls()
        ss[cls.KEY] = obj
    return obj


@dataclass
class Shared(PageState):
    """What every page shares. The Playground's points and settings are read and written
    through ``ui.shared.state`` (validated there), the undo stack through
    ``ui.shared.history``."""

    KEY: ClassVar[str] = "svmlab.shared"
    PREFIX: ClassVar[str] = "svmlab."  # the student view's toggle

    # the Playground's points and settings (ui.shared.state)
    X: Any = None  # (n, 2) float ndarray, or None before the first load
    y: Any = None  # (n,) ±1 int ndarray
    title: str | None = None
    settings: Any = None  # ui.shared.settings.Settings
    source: dict | None = None  # {"name": ..., "params": {...}} while the points are unedited
    epoch: int = 0  # bumped whenever Python (not the canvas) replaces the points
    view_rev: int = 0  # bumped when the plot should reset its zoom
    range: Any = None  # default axis ranges ((x0, x1), (y0, y1)) for the current data
    view: Any = None  # the ranges the user zoomed/panned to, or None
    canvas_seq: int = 0  # last canvas edit adopted (sequence number from JS)
    flash: list = field(default_factory=list)  # messages from callbacks, shown once next run
    history: list = field(default_factory=list)  # undo snapshots (ui.shared.history)
    # navigation (app.py, every full run): this run's page, the one before, full runs so far
    page: str | None = None
    previous: str | None = None
    run: int = 0
    # one switch each per session, on every page
    present: bool = False  # present mode (ui.shared.present)
    present_drawn: bool = False  # a page's last run was in present mode
    student: bool | None = None  # the student view (ui.shared.student); None: not chosen yet
    # the teacher link this session opened (a TeacherSpec) and the ids revealed to it
    teacher_spec: Any = None
    revealed: frozenset = frozenset()
    # joins and answers: action → (tokens left, when) (ui.classroom.ratelimit)
    ratelimit: dict = field(default_factory=dict)

    def arrived(self) -> bool:
        """This run follows a run of another page (or is the session's first): the values
        Streamlit lists for this page's widgets are stale then (it drew them from their
        defaults on return: the Playground's degree 4 came back as 2) and the page must seed
        its widgets from the values it stored itself."""
        return self.previous != self.page


def shared(ss: MutableMapping) -> Shared:
    """This session's ``Shared`` object."""
    return page_state(ss, Shared)
