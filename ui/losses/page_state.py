"""The Losses & perceptron page's state: one object under one session key
(``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ui.shared.session import PageState


@dataclass
class Losses(PageState):
    """What the page remembers between runs; widget keys start with ``PREFIX``."""

    KEY: ClassVar[str] = "svmlab.losses"
    PREFIX: ClassVar[str] = "los."

    run_key: Any = None  # the perceptron run the step slider belongs to
