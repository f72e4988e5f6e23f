"""The live class's exercises: each kind's seeded variants, the parsing of a student's answer,
and its check by the engine with feedback that says why (issue 26; no streamlit).

- ``variant(screen, seed) -> Task``: a student's own variant of a screen (seed 0: the book's
  numbers); deterministic, cached per (screen, seed);
- ``parse(task, raw) -> dict``: the page's raw answer checked (``AnswerError`` otherwise);
- ``check(task, answer) -> Feedback``: right or wrong, and why;
- ``validate_screen(screen) -> Screen``: a teacher's screen checked, its texts cleaned (a
  ValueError names the bad value);
- ``screen_from_link(spec) -> Screen``: a Playground teacher-link picture as a "mark the
  support vectors" screen.

What a page draws: ``Task.X``/``Task.y`` (points x1, x2, … by index) and, when
``Task.data["draw_fit"]`` is true (mark, place), the fitted hyperplane and its margins with
``Task.settings`` (the Playground's fit of the same points); never the support vectors' marks,
and never the fit of a number task (it would show the answer). ``Feedback.accepted`` is the
right answer for the teacher's dashboard: a page shows it to a student only after a reveal.
Seeds are whole numbers from 0 to 2³¹ − 1; seed 0 is the book's own numbers.

One module per concern: ``common`` (sources, plain text, names), ``fits`` (pictures, seeded
moves, the engine's fit), ``supports`` (every accepted set of support vectors), ``parse``,
and one module per kind: ``mark``, ``number`` (with ``steps``: SMO, SGA, kernels), ``place``,
``control``, ``choice`` (choice and predict).
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from functools import lru_cache
from typing import Any

from ui.classroom.model import KINDS, TITLE_MAX, Feedback, Screen, Task, as_json

from . import choice, control, mark, number, place
from .common import AnswerError, check_seed, clean_text
from .parse import parse

log = logging.getLogger(__name__)

__all__ = ["AnswerError", "check", "parse", "screen_from_link", "validate_screen", "variant"]

_KIND = {"mark": mark, "number": number, "place": place, "control": control}


def validate_screen(screen: Screen) -> Screen:
    """``screen`` with its params checked and filled in and its texts cleaned; ValueError
    names the bad value. The book's variant (seed 0) is built once, so a screen that
    validates can be given to every student."""
    if not isinstance(screen, Screen):
        raise ValueError(f"a screen must be a Screen, got {type(screen).__name__}")
    if screen.kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {screen.kind!r}")
    title = clean_text(screen.title, TITLE_MAX, "title")
    params = dict(screen.params or {})
    if screen.kind in ("choice", "predict"):
        params = choice.validate(params, screen.kind)
    else:
        params = _KIND[screen.kind].validate(params)
    try:
        as_json(params)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the screen's params must be plain JSON values ({exc})") from None
    out = Screen(screen.kind, params, title)
    variant(out, 0)
    return out


def variant(screen: Screen, seed: int) -> Task:
    """The task a student with ``seed`` gets for ``screen`` (validated with
    ``validate_screen``). The same (screen, seed) always gives the same task; the result is
    shared between callers (cached): read it, do not change its dicts."""
    seed = check_seed(seed)
    try:
        key = as_json(asdict(screen))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"validate the screen first (validate_screen): {exc}") from None
    return _variant(key, seed)


@lru_cache(maxsize=4096)
def _variant(key: str, seed: int) -> Task:

    d = json.loads(key)
    kind, params = d["kind"], d["params"]
    if kind in ("choice", "predict"):
        return choice.make(params, seed, kind)
    return _KIND[kind].make(params, seed)


def check(task: Task, answer: dict) -> Feedback:
    """``answer`` (``parse``'s result) checked: right or wrong, and why. Never raises: an
    answer the engine cannot check (a failure of its own) is "invalid", with a message."""
    try:
        if task.kind in ("choice", "predict"):
            return choice.check(task, answer)
        return _KIND[task.kind].check(task, answer)
    except Exception as exc:  # a live class must go on: the student can answer again
        log.exception("could not check a %s answer", task.kind)
        return Feedback("invalid", f"This answer could not be checked ({type(exc).__name__}); "
                        "answer again, or tell your teacher.", "?")


def screen_from_link(spec: Any) -> Screen:
    """A Playground teacher link's picture (``X``, ``y``, ``settings``, ``title``,
    ``question``: the fields of ui.playground.teacher.TeacherSpec) as a validated "mark the
    support vectors" screen on that picture."""
    params: dict[str, Any] = {
        "what": "sv", "dataset": "custom",
        "X": [[float(a), float(b)] for a, b in spec.X],
        "y": [int(v) for v in spec.y],
        "settings": dict(spec.settings or {}),
    }
    question = clean_text(getattr(spec, "question", "") or "", name="question")
    if question:
        params["question"] = question
    title = clean_text(getattr(spec, "title", "") or "", TITLE_MAX, "title")
    return validate_screen(Screen("mark", params, title or "Mark the support vectors"))
