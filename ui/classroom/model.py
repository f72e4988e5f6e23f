"""The live class's data: what a teacher prepares (an ``Activity`` of ``Screen``s), what each
student is given (a ``Task``: their own seeded variant of a screen), what comes back
(``Feedback``), and what the store answers (``ClassState``, ``Seat``, ``AnswerRow``,
``Dashboard``). Plain frozen dataclasses: the exercises (``ui.classroom.exercises``), the
store (``ui.classroom.store``) and the two pages (``ui.join``, ``ui.teach``) share them.

Everything a user typed (a nickname, an answer, a teacher's question) is kept as plain text
and shown as plain text (``ui.shared.markdown``), never as markdown or HTML.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

#: the exercise kinds (ui.classroom.exercises checks each)
KINDS = ("mark", "number", "place", "control", "predict", "choice")

NICKNAME_MAX = 24  # characters
ANSWER_MAX = 2_000  # characters of an answer's JSON (a few dozen marked points fit)
TITLE_MAX = 120
PROMPT_MAX = 500
SCREENS_MAX = 30


@dataclass(frozen=True)
class Screen:
    """One screen of an activity, as the teacher set it: ``kind`` (one of ``KINDS``) and its
    ``params`` (JSON-able; each kind documents its own in ui.classroom.exercises)."""

    kind: str
    params: dict = field(default_factory=dict)
    title: str = ""


@dataclass(frozen=True)
class Activity:
    """A sequence of screens a teacher runs as a live class."""

    title: str
    screens: tuple[Screen, ...]

    def to_json(self) -> str:
        return json.dumps({"title": self.title,
                           "screens": [asdict(s) for s in self.screens]},
                          sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Activity:
        d = json.loads(text)
        return cls(d["title"], tuple(Screen(s["kind"], s.get("params", {}), s.get("title", ""))
                                     for s in d["screens"]))


@dataclass(frozen=True)
class Task:
    """One student's variant of a screen (``exercises.variant(screen, seed)``): what the page
    draws and asks. Points are 0-based indices into ``X`` and are shown as x1, x2, …"""

    kind: str
    form: str  # how it is answered: "points", "number", "point", "control" or "choice"
    prompt: str  # plain text
    slide: str  # the source it practises, by title and slide ("Zaki & Meira, ch. 21, slide 16")
    X: tuple[tuple[float, float], ...] = ()
    y: tuple[int, ...] = ()
    settings: dict = field(default_factory=dict)  # ui.shared.state settings of the picture
    choices: tuple[str, ...] = ()  # form "choice"
    control: str = ""  # form "control": "C", "sigma" or "degree"
    bounds: tuple[float, float] = (0.0, 0.0)  # form "control" / "point": the allowed range
    tolerance: float | None = None  # form "number": |answer − exact| ≤ tolerance is right
    unit: str = ""  # what the number is, for the answer box's label ("ξ₁₆", "η")
    reveal_first: bool = False  # "predict, then reveal": feedback waits for the teacher
    data: dict = field(default_factory=dict)  # the checker's own (exact answers etc.)


@dataclass(frozen=True)
class Feedback:
    """The check of one answer. ``message`` says why (not only right or wrong); ``summary`` is
    the answer in a few characters for the teacher's dashboard (``"0.7071"``, ``"x1 x4 x13"``,
    ``"(3, 2) −1"``); ``accepted`` lists every correct answer where there are several."""

    status: Literal["correct", "wrong", "invalid"]
    message: str
    summary: str = ""
    accepted: str = ""

    @property
    def correct(self) -> bool:
        return self.status == "correct"


@dataclass(frozen=True)
class ClassState:
    """What anyone with the class code may know of a class."""

    code: str
    title: str
    activity: Activity
    pace: int | None  # students may open screens 0 .. pace; None: all
    paused: bool
    revealed: frozenset[int]  # screens whose "predict first" the teacher ended
    anonymise: bool
    shown: ShownAnswer | None  # an answer the teacher shows to the class
    created_at: float  # seconds since the epoch


@dataclass(frozen=True)
class ShownAnswer:
    screen: int
    name: str  # the nickname, or "Student 3" when names are anonymised
    answer: dict
    summary: str


@dataclass(frozen=True)
class Seat:
    """A student in a class: ``token`` (secret, kept in the student's session) lets them
    answer and rejoin; ``seed`` makes their variants of the screens."""

    student_id: int
    token: str
    nickname: str
    seed: int


@dataclass(frozen=True)
class AnswerRow:
    id: int
    student_id: int
    screen: int
    answer: dict
    status: str  # Feedback.status
    summary: str
    message: str
    at: float  # committed, seconds since the epoch


@dataclass(frozen=True)
class StudentRow:
    id: int
    nickname: str
    joined_at: float
    last_seen: float


@dataclass(frozen=True)
class Dashboard:
    """Everything the teacher's dashboard reads, in one query's worth (teacher key only)."""

    state: ClassState
    students: tuple[StudentRow, ...]
    answers: tuple[AnswerRow, ...]  # every attempt, oldest first


def as_json(value: Any) -> str:
    """The canonical JSON the store keeps."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
