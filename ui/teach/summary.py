"""The teacher's dashboard in numbers (pure): from the store's ``Dashboard`` (every student and
every attempt), per screen who answered, who is right, who is still working, the numbers
typed, the most common wrong answers, the points marked or placed; and the names shown on
the projector (nicknames, or "Student k" in join order when the teacher hides them).

A student's answer to a screen is their *last* attempt (they may try again after feedback).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ui.classroom.model import AnswerRow, Dashboard
from ui.classroom.store.store import TOUCH_EVERY_S

COMMON_MAX = 5  # the most common wrong answers listed per screen
# a student whose page asked within this long is "here now" (it writes every TOUCH_EVERY_S)
HERE_S = 2.5 * TOUCH_EVERY_S


@dataclass(frozen=True)
class ScreenSummary:
    screen: int
    title: str
    kind: str
    answered: int  # students with an answer to this screen
    correct: int  # of them, whose last answer is right
    working: int  # joined students without an answer yet
    waiting: int  # answers kept for "predict, then reveal" (checked, not yet shown)
    latest: dict[int, AnswerRow] = field(default_factory=dict)  # student id → last answer
    numbers: tuple[float, ...] = ()  # the values typed (number, control)
    common_wrong: tuple[tuple[str, int], ...] = ()  # (answer, how many), most common first
    marks: tuple[int, ...] = ()  # per point of the picture: how many students marked it
    placed: tuple[tuple[float, float, int, bool], ...] = ()  # x1, x2, label, right


def latest_answers(d: Dashboard) -> dict[int, dict[int, AnswerRow]]:
    """screen → student id → that student's last answer."""
    out: dict[int, dict[int, AnswerRow]] = {}
    for a in d.answers:  # oldest first: a later attempt replaces an earlier one
        out.setdefault(a.screen, {})[a.student_id] = a
    return out


def summarise(d: Dashboard, n_points: dict[int, int] | None = None) -> list[ScreenSummary]:
    """One summary per screen of the activity. ``n_points``: screen → number of points of its
    picture (for the marks' counts; screens without a picture are left out)."""
    latest = latest_answers(d)
    joined = len(d.students)
    out = []
    for k, screen in enumerate(d.state.activity.screens):
        rows = latest.get(k, {})
        right = sum(a.status == "correct" for a in rows.values())
        predict = screen.kind == "predict" and k not in d.state.revealed
        wrong = Counter(a.summary for a in rows.values() if a.status == "wrong")
        numbers = tuple(float(a.answer["value"]) for a in rows.values()
                        if isinstance(a.answer.get("value"), int | float))
        marks: tuple[int, ...] = ()
        if n_points and k in n_points:
            c = Counter(i for a in rows.values() for i in a.answer.get("points", ()))
            marks = tuple(c.get(i, 0) for i in range(n_points[k]))
        placed = tuple((float(a.answer["x"][0]), float(a.answer["x"][1]),
                        int(a.answer.get("label", 1)), a.status == "correct")
                       for a in rows.values() if isinstance(a.answer.get("x"), list))
        out.append(ScreenSummary(
            screen=k, title=screen.title or f"Screen {k + 1}", kind=screen.kind,
            answered=len(rows), correct=right, working=max(0, joined - len(rows)),
            waiting=len(rows) if predict else 0, latest=rows, numbers=numbers,
            common_wrong=tuple(wrong.most_common(COMMON_MAX)), marks=marks, placed=placed))
    return out


def display_names(d: Dashboard) -> dict[int, str]:
    """student id → the name the projector shows."""
    if d.state.anonymise:
        return {s.id: f"Student {k}" for k, s in enumerate(d.students, start=1)}
    return {s.id: s.nickname for s in d.students}


def progress_line(s: ScreenSummary) -> str:
    """The dashboard's line for one screen (plain text)."""
    tail = f" · {s.waiting} waiting for the reveal" if s.waiting else ""
    return f"answered {s.answered} · correct {s.correct} · still working {s.working}{tail}"


def here_now(d: Dashboard, now: float) -> int:
    """Students whose page is open (it asked the store within ``HERE_S``)."""
    return sum(now - s.last_seen <= HERE_S for s in d.students)
