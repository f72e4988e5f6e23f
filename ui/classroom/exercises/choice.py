"""A teacher's multiple-choice question (``choice``), and "predict, then reveal"
(``predict``): the student commits an answer before the picture or the number is shown
(``Task.reveal_first``: the page shows the feedback once the teacher reveals).

choice params: ``question``, ``choices`` (2 to ``MAX_CHOICES`` texts), ``answer`` (the right
choice's 0-based index), ``why`` (shown with the feedback), ``slide`` (optional: what it
practises, e.g. "slide 19"; default the chapter). Texts are cleaned to plain text and capped
(``PROMPT_MAX``); the pages show them as plain text.

predict params: the same as choice; or ``question``, ``answer`` (a number), ``tolerance``,
``why``; or ``number`` (a number screen's params: the engine computes the answer) with an
optional ``question``.
"""

from __future__ import annotations

import math

from ui.classroom.model import PROMPT_MAX, Feedback, Task
from ui.shared.numbers import fmt_num

from . import number
from .common import BOOK, clean_text, only_keys, right, wrong

KEYS = ("question", "choices", "answer", "why", "slide")
PREDICT_KEYS = (*KEYS, "tolerance", "number")
MAX_CHOICES = 6


def _cite(params: dict) -> str:
    s = params.get("slide")
    return f"{BOOK}, {s}" if s else BOOK


def validate(params: dict, kind: str = "choice") -> dict:
    only_keys(params, PREDICT_KEYS if kind == "predict" else KEYS, kind)
    if kind == "predict" and "number" in params:
        if set(params) - {"number", "question"}:
            raise ValueError("a predict screen with number takes only question besides it")
        if not isinstance(params["number"], dict):
            raise ValueError("number must be a number screen's params (a mapping)")
        out = {"number": number.validate(dict(params["number"]))}
        if "question" in params:
            out["question"] = clean_text(params["question"], name="question")
        return out
    out = {"question": clean_text(params.get("question", ""), name="question"),
           "why": clean_text(params.get("why", ""), name="why")}
    if not out["question"]:
        raise ValueError("question is empty: write the question")
    if "slide" in params:
        out["slide"] = clean_text(params["slide"], 60, "slide")
    ans = params.get("answer")
    if kind == "predict" and "choices" not in params:
        tol = params.get("tolerance", 0.0)
        for key, v in (("answer", ans), ("tolerance", tol)):
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise ValueError(f"{key} must be a number; got {v!r}")
        if tol < 0:
            raise ValueError(f"tolerance must be ≥ 0; got {tol!r}")
        return {**out, "answer": float(ans), "tolerance": float(tol)}
    choices = params.get("choices")
    if not isinstance(choices, list | tuple) or not 2 <= len(choices) <= MAX_CHOICES:
        raise ValueError(f"choices must be a list of 2 to {MAX_CHOICES} texts")
    texts = [clean_text(c, PROMPT_MAX // 2, f"choice {k + 1}") for k, c in enumerate(choices)]
    if not all(texts) or len(set(texts)) < len(texts):
        raise ValueError("every choice needs its own, non-empty text")
    if isinstance(ans, bool) or not isinstance(ans, int) or not 0 <= ans < len(texts):
        raise ValueError(f"answer must be the right choice's index, 0 to {len(texts) - 1}; "
                         f"got {ans!r}")
    return {**out, "choices": texts, "answer": ans}


def make(params: dict, seed: int, kind: str = "choice") -> Task:
    reveal = kind == "predict"
    if "number" in params:
        t = number.make(params["number"], seed)
        q = params.get("question", "")
        return Task("predict", "number", f"Predict first. {q} {t.prompt}".replace("  ", " "),
                    t.slide, t.X, t.y, t.settings, tolerance=t.tolerance, unit=t.unit,
                    reveal_first=True, data=t.data)
    if "choices" in params:
        return Task(kind, "choice", params["question"], _cite(params),
                    choices=tuple(params["choices"]), reveal_first=reveal,
                    data={"answer": params["answer"], "why": params["why"]})
    tol = params["tolerance"]
    exact = "Give the exact number." if tol == 0 else f"Answer to ±{fmt_num(tol, 2)}."
    return Task(kind, "number", f"{params['question']} {exact}",
                _cite(params), tolerance=tol, reveal_first=reveal,
                data={"exact": params["answer"], "why": params["why"], "how": params["why"],
                      "mistakes": [],
                      "unit": "the answer"})


def check(task: Task, answer: dict) -> Feedback:
    if task.form == "number":
        return number.check(task, answer)
    k, d = answer["choice"], task.data
    picked, right_text = task.choices[k], task.choices[d["answer"]]
    why = f" {d['why']}" if d["why"] else ""
    if k == d["answer"]:
        return right(f"Right: “{picked}”.{why}", f"{k + 1}", f"{d['answer'] + 1}")
    return wrong(f"You chose “{picked}”; the answer is “{right_text}”.{why}", f"{k + 1}",
                 f"{d['answer'] + 1}")
