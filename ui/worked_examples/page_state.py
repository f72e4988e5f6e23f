"""The Worked examples page's state: one object under one session key
(``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ui.shared.session import PageState


@dataclass
class WorkedExamples(PageState):
    """What the page remembers between runs; widget keys start with ``PREFIX``."""

    KEY: ClassVar[str] = "svmlab.worked_examples"
    PREFIX: ClassVar[str] = "we."

    goto_playground: bool = False  # an example was opened in the Playground: switch there
    error: str | None = None  # why it could not be opened, shown once
