"""The Teach page's state: one object under one session key (``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ui.shared.session import PageState


@dataclass
class Teach(PageState):
    """The class this session teaches; widget keys start with ``PREFIX``."""

    KEY: ClassVar[str] = "svmlab.teach"
    PREFIX: ClassVar[str] = "teach."

    taught: tuple[str, str] | None = None  # (code, key) of the class this session teaches
    key_shown: bool = False  # the key was shown once after the start
