"""What the store lets in, and its secrets: class codes, teacher keys and student tokens
(random; kept only as SHA-256, compared in constant time), a nickname cleaned, an answer's
JSON capped."""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets

from ui.classroom.model import ANSWER_MAX, NICKNAME_MAX, as_json

# no 0/O, 1/I/L: a code read off a projector is typed without a doubt
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LEN = 6
# control characters and the invisible / direction-changing ones (they could hide text)
_HIDDEN = re.compile(r"[\x00-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
# an answer is numbers, indices and short words: markup in it is an attack, not an answer
_MARKUP = re.compile(r"[<>]")


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))


def normal_code(code: object) -> str:
    """A code as typed ("abc 234" → "ABC234"); "" when it cannot be one."""
    if not isinstance(code, str):
        return ""
    c = re.sub(r"[\s-]", "", code).upper()
    return c if len(c) == CODE_LEN and all(ch in CODE_ALPHABET for ch in c) else ""


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def same_secret(secret: object, stored_digest: str | None) -> bool:
    """Whether ``secret`` hashes to ``stored_digest``, in constant time."""
    if not isinstance(secret, str) or not secret or not stored_digest or len(secret) > 200:
        return False
    return hmac.compare_digest(digest(secret), stored_digest)


def clean_nickname(nickname: object) -> str:
    """The nickname as shown: no control or invisible characters, spaces collapsed, at most
    NICKNAME_MAX characters. ValueError when nothing is left."""
    if not isinstance(nickname, str):
        raise ValueError("Your nickname must be text.")
    n = " ".join(_HIDDEN.sub("", nickname[:1000]).split())
    if not n:
        raise ValueError("Choose a nickname (a few letters; it is all the class stores "
                         "about you).")
    if len(n) > NICKNAME_MAX:
        raise ValueError(f"Your nickname is too long: at most {NICKNAME_MAX} characters.")
    return n


def _check_value(v: object, depth: int = 0) -> None:
    if depth > 4:
        raise ValueError("Your answer is nested too deeply to be an answer.")
    if isinstance(v, bool) or v is None or isinstance(v, int):
        return
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError("Your answer must be a finite number.")
        return
    if isinstance(v, str):
        if _HIDDEN.search(v) or _MARKUP.search(v):
            raise ValueError("Your answer holds characters an answer never has "
                             "(< or >, or control characters). Type only the answer.")
        return
    if isinstance(v, (list, tuple)):
        for x in v:
            _check_value(x, depth + 1)
        return
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                raise ValueError("Your answer is not in a form the store keeps.")
            _check_value(k, depth + 1)
            _check_value(x, depth + 1)
        return
    raise ValueError("Your answer is not in a form the store keeps.")


def answer_json(answer: object) -> str:
    """The answer's JSON as the store keeps it. ValueError (a message for the student) for an
    answer that is not a mapping of plain values, holds markup, or is too long."""
    if not isinstance(answer, dict) or not answer:
        raise ValueError("Your answer is empty: answer the question, then submit.")
    _check_value(answer)
    text = as_json(answer)
    if len(text) > ANSWER_MAX:
        raise ValueError(f"Your answer is too long ({len(text):,} characters; at most "
                         f"{ANSWER_MAX:,}).")
    return text
