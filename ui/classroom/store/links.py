"""Teacher links in the store (ui/playground/teacher.py validates them): the canonical JSON of
a picture under its content address, and whether its "predict first" is over. An id only ever
names its content, so the same picture put twice is one row; servers share the table."""

from __future__ import annotations

import re
import time

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ui.classroom.store.errors import LinkError, NotTeacher
from ui.classroom.store.schema import links
from ui.classroom.store.secrets_text import digest, same_secret

LINK_ID = re.compile(r"^[a-z2-7]{1,16}$")
LINK_SPEC_MAX = 100_000  # characters (teacher.MAX_SPEC_BYTES is the real cap)


def _check_id(link_id: object) -> str:
    if not isinstance(link_id, str) or not LINK_ID.match(link_id):
        raise LinkError("the short link's id is not valid (letters a-z and digits 2-7)")
    return link_id


class LinkTable:
    """The links part of ``Store`` (it provides ``_write`` and ``_read``)."""

    def put_link(self, link_id: str, spec_json: str, key: str | None = None, *,
                 max_links: int | None = None) -> None:  # fmt: skip
        """Keep ``spec_json`` under ``link_id`` (nothing new when it is already there).
        ``key``: the secret that may reveal it (the first one given is kept). LinkError when
        another picture has the id or ``max_links`` links are stored already."""
        _check_id(link_id)
        if not isinstance(spec_json, str) or len(spec_json) > LINK_SPEC_MAX:
            raise LinkError("the picture is too large for a short link")
        key_hash = digest(key) if key else None
        for _ in range(2):  # a second try when another process inserted the same id
            try:
                with self._write() as c:
                    row = c.execute(select(links.c.spec, links.c.key_hash)
                                    .where(links.c.id == link_id)).first()
                    if row is not None:
                        if row.spec != spec_json:
                            raise LinkError(f"another picture is stored under {link_id}")
                        if key_hash and row.key_hash is None:
                            c.execute(update(links).where(links.c.id == link_id)
                                      .values(key_hash=key_hash))
                        return
                    if max_links is not None:
                        n = c.execute(select(func.count()).select_from(links)).scalar_one()
                        if n >= max_links:
                            raise LinkError(f"the link store is full ({n:,} links); use "
                                            "the long link")
                    c.execute(insert(links).values(id=link_id, spec=spec_json,
                                                   key_hash=key_hash, revealed=False,
                                                   created_at=time.time()))
                return
            except IntegrityError:
                continue
        raise LinkError(f"the short link {link_id} could not be stored; try again")

    def get_link(self, link_id: str) -> str | None:
        """The picture's JSON, or None when no link has this id."""
        _check_id(link_id)
        with self._read() as c:
            return c.execute(select(links.c.spec).where(links.c.id == link_id)).scalar()

    def reveal_link(self, link_id: str, key: str) -> None:
        """End "predict first" for everyone who opens this link. NotTeacher unless ``key`` is
        the one the link was made with."""
        _check_id(link_id)
        with self._write() as c:
            row = c.execute(select(links.c.key_hash).where(links.c.id == link_id)).first()
            if row is None or not same_secret(key, row.key_hash):
                raise NotTeacher("Only the teacher who made this link may reveal it (the "
                                 "key does not match).")
            c.execute(update(links).where(links.c.id == link_id).values(revealed=True))

    def link_revealed(self, link_id: str) -> bool:
        _check_id(link_id)
        with self._read() as c:
            return bool(c.execute(select(links.c.revealed)
                                  .where(links.c.id == link_id)).scalar())
