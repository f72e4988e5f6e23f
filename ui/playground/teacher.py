"""Teacher links: a prepared picture (points, settings, a title and a question, which controls
are locked or hidden) that students open from a link.

Pure (no streamlit): the spec and its validation, its two link forms, the content-addressed
store behind the short link, the presets (the book's worked examples), and the session helpers
the Playground calls (``open_link``, ``page_query``, ``lock_kwargs``, ``shows``, ``reset``...).
Session state is passed in as any mutable mapping, as in ``ui.shared.state``.

Two link forms; both are validated on the way in (a link is never trusted):

- long, ``?ts=<blob>``: the spec itself (zlib + base64url of its canonical JSON); it works on
  any server;
- short, ``?t=<id>``: ten letters, the first 50 bits of the SHA-256 of the canonical JSON in
  base32, naming the spec in the store's ``links`` table (``ui.classroom.store``: the
  database every server of a class shares). An id only ever names its content, so a stored
  spec never changes.

A student's own changes are added to the address bar as the ordinary Playground parameters
(``ui.shared.state.encode_query``), so a reload keeps them; locked values always come from the spec.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ui.classroom.store import LinkError, NotTeacher, Store, StoreUnavailable, get_store
from ui.shared import present, reveal, state, student
from ui.shared.book_setups import SETUPS, playground_target

SPEC_VERSION = 1
TITLE_MAX = 120  # characters
QUESTION_MAX = 500
MAX_SPEC_BYTES = 64_000  # a stored spec (2000 points in float64 pack to about 45 kB)
MAX_BLOB_CHARS = 100_000  # the long link's ts parameter
MAX_LINKS = 20_000  # links in the store (20 000 × 64 kB at most = 1.3 GB)
ID_LEN = 10
PRESENT_SCALE = 1.6  # fonts, markers and lines of the figure in present mode
POINTS_TITLE = "The teacher's points"  # fixed: the numbers panel renders it as markdown
LOCKED_HELP = "Locked by your teacher."

#: What a teacher can lock: name → label (the kernel lock covers its parameters too).
LOCKS = {
    "points": "points",
    "kernel": "kernel",
    "loss": "loss",
    "C": "C / hard margin",
    "bias": "bias",
    "solver": "solver",
}
#: The settings each lock holds to the teacher's values.
LOCKED_SETTINGS = {
    "kernel": ("kernel", "degree", "coef0", "sigma"),
    "loss": ("loss",),
    "C": ("C", "hard_margin"),
    "bias": ("bias",),
    "solver": ("solver", "wss"),
}
#: What a teacher can hide so students predict first: name → label.
HIDES = {
    "numbers": "numbers",
    "table": "points table",
    "sv": "SV rings and slack",
}

#: Why a change of something the teacher locked was undone (``hold_locks``).
HELD_TEXT = "That is locked by your teacher: the teacher's value is back."

# session_state keys
K_SPEC = reveal.K_SPEC  # the TeacherSpec of the link this session opened
K_REF = "svmlab.teacher.ref"  # {"t": id} or {"ts": blob}: how the address bar names it
K_PRESENT = present.K_PRESENT  # present mode (projector): one switch on every page
K_BEFORE_RESET = "svmlab.teacher.before_reset"  # (X, y, settings, title) for "Undo the reset"

_ID_RE = re.compile(rf"^[a-z2-7]{{{ID_LEN}}}$")
_B64_RE = re.compile(r"^[A-Za-z0-9_-]+$")
# control characters and the invisible / direction-changing ones (they could hide text)
_HIDDEN_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
_SPEC_KEYS = {"v", "points", "settings", "title", "question", "lock", "hide", "nonce"}
# a hiding link's own random part: two teachers' same picture are two links, two reveals
_NONCE_RE = re.compile(r"^[0-9a-f]{8,32}$")
LINK_PARAMS = ("t", "ts", "present")  # the teacher's query parameters (the rest: ui.shared.state)


class TeacherLinkError(ValueError):
    """A teacher link (or a stored spec) could not be read; the message says why."""


# ------------------------------------------------------------------------------ the spec


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
            "points": state.pack_points(self.X, self.y),
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
        Xa, ya = state.validate_points(X, y)
        s = state.normalize_settings(dict(settings))
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
        X, y = state.unpack_points(points)
    except ValueError as exc:
        raise TeacherLinkError(str(exc)) from None
    try:
        s = state.normalize_settings(settings)
    except ValueError as exc:
        raise TeacherLinkError(f"its settings are not valid: {exc}") from None
    return make_spec(X, y, s, title=obj.get("title", ""), question=obj.get("question", ""),
                     locked=_names("locked", obj.get("lock", []), LOCKS),
                     hidden=_names("hidden", obj.get("hide", []), HIDES),
                     nonce=obj.get("nonce", ""))  # fmt: skip


def encode_blob(spec: TeacherSpec) -> str:
    """The long link's ``ts`` value: zlib + base64url of the canonical JSON."""
    raw = zlib.compress(spec.canonical().encode("utf-8"), 9)
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_blob(text: Any) -> TeacherSpec:
    """Inverse of ``encode_blob``; TeacherLinkError for anything malformed or too large."""
    if not isinstance(text, str) or not text or len(text) > MAX_BLOB_CHARS:
        raise TeacherLinkError("the picture in the link is missing or too long")
    if not _B64_RE.match(text):
        raise TeacherLinkError("the picture in the link has characters a link never has")
    try:
        comp = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        d = zlib.decompressobj()
        raw = d.decompress(comp, MAX_SPEC_BYTES + 1)
    except (binascii.Error, ValueError, zlib.error):
        raise TeacherLinkError("the picture in the link is damaged (cannot decode it)") from None
    if len(raw) > MAX_SPEC_BYTES or d.unconsumed_tail:
        raise TeacherLinkError(f"the picture in the link is too large (at most "
                               f"{MAX_SPEC_BYTES // 1000} kB)")  # fmt: skip
    if not d.eof:
        raise TeacherLinkError("the picture in the link is cut off")
    return spec_from_obj(_json(raw))


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise TeacherLinkError("the picture is damaged (not valid JSON)") from None


