"""What every exercise kind shares: the student's-input error, the sources by title, plain-text
cleaning of a teacher's words, point names, and the seeded random generator of a variant."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ui.classroom.model import PROMPT_MAX, Feedback
from ui.shared.numbers import MINUS, fmt_num

#: the chapter every exercise practises, by its title (issue 27 item 10: no bare "seed 000")
BOOK = "Zaki & Meira, Data Mining and Machine Learning, ch. 21"
#: the two-point KKT example and Platt's SMO formulas
NOTE = "Note 4: Support Vector Machine SVM (blog note, 2018)"
#: seeds are student numbers; more than this is not a seed a store hands out
SEED_MAX = 2**31 - 1


class AnswerError(ValueError):
    """A student's answer that cannot be checked (empty, too long, not a number, out of range,
    code): the message says what to type instead and is shown as plain text."""


def slide(n: int | str) -> str:
    """"Zaki & Meira, Data Mining and Machine Learning, ch. 21, slide 16"."""
    return f"{BOOK}, slide {n}"


def note(section: str) -> str:
    return f"{NOTE}, {section}"


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def clean_text(text: Any, cap: int = PROMPT_MAX, name: str = "text") -> str:
    """A teacher's text as plain text: NFC, control and bidi characters removed, whitespace
    folded to single spaces, at most ``cap`` characters. The pages show it as plain text
    (ui.shared.markdown), never as markdown or HTML; nothing here makes markup of it."""
    if not isinstance(text, str):
        raise ValueError(f"{name} must be text, got {type(text).__name__}")
    text = " ".join(_CONTROL.sub("", unicodedata.normalize("NFC", text)).split())
    if len(text) > cap:
        raise ValueError(f"{name} is {len(text):,} characters long; at most {cap:,} fit")
    return text


def name(i: int) -> str:
    """Point i (0-based) as the slides name it: x1, x2, …"""
    return f"x{int(i) + 1}"


def names(idx: Iterable[int]) -> str:
    """"x1, x4 and x13"; "none" for no point."""
    ns = [name(i) for i in sorted(idx)]
    if not ns:
        return "none"
    return ns[0] if len(ns) == 1 else ", ".join(ns[:-1]) + " and " + ns[-1]


def summary_of(idx: Iterable[int]) -> str:
    """The dashboard's few characters for a set of points: "x1 x4 x13" ("none")."""
    return " ".join(name(i) for i in sorted(idx)) or "none"


def label(y: float) -> str:
    return "+1" if y > 0 else f"{MINUS}1"


def coords(p) -> str:
    """"(3.5, 4.25)" with a real minus sign."""
    return f"({fmt_num(float(p[0]), 6)}, {fmt_num(float(p[1]), 6)})"


def point_text(X, y, i: int) -> str:
    """"x16 = (2, 3), y = +1"."""
    return f"{name(i)} = {coords(X[i])}, y = {label(y[i])}"


def rng_for(params: Mapping[str, Any], seed: int, salt: str = "") -> np.random.Generator:
    """The variant's generator: a function of the screen's params and the student's seed, so
    two screens of one activity give one student different variants, and a screen gives
    every student the same variant for the same seed."""
    text = json.dumps(params, sort_keys=True, default=str) + salt
    digest = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    return np.random.default_rng([int(seed), digest])


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not (
            0 <= int(seed) <= SEED_MAX):
        raise ValueError(f"seed must be a whole number from 0 to {SEED_MAX:,}, got {seed!r}")
    return int(seed)


def only_keys(params: Mapping[str, Any], allowed: Iterable[str], kind: str) -> None:
    """ValueError naming a parameter the kind does not know (a typo must not pass silently)."""
    if not isinstance(params, Mapping):
        raise ValueError(f"the params of a {kind} screen must be a mapping, got "
                         f"{type(params).__name__}")
    unknown = sorted(set(map(str, params)) - set(allowed))
    if unknown:
        raise ValueError(f"a {kind} screen has no parameter {', '.join(unknown)}; it takes "
                         f"{', '.join(sorted(allowed))}")


def one_of(params: Mapping[str, Any], key: str, choices: tuple, default: Any = None) -> Any:
    v = params.get(key, default)
    if v not in choices:
        raise ValueError(f"{key} must be one of {', '.join(map(str, choices))}; got {v!r}")
    return v


def flag(params: Mapping[str, Any], key: str, default: bool) -> bool:
    v = params.get(key, default)
    if not isinstance(v, bool):
        raise ValueError(f"{key} must be true or false, got {v!r}")
    return v


def right(message: str, summary: str, accepted: str = "") -> Feedback:
    return Feedback("correct", message, summary, accepted)


def wrong(message: str, summary: str, accepted: str = "") -> Feedback:
    return Feedback("wrong", message, summary, accepted)
