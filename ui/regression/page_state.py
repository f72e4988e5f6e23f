"""The Regression page's state: one object under one session key
(``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ui.shared.session import PageState


@dataclass
class Regression(PageState):
    """What the page remembers between runs; widget keys start with ``PREFIX``."""

    KEY: ClassVar[str] = "svmlab.regression"
    PREFIX: ClassVar[str] = "rg."

    added: list = field(default_factory=list)  # the placed points [(x, t)]
