"""A student's raw answer (what a page sends) as the checked answer ``check`` reads, or an
``AnswerError`` whose message says what to type instead.

Forms and what they return:

- "points": {"points": [0, 3, 12]} → the sorted indices (an empty list is an answer: "none
  of them"); duplicates, non-integers and indices outside the picture are errors;
- "number": {"value": "0.71"} or {"value": 0.71} → {"value": 0.71}. Typed text may use a
  decimal comma ("0,71" is read as 0.71: a lone comma and no point is a decimal mark in most
  of Europe, and no answer here needs a thousands separator), a real minus sign (−), an
  exponent (1.5e-3) or a fraction of two numbers ("5/6"). "nan", "inf", "1e400" (too large
  for a float), text and code are errors, and so is a value beyond ``NUMBER_MAX``;
- "point": {"x": [1.0, 2.5], "label": 1} → {"x": [1.0, 2.5], "label": 1}: inside the task's
  bounds; the label ±1 (the task's own, when it fixes one);
- "control": {"value": 0.5} → {"value": 0.5}, inside the task's bounds (a whole number for
  the degree);
- "choice": {"choice": 2} → {"choice": 2}, one of the task's choices.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ui.classroom.model import ANSWER_MAX, Task
from ui.shared.numbers import fmt_num, fmt_setting

from .common import AnswerError

#: the largest |number| an answer may be (every quantity here is far smaller)
NUMBER_MAX = 1e9
#: typed characters of one number
TEXT_MAX = 60
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?")
_CODE = re.compile(r"[<>{};`\\]|script|javascript:|=", re.IGNORECASE)


def number(raw: Any, what: str = "answer") -> float:
    """A typed or sent number, checked (see the module's docstring)."""
    if isinstance(raw, bool) or raw is None:
        raise AnswerError(f"Type a number as your {what}.")
    if isinstance(raw, int | float):
        try:
            v = float(raw)
        except OverflowError:  # an int beyond a float's range
            v = math.inf
    elif isinstance(raw, str):
        v = _typed(raw, what)
    else:
        raise AnswerError(f"Type a number as your {what}.")
    if not math.isfinite(v):
        raise AnswerError(f"Your {what} is not a finite number: type an ordinary number "
                          "such as 0.71.")
    if abs(v) > NUMBER_MAX:
        raise AnswerError(f"Your {what} is out of range: no answer here is beyond "
                          f"±{fmt_num(NUMBER_MAX)}.")
    return v + 0.0  # −0.0 is 0


def _typed(text: str, what: str) -> float:
    t = text.strip()
    if not t:
        raise AnswerError(f"Your {what} is empty: type a number such as 0.71.")
    if len(t) > TEXT_MAX:
        raise AnswerError(f"Your {what} is too long: type one number such as 0.71.")
    if _CODE.search(t):
        raise AnswerError(f"Your {what} looks like code, not a number: type a number such "
                          "as 0.71.")
    t = t.replace("\u2212", "-").replace(" ", "").lower()
    if "," in t and "." not in t and t.count(",") == 1:
        t = t.replace(",", ".")        # a decimal comma: 0,71 is 0.71
    parts = t.split("/")
    if len(parts) == 2 and all(_NUMBER.fullmatch(p) for p in parts):
        num, den = float(parts[0]), float(parts[1])
        if den == 0:
            raise AnswerError(f"Your {what} divides by zero: type a number such as 0.71.")
        return num / den
    if not _NUMBER.fullmatch(t):
        raise AnswerError(f"Your {what} \"{text.strip()}\" is not a number: type digits "
                          "with a decimal point, such as 0.71, −3.33 or 5/6.")
    return float(t)  # "1e400" is inf: number() says it is not finite


def parse(task: Task, raw: Any) -> dict:
    """The checked answer to ``task`` (see the module's docstring); AnswerError otherwise."""
    if not isinstance(raw, dict) or not raw:
        raise AnswerError("No answer was sent: answer the question, then submit.")
    try:
        size = len(json.dumps(raw, default=str))
    except (TypeError, ValueError):
        raise AnswerError("This answer cannot be read: answer the question again.") from None
    if size > ANSWER_MAX:
        raise AnswerError(f"This answer is too long ({size:,} characters; at most "
                          f"{ANSWER_MAX:,}): answer the question again.")
    form = task.form
    if form == "points":
        return {"points": _points(task, raw.get("points"))}
    if form == "number":
        return {"value": number(raw.get("value"))}
    if form == "point":
        return _point(task, raw)
    if form == "control":
        return {"value": _control(task, raw.get("value"))}
    if form == "choice":
        return {"choice": _choice(task, raw.get("choice"))}
    raise AnswerError(f"This task cannot take answers (form {form!r}).")


def _points(task: Task, raw: Any) -> list[int]:
    if raw is None:
        raise AnswerError("Tap the points first (or submit no point if none qualifies).")
    if not isinstance(raw, list | tuple):
        raise AnswerError("The marked points could not be read: tap them again.")
    n, out = len(task.X), []
    for v in raw:
        if isinstance(v, str) and re.fullmatch(r"\s*x?\d{1,4}\s*", v, re.IGNORECASE):
            v = int(v.strip().lstrip("xX")) - 1 if "x" in v.lower() else int(v)
        if isinstance(v, bool) or not isinstance(v, int):
            raise AnswerError("The marked points could not be read: tap them again.")
        if not 0 <= v < n:
            raise AnswerError(f"There is no point x{v + 1} here: the points are x1 to x{n}.")
        if v in out:
            raise AnswerError(f"x{v + 1} is marked twice: tap each point once.")
        out.append(v)
    return sorted(out)


def _point(task: Task, raw: dict) -> dict:
    xy = raw.get("x")
    if not isinstance(xy, list | tuple) or len(xy) != 2:
        raise AnswerError("Place one point: its two coordinates were not sent.")
    lo, hi = task.bounds
    p = [number(v, "coordinate") for v in xy]
    if not all(lo <= v <= hi for v in p):
        raise AnswerError(f"Place the point inside the picture: both coordinates from "
                          f"{fmt_setting(lo)} to {fmt_setting(hi)}.")
    fixed = task.data.get("label")
    lab = raw.get("label", fixed)
    if isinstance(lab, bool) or lab not in (1, -1, 1.0, -1.0):
        raise AnswerError("Choose the point's class: +1 or −1.")
    if fixed is not None and int(lab) != fixed:
        raise AnswerError(f"This task places a point of class {'+1' if fixed > 0 else '−1'}.")
    return {"x": p, "label": int(lab)}


def _control(task: Task, raw: Any) -> float:
    what = {"C": "C", "sigma": "σ", "degree": "degree"}.get(task.control, "value")
    v = number(raw, what)
    lo, hi = task.bounds
    if not lo <= v <= hi:
        raise AnswerError(f"{what} must be from {fmt_setting(lo)} to {fmt_setting(hi)}.")
    if task.control == "degree" and v != int(v):
        raise AnswerError("The degree must be a whole number.")
    return v


def _choice(task: Task, raw: Any) -> int:
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise AnswerError("Pick one of the choices.")
    if not 0 <= raw < len(task.choices):
        raise AnswerError(f"Pick one of the {len(task.choices)} choices.")
    return raw
