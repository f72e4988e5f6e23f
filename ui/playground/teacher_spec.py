"""A teacher's picture (points, settings, a title and a question, which controls are locked
or hidden): ``TeacherSpec``, its validation, and the long link's form of it.

A spec is validated on the way in (a link is never trusted). Its canonical JSON (sorted keys,
no spaces) is what the short link's id hashes (``spec_id``: the first 50 bits of its SHA-256 in
base32) and what the long link ``?ts=<blob>`` carries, through the one URL codec
(``ui.shared.links.pack_bytes``: zlib + base64url), so it works on any server.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ui.shared import links
from ui.shared.points import validate_points
from ui.shared.settings import Settings

SPEC_VERSION = 1
TITLE_MAX = 120  # characters
QUESTION_MAX = 500
MAX_SPEC_BYTES = 64_000  # a stored spec (2000 points in float64 pack to about 45 kB)
MAX_BLOB_CHARS = 100_000  # the long link's ts parameter
ID_LEN = 10

#: What a teacher can lock: name → label (the kernel lock covers its parameters too).
LOCKS = {
    "points": "points",
    "kernel": "kernel",
    "loss": "loss",
    "C": "C / hard margin",
    "bias": "bias",
    "solver": "solver",
}
#: What a teacher can hide so students predict first: name → label.
HIDES = {
    "numbers": "numbers",
    "table": "points table",
    "sv": "SV rings and slack",
}

# control characters and the invisible / direction-changing ones (they could hide text)
_HIDDEN_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
_SPEC_KEYS = {"v", "points", "settings", "title", "question", "lock", "hide", "nonce"}
# a hiding link's own random part: two teachers' same picture are two links, two reveals
_NONCE_RE = re.compile(r"^[0-9a-f]{8,32}$")


class TeacherLinkError(ValueError):
    """A teacher link (or a stored spec) could not be read; the message says why."""


BLOB_FRAME = links.Frame(
    max_chars=MAX_BLOB_CHARS,
    max_bytes=MAX_SPEC_BYTES,
    words={
        "long": "the picture in the link is missing or too long",
        "chars": "the picture in the link has characters a link never has",
        "encoding": "the picture in the link is damaged (cannot decode it)",
        "inflate": "the picture in the link is damaged (cannot decode it)",
        "large": f"the picture in the link is too large (at most {MAX_SPEC_BYTES // 1000} kB)",
        "cut": "the picture in the link is cut off",
    },
    error=TeacherLinkError,
)


def clean_text(name: str, value: Any, max_chars: int, *, multiline: bool = False) -> str:
    """Plain text for a title or question: no control or invisible characters, at most
    ``max_chars`` characters (TeacherLinkError beyond, rather than cutting it silently)."""
    if not isinstance(value, str):
        raise TeacherLinkError(f"the {name} must be text")
    v = value.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    if not multiline:
        v = v.replace("\n", " ")
    v = _HIDDEN_CHARS.sub("", v).strip()
    if len(v) > max_chars:
        raise TeacherLinkError(
            f"the {name} is too long: {len(v)} characters (at most {max_chars})"
        )
    return v


def _names(kind: str, value: Any, allowed: Mapping[str, str]) -> frozenset[str]:
    if isinstance(value, str) or not isinstance(value, (list, tuple, set, frozenset)):
        raise TeacherLinkError(f"the {kind} controls must be a list of names")
    if len(value) > len(allowed):
        raise TeacherLinkError(f"too many {kind} controls")
    bad = [v for v in value if not isinstance(v, str) or v not in allowed]
    if bad:
        shown = ", ".join(repr(b)[:30] for b in bad[:3])
        raise TeacherLinkError(
            f"unknown {kind} control {shown} (known: {', '.join(allowed)})"
        )
    return frozenset(value)


@dataclass(frozen=True, eq=False)
class TeacherSpec:
    """A validated teacher picture; make it with ``make_spec`` (or read it with
    ``decode_blob`` / ``get_link``). Two specs are equal when their canonical JSON is."""

    X: np.ndarray
    y: np.ndarray
    settings: dict
    title: str = ""
    question: str = ""
    locked: frozenset = frozenset()
    hidden: frozenset = frozenset()
    nonce: str = ""  # hex; only a link that hides something has one (make_spec's nonce=)

    def to_obj(self) -> dict:
        extra = {"nonce": self.nonce} if self.nonce else {}
        return extra | {
            "v": SPEC_VERSION,
            "points": links.pack_points(self.X, self.y),
            "settings": dict(self.settings),
            "title": self.title,
            "question": self.question,
            "lock": sorted(self.locked),
            "hide": sorted(self.hidden),
        }

    def canonical(self) -> str:
        """The one JSON text of this spec (sorted keys, no spaces): what the id hashes."""
        return json.dumps(self.to_obj(), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False, allow_nan=False)  # fmt: skip

    @property
    def id(self) -> str:
        return spec_id(self.canonical())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TeacherSpec) and self.canonical() == other.canonical()

    def __hash__(self) -> int:
        return hash(self.canonical())


def spec_id(canonical: str) -> str:
    """The short link's id of a canonical spec: base32 of SHA-256, first 10 letters."""
    digest = hashlib.sha256(canonical.encode("utf-8")).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:ID_LEN]


