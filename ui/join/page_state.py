"""The Join page's state: one object under one session key (``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ui.shared.session import PageState


@dataclass
class Join(PageState):
    """A student's seat in a live class and what the page remembers between runs; widget
    keys start with ``PREFIX``."""

    KEY: ClassVar[str] = "svmlab.join"
    PREFIX: ClassVar[str] = "join."

    seat: Any = None  # (class code, Seat) of this session
    said: dict = field(default_factory=dict)  # screen → Said: why its last submit was NOT saved
    drawn: Any = None  # the class state the page last drew (the watch compares)