# ---------------------------------------------------------------------------- the store


def check_id(link_id: Any) -> str:
    if not isinstance(link_id, str) or not _ID_RE.match(link_id):
        raise TeacherLinkError("the short link's id is not valid (ten letters a-z, 2-7)")
    return link_id


def put_link(spec: TeacherSpec, store: Store | None = None, *, key: str | None = None) -> str:
    """Keep the spec in the store (``ui.classroom.store``, the database every server shares);
    returns its id. ``key``: the secret that may later reveal what the link hides. Raises
    TeacherLinkError if the spec is too large or the store is full, StoreUnavailable if the
    database cannot be written."""
    text = spec.canonical()
    n = len(text.encode("utf-8"))
    if n > MAX_SPEC_BYTES:
        raise TeacherLinkError(f"the picture is too large for a short link ({n:,} "
                               f"bytes; at most {MAX_SPEC_BYTES:,})")  # fmt: skip
    link_id = spec_id(text)
    try:
        (store or get_store()).put_link(link_id, text, key, max_links=MAX_LINKS)
    except LinkError as exc:
        raise TeacherLinkError(str(exc)) from None
    return link_id


def get_link(link_id: Any, store: Store | None = None) -> TeacherSpec | None:
    """The stored spec, or None when no link has this id. TeacherLinkError for a malformed
    id or a damaged row (its content no longer hashes to its id)."""
    text = (store or get_store()).get_link(check_id(link_id))
    if text is None:
        return None
    raw = text.encode("utf-8")
    if len(raw) > MAX_SPEC_BYTES:
        raise TeacherLinkError("the stored picture is too large")
    spec = spec_from_obj(_json(raw))
    if spec.id != link_id:
        raise TeacherLinkError("the stored picture is damaged (it does not match its id)")
    return spec


# -------------------------------------------------------------------------- the presets


@dataclass(frozen=True)
class Preset:
    """A worked example's setup (``ui.shared.book_setups.SETUPS``: example key, setup index) as
    a teacher link."""

    key: str
    label: str
    example: str
    setup: int
    title: str
    question: str
    locked: tuple[str, ...]
    hidden: tuple[str, ...]


