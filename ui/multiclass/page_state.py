"""The More classes page's state: one object under one session key
(``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ui.shared.session import PageState


@dataclass
class MoreClasses(PageState):
    """What the page remembers between runs; widget keys start with ``PREFIX``."""

    KEY: ClassVar[str] = "svmlab.more_classes"
    PREFIX: ClassVar[str] = "mc."

    added: list = field(default_factory=list)  # the points added by clicks [(x1, x2, label)]
