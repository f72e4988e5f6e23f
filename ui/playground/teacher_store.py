"""The short teacher link ``?t=<id>``: specs kept in the store's ``links`` table
(``ui.classroom.store``: the database every server of a class shares), named by the hash of
their content (``teacher_spec.spec_id``), so a stored spec never changes; and the links a
teacher is handed.
"""

from __future__ import annotations

import re
from typing import Any

from ui.classroom.store import LinkError, NotTeacher, Store, StoreUnavailable, get_store
from ui.playground.teacher_spec import (
    ID_LEN,
    MAX_SPEC_BYTES,
    TeacherLinkError,
    TeacherSpec,
    encode_blob,
    parse_json,
    spec_from_obj,
    spec_id,
)

MAX_LINKS = 20_000  # links in the store (20 000 × 64 kB at most = 1.3 GB)
_ID_RE = re.compile(rf"^[a-z2-7]{{{ID_LEN}}}$")


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
    spec = spec_from_obj(parse_json(raw))
    if spec.id != link_id:
        raise TeacherLinkError("the stored picture is damaged (it does not match its id)")
    return spec


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