_FIXED = ("points", "kernel", "loss", "bias", "solver")
PRESETS: tuple[Preset, ...] = (
    Preset("d1", "D1, hard margin (slides 15–16)", "d1", 0,
           "D1: the widest street between two classes (slides 15–16)",
           "Which points are the support vectors? Point at them before the table is shown. "
           "Then turn the hard margin off: what changes?",
           _FIXED, ("sv", "numbers", "table")),
    Preset("d2", "D2, soft margin C = 1 (slides 21–23)", "d2", 0,
           "D2: a soft margin with C = 1 (slides 21–23)",
           "Which points need slack (ξ > 0), and which of them are misclassified? "
           "Then make C smaller: does the margin get wider or narrower?",
           _FIXED, ("sv", "table")),
    Preset("iris", "Iris setosa, C = 10 (slide 34)", "iris", 0,
           "Iris: setosa against the other two species (slide 34)",
           "Predict first: with C = 1000 instead of 10, is the margin wider or narrower? "
           "Which flowers become support vectors?",
           _FIXED, ("table",)),
    Preset("nonlinear", "Nonlinear, quadratic kernel (slides 25, 29)", "nonlinear", 0,
           "Nonlinear data: the quadratic kernel (slides 25 and 29)",
           "No line separates these points. Switch the kernel to linear and back: what can "
           "K(x, z) = (1 + xᵀz)² draw that a line cannot?",
           ("points", "loss", "C", "bias", "solver"), ()),
    Preset("two_point", "Two points: KKT by hand", "two_point", 0,
           "Two points: the KKT conditions by hand",
           "Work out w, b and the margin δ* = 1/‖w‖ by hand (the book's margin; the width "
           "between the planes h(x) = ±1 is 2/‖w‖) before you look at the numbers. "
           "Then drag a point: how do w and b change?",
           ("kernel", "loss", "C", "bias", "solver"), ("numbers", "table")),
)
PRESETS_BY_KEY = {p.key: p for p in PRESETS}


def preset_spec(key: str) -> TeacherSpec:
    """The spec of a preset: the worked example's data and settings
    (``ui.shared.book_setups``, as the Worked examples page opens them)."""
    p = PRESETS_BY_KEY[key]
    X, y, settings, _ = playground_target(SETUPS[p.example][p.setup])
    settings = {k: v for k, v in settings.items() if k in state.SETTING_KEYS}
    return make_spec(X, y, settings, title=p.title, question=p.question,
                     locked=p.locked, hidden=p.hidden)  # fmt: skip


# ---------------------------------------------------------------------- the session side


def spec_of(ss: Mapping) -> TeacherSpec | None:
    """The teacher link this session opened (None: an ordinary Playground)."""
    spec = ss.get(K_SPEC)
    return spec if isinstance(spec, TeacherSpec) else None


def is_locked(ss: Mapping, name: str) -> bool:
    spec = spec_of(ss)
    return spec is not None and name in spec.locked


def shows(ss: Mapping, name: str) -> bool:
    """False when the teacher hid this part (``HIDES``) and has not revealed it yet."""
    return spec_of(ss) is None or name not in reveal.hidden(ss)


is_present = present.is_present


def lock_kwargs(ss: Mapping, name: str, *, disabled: bool = False,
                help: str | None = None) -> dict:  # fmt: skip
    """``disabled`` and ``help`` for a widget under lock ``name``: spread them into the
    widget call (``**lock_kwargs(ss, "kernel")``); the widget's own values otherwise."""
    if is_locked(ss, name):
        return {"disabled": True, "help": LOCKED_HELP}
    out: dict[str, Any] = {"disabled": bool(disabled)}
    if help is not None:
        out["help"] = help
    return out


def figure_options(ss: Mapping) -> dict:
    """The Playground answer's style (``fit_schema.Style``): scale (present mode), show_sv
    and, when the teacher hid any, ``hide``: the parts the server leaves out of every answer
    (the canvas's payload and the endpoint's), so hidden answers never reach the browser."""
    out: dict[str, Any] = {"scale": PRESENT_SCALE if is_present(ss) else 1.0,
                           "show_sv": shows(ss, "sv")}
    hide = tuple(h for h in ("numbers", "table") if not shows(ss, h))
    if hide:
        out["hide"] = hide
    if student.is_student(ss):  # the numbers panel without the solver's internals
        out["student"] = True
    return out


