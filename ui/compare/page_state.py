"""The Compare solvers page's state: one object under one session key
(``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ui.shared.session import PageState


@dataclass
class Compare(PageState):
    """What the page remembers between runs; widget keys start with ``PREFIX``."""

    KEY: ClassVar[str] = "svmlab.compare"
    PREFIX: ClassVar[str] = "cmp."

    scaling: Any = None  # the scaling study's result (ui.compare.scaling), kept while it runs
    scaling_request: bool = False  # Run was pressed: the next run starts the study
    scaling_stop: bool = False  # Stop was pressed: the running study stops