def make_spec(X: Any, y: Any, settings: Mapping[str, Any], *, title: str = "",
              question: str = "", locked=(), hidden=(),
              nonce: str = "") -> TeacherSpec:  # fmt: skip
    """A validated spec; TeacherLinkError naming the first bad value. ``nonce``: a hiding
    link's random hex (its own id, so its own reveal key), ignored when nothing is hidden."""
    if not isinstance(nonce, str) or (nonce and not _NONCE_RE.match(nonce)):
        raise TeacherLinkError("the link's nonce is not valid (8 to 32 hex digits)")
    try:
        Xa, ya = validate_points(X, y)
        s = Settings.parse(dict(settings))
    except ValueError as exc:
        raise TeacherLinkError(str(exc)) from None
    return TeacherSpec(
        X=Xa, y=ya, settings=s,
        title=clean_text("title", title, TITLE_MAX),
        question=clean_text("question", question, QUESTION_MAX, multiline=True),
        locked=_names("locked", list(locked), LOCKS),
        hidden=(h := _names("hidden", list(hidden), HIDES)),
        nonce=nonce if h else "",
    )  # fmt: skip


def spec_from_obj(obj: Any) -> TeacherSpec:
    """The spec a decoded JSON object describes (from a link or the store: not trusted)."""
    if not isinstance(obj, dict):
        raise TeacherLinkError("it does not hold a picture")
    unknown = set(obj) - _SPEC_KEYS
    if unknown:
        raise TeacherLinkError(f"it has unknown part(s): {', '.join(sorted(unknown))[:80]}")
    if obj.get("v") != SPEC_VERSION:
        raise TeacherLinkError("it was made by another version of SVM Lab")
    points, settings = obj.get("points"), obj.get("settings", {})
    if not isinstance(points, str):
        raise TeacherLinkError("it holds no points")
    if not isinstance(settings, dict):
        raise TeacherLinkError("its settings are not valid")
    try:
        X, y = links.unpack_points(points)
    except ValueError as exc:
        raise TeacherLinkError(str(exc)) from None
    try:
        s = Settings.parse(settings)
    except ValueError as exc:
        raise TeacherLinkError(f"its settings are not valid: {exc}") from None
    return make_spec(X, y, s, title=obj.get("title", ""), question=obj.get("question", ""),
                     locked=_names("locked", obj.get("lock", []), LOCKS),
                     hidden=_names("hidden", obj.get("hide", []), HIDES),
                     nonce=obj.get("nonce", ""))  # fmt: skip


def encode_blob(spec: TeacherSpec) -> str:
    """The long link's ``ts`` value: the canonical JSON through the URL codec."""
    return links.pack_bytes(spec.canonical().encode("utf-8"))


def decode_blob(text: Any) -> TeacherSpec:
    """Inverse of ``encode_blob``; TeacherLinkError for anything malformed or too large."""
    return spec_from_obj(parse_json(links.unpack_bytes(text, BLOB_FRAME)))


def parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise TeacherLinkError("the picture is damaged (not valid JSON)") from None
