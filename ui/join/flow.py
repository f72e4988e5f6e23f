"""A student in a live class, without Streamlit: joining (and rejoining from the address bar),
which screens are open, an answer's way from the form to the store, and what the student
is told. Session state is any mutable mapping; the store is passed in.

An answer is parsed and checked (``ui.classroom.exercises``), then kept by the store; the
student reads "Saved" only once ``Store.submit`` returned, that is once the answer is
committed. A "predict, then reveal" screen's check is kept too, and shown after the teacher's
reveal. Every message a student reads is plain text (the page escapes it).
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from dataclasses import dataclass

from ui.classroom import exercises, ratelimit
from ui.classroom.model import AnswerRow, ClassState, Seat, Task
from ui.classroom.store import (
    ClassEnded,
    ClassNotFound,
    NotOpen,
    NotStudent,
    Store,
    StoreUnavailable,
)
from ui.join.page_state import Join

CODE_LEN = 6
SAVED = "Saved."
NO_STORE = ("The class's database cannot be reached just now: your answer was NOT saved. "
            "Submit it again in a moment.")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Said:
    """A message for the student: ``level`` is st.success / info / warning / error."""

    level: str
    text: str


def clean_code(code: object) -> str:
    """A class code as typed (spaces and case forgiven)."""
    return "".join(str(code or "").split()).upper()[:CODE_LEN + 4]


def seat_of(ss: MutableMapping) -> tuple[str, Seat] | None:
    got = Join.of(ss).seat
    return got if isinstance(got, tuple) and len(got) == 2 else None


def join(ss: MutableMapping, store: Store, code: object, nickname: object, now: float) -> Said:
    """Join with a code and a nickname; the seat goes into ``ss``."""
    code = clean_code(code)
    if not code:
        return Said("error", "Type the class code your teacher shows.")
    if not ratelimit.allow(ss, "join", now):
        wait = ratelimit.wait_s(ss, "join", now)
        return Said("error", f"Too many tries: wait {int(wait) + 1} s, then join again.")
    try:
        seat = store.join(code, str(nickname or ""))
    except ClassEnded:
        return Said("error", f"The class {code} has ended.")
    except ClassNotFound:
        return Said("error", f"There is no class with the code {code}: check it with your "
                    "teacher.")
    except ValueError as exc:  # the nickname: empty, too long; a full class
        return Said("error", str(exc))
    except StoreUnavailable:
        log.warning("join: the store is unavailable", exc_info=True)
        return Said("error", "The class's database cannot be reached just now: join again in "
                    "a moment.")
    page = Join.of(ss)
    page.seat, page.said = (code, seat), {}
    return Said("success", f"You joined as {seat.nickname}.")


def rejoin(ss: MutableMapping, store: Store, code: object, token: object) -> Said | None:
    """The seat named by the address bar (``?code=…&seat=…``: a reload, or a new session
    after this student's server went away). None when there is nothing to rejoin."""
    code = clean_code(code)
    if seat_of(ss) is not None or not code or not isinstance(token, str) or not token:
        return None
    try:
        seat = store.join(code, "", token=token[:100])
    except ClassNotFound:
        return Said("warning", f"The class {code} has ended, or this link is not a seat in "
                    "it.")
    except ValueError:  # not a seat of this class: join with a nickname
        return Said("info", "Join the class with a nickname.")
    except StoreUnavailable:
        log.warning("rejoin: the store is unavailable", exc_info=True)
        return Said("error", "The class's database cannot be reached just now: reload in a "
                    "moment.")
    Join.of(ss).seat = (code, seat)
    return None


def open_screens(state: ClassState) -> range:
    """The screens a student may open now (the teacher's pace)."""
    n = len(state.activity.screens)
    return range(n if state.pace is None else max(0, min(n, state.pace + 1)))


def task_for(state: ClassState, seat: Seat, screen: int) -> Task:
    return exercises.variant(state.activity.screens[screen], seat.seed)


def submit(ss: MutableMapping, store: Store, state: ClassState, screen: int, raw: dict,
           now: float) -> Said:  # fmt: skip
    """Parse, check and keep one answer; what to tell the student. Nothing is said to be
    saved unless the store committed it."""
    code, seat = seat_of(ss)
    if state.paused:
        return _said(ss, screen, "warning", "Your teacher paused the class: wait, then submit.")
    if not ratelimit.allow(ss, "answer", now):
        wait = ratelimit.wait_s(ss, "answer", now)
        return _said(ss, screen, "error", f"Too many answers at once: wait {int(wait) + 1} s.")
    task = task_for(state, seat, screen)
    try:
        answer = exercises.parse(task, raw)
    except exercises.AnswerError as exc:
        return _said(ss, screen, "error", str(exc))
    feedback = exercises.check(task, answer)
    if feedback.status == "invalid":
        return _said(ss, screen, "error", feedback.message)
    try:
        store.submit(code, seat.token, screen, answer, feedback)
    except (NotOpen, NotStudent) as exc:
        return _said(ss, screen, "warning", str(exc))
    except ClassNotFound:
        return _said(ss, screen, "error", "The class has ended: your answer was not saved.")
    except ValueError as exc:
        return _said(ss, screen, "error", str(exc))
    except StoreUnavailable:
        log.warning("submit: the store is unavailable", exc_info=True)
        return _said(ss, screen, "error", NO_STORE)
    page = Join.of(ss)
    page.said = {k: v for k, v in page.said.items() if k != screen}
    # saved: from now on the page says what the stored answer says (last_answer_said)
    if task.reveal_first and screen not in state.revealed:
        return Said("info", f"{SAVED} Your answer is in: it is checked when your teacher "
                    "reveals this screen.")
    return Said("success" if feedback.correct else "warning",
                f"{SAVED} {verdict(feedback.status)} {feedback.message}")


def verdict(status: str) -> str:
    return "Right." if status == "correct" else "Not quite."


def _said(ss: MutableMapping, screen: int, level: str, text: str) -> Said:
    said = Said(level, text)
    page = Join.of(ss)
    page.said = {**page.said, screen: said}
    return said


def last_answer_said(row: AnswerRow | None, task: Task, state: ClassState,
                     screen: int) -> Said | None:  # fmt: skip
    """What the student's last saved answer to a screen says now (after a reload, or once
    the teacher revealed a "predict first" screen)."""
    if row is None:
        return None
    if task.reveal_first and screen not in state.revealed:
        return Said("info", f"{SAVED} Your answer ({row.summary}) is in: it is checked when "
                    "your teacher reveals this screen.")
    return Said("success" if row.status == "correct" else "warning",
                f"{SAVED} Your answer: {row.summary}. {verdict(row.status)} {row.message}")