def has_link_params(q: Mapping[str, Any]) -> bool:
    return any(k in q for k in LINK_PARAMS)


def split_query(q: Mapping[str, Any]) -> tuple[dict, dict]:
    """(the teacher's parameters, the Playground's parameters)."""
    tq = {k: v for k, v in q.items() if k in LINK_PARAMS}
    return tq, {k: v for k, v in q.items() if k not in LINK_PARAMS}


def _param(q: Mapping[str, Any], key: str) -> Any:
    v = q.get(key)
    return v[-1] if isinstance(v, (list, tuple)) and v else v


def apply_spec(ss: MutableMapping, spec: TeacherSpec) -> None:
    """Load the spec's points and settings into the Playground (widgets re-seed)."""
    state.load_into_playground(ss, spec.X, spec.y, spec.settings, POINTS_TITLE)
    ss[state.K_SOURCE] = None


def enforce_locks(ss: MutableMapping, spec: TeacherSpec) -> None:
    """Put the spec's values back into every locked setting (and the points if locked)."""
    s = state.current_settings(ss)
    for lock, keys in LOCKED_SETTINGS.items():
        if lock in spec.locked:
            s.update({k: spec.settings[k] for k in keys})
    state.set_settings(ss, s)
    if "points" in spec.locked and not at_points(ss, spec):
        state.set_points(ss, spec.X, spec.y, title=POINTS_TITLE, reset_view=True)
        ss[state.K_SOURCE] = None


def hold_locks(ss: MutableMapping) -> bool:
    """Put back any locked setting or locked points a client changed (a disabled widget or
    the table editor is only disabled in the browser: a websocket client can still send a
    value). Every run of the canvas calls it; True (and a message) when something was put
    back."""
    spec = spec_of(ss)
    if spec is None:
        return False
    s = state.current_settings(ss)
    moved = any(s.get(k) != spec.settings[k]
                for lock, keys in LOCKED_SETTINGS.items() if lock in spec.locked for k in keys)
    if not moved and not ("points" in spec.locked and not at_points(ss, spec)):
        return False
    enforce_locks(ss, spec)
    state.push_flash(ss, "error", HELD_TEXT)
    return True


def at_points(ss: Mapping, spec: TeacherSpec) -> bool:
    X, y, _ = state.current_dataset(ss)  # type: ignore[arg-type]
    return np.array_equal(X, spec.X) and np.array_equal(y, spec.y)


def at_spec(ss: Mapping) -> bool:
    """Whether the Playground shows exactly the teacher's picture."""
    spec = spec_of(ss)
    return spec is not None and at_points(ss, spec) and (
        state.current_settings(ss) == spec.settings  # type: ignore[arg-type]
    )


def unknown_id_message(link_id: str) -> str:
    return (f"The teacher link “{link_id}” is not stored on this server (it may have been "
            "made on another server, or removed). Ask your teacher for the long link: it "
            "holds the whole picture and works on any server.")  # fmt: skip


def open_link(ss: MutableMapping, q: Mapping[str, Any], store: Store | None = None,
              ) -> str | None:  # fmt: skip
    """First run of a session opened with teacher parameters (``t``, ``ts``, ``present``),
    maybe with the Playground's own (a student's changes, kept over a reload). Loads the
    state; returns a message for the user when something could not be read (the state is
    then the Playground's parameters if they are valid, else the default)."""
    tq, sq = split_query(q)
    msgs: list[str] = []
    present = _param(tq, "present")
    ss[K_PRESENT] = present == "1"
    if present not in (None, "0", "1"):
        msgs.append("The link's present=… should be 1 or 0; present mode is off.")
    spec, ref = None, None
    try:
        if "ts" in tq:
            blob = _param(tq, "ts")
            spec, ref = decode_blob(blob), {"ts": blob}
        elif "t" in tq:
            link_id = _param(tq, "t")
            spec = get_link(link_id, store)
            if spec is None:
                msgs.append(unknown_id_message(str(link_id)[:ID_LEN]))
            ref = {"t": link_id}
    except TeacherLinkError as exc:
        msgs.append(f"This teacher link could not be opened: {exc}.")
        spec = None
    except StoreUnavailable:
        msgs.append("The stored teacher links cannot be read on this server (its database "
                    "is unavailable). Ask your teacher for the long link.")
        spec = None
    if spec is not None:
        ss[K_SPEC], ss[K_REF] = spec, ref
        apply_spec(ss, spec)
        student.default_on(ss)  # a teacher's link opens in the student view
    if state.is_link(sq):
        if spec is None:
            m = state.restore_from_query(ss, sq)
            return " ".join([*msgs, m] if m else msgs) or None
        try:
            d = state.decode_query(sq)
        except state.LinkError as exc:
            msgs.append(f"Your own changes in the link could not be read ({exc}); showing the "
                        "teacher's picture.")  # fmt: skip
        else:
            state.load_into_playground(ss, d["X"], d["y"], d["settings"], POINTS_TITLE)
            ss[state.K_SOURCE] = d["source"]
            enforce_locks(ss, spec)
    elif spec is None:
        state.ensure_state(ss)
        if msgs and ("t" in tq or "ts" in tq):
            msgs.append("Showing the default example instead.")
    return " ".join(msgs) or None


