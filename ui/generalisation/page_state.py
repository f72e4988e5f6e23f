"""The Generalisation page's state: one object under one session key
(``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ui.shared.session import PageState


@dataclass
class Generalisation(PageState):
    """No state of its own: its widgets (keys start with ``PREFIX``) and the copy of their
    values that survives a visit to another page."""

    KEY: ClassVar[str] = "svmlab.generalisation"
    PREFIX: ClassVar[str] = "gnl."
