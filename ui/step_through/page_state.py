"""The Step-through page's state: one object under one session key
(``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ui.shared.session import PageState


@dataclass
class StepThrough(PageState):
    """The playback cursor and what the page remembers between runs; widget keys start with
    ``PREFIX``."""

    KEY: ClassVar[str] = "svmlab.step_through"
    PREFIX: ClassVar[str] = "stp."

    cursor: int = 0  # the step shown
    playing: bool = False
    last_tick: float | None = None  # when the play timer last stepped (None: not started)
    message: str | None = None  # a callback's message, shown once (a toast)
    payload_sent: Any = None  # the run whose player payload this session has sent
    need_seen: int = 0  # the player's last request for the payload (its counter)
    run_key: Any = None  # the run the cursor belongs to (a new run starts at step 0)