def page_query(ss: MutableMapping) -> dict[str, str]:
    """The address bar's parameters: the teacher link (if any), the Playground's state when
    it is not the teacher's picture, and ``present=1`` in present mode."""
    q: dict[str, str] = {}
    spec = spec_of(ss)
    if spec is not None and ss.get(K_REF):
        q.update(ss[K_REF])
        if not at_spec(ss):
            q.update(state.state_query(ss))
    else:
        q.update(state.state_query(ss))
    if is_present(ss):
        q["present"] = "1"
    return q


def reset(ss: MutableMapping) -> bool:
    """Back to the teacher's picture (remembering the student's for ``undo_reset``)."""
    spec = spec_of(ss)
    if spec is None:
        return False
    X, y, title = state.current_dataset(ss)
    ss[K_BEFORE_RESET] = (X, y, state.current_settings(ss), title, ss.get(state.K_SOURCE))
    apply_spec(ss, spec)
    return True


def undo_reset(ss: MutableMapping) -> bool:
    """The student's picture from before the last reset (within the locks)."""
    before, spec = ss.pop(K_BEFORE_RESET, None), spec_of(ss)
    if not before or spec is None:
        return False
    X, y, settings, title, source = before
    state.load_into_playground(ss, X, y, settings, title)
    ss[state.K_SOURCE] = source
    enforce_locks(ss, spec)
    return True


def make_current_spec(ss: MutableMapping, *, title: str, question: str, locked, hidden,
                      nonce: str = "") -> TeacherSpec:  # fmt: skip
    """A spec of the Playground's current points and settings."""
    X, y, _ = state.current_dataset(ss)
    return make_spec(X, y, state.current_settings(ss), title=title, question=question,
                     locked=locked, hidden=hidden, nonce=nonce)  # fmt: skip


def links(spec: TeacherSpec, base: str, store: Store | None = None, *,
          key: str | None = None) -> dict:  # fmt: skip
    """{"id", "short", "long", "present", "error"}: the short link (None with "error" when it
    cannot be stored here), the long self-contained link, the short (else long) one in
    present mode. ``base`` is the Playground's address without its query; ``key``: the
    teacher's reveal key of a link that hides something (``reveal_link``)."""
    long = f"{base}?ts={encode_blob(spec)}"
    out: dict[str, Any] = {"id": None, "short": None, "long": long, "error": None}
    try:
        link_id = put_link(spec, store, key=key)
    except TeacherLinkError as exc:
        out["error"] = str(exc)
    except StoreUnavailable:
        out["error"] = ("the link store cannot be written on this server (its database is "
                        "unavailable)")
    else:
        out["id"], out["short"] = link_id, f"{base}?t={link_id}"
    out["present"] = (out["short"] or long) + "&present=1"
    return out


def reveal_link(link_id: str, key: str, store: Store | None = None) -> None:
    """End "predict first" for everyone on this link (``ui.shared.reveal`` polls it).
    TeacherLinkError when the key is not this link's; StoreUnavailable without a database."""
    try:
        (store or get_store()).reveal_link(check_id(link_id), key)
    except NotTeacher:
        raise TeacherLinkError("this reveal key is not the one this link was made with") from None
