"""The store's refusals; each message is meant for the person who asked, as plain text."""

from sqlalchemy.exc import SQLAlchemyError


class ClassNotFound(LookupError):
    """No class has this code (a made-up or mistyped code)."""


class ClassEnded(ClassNotFound):
    """The class existed but the teacher ended it (or the retention period deleted it): its
    students and answers are gone."""


class NotTeacher(PermissionError):
    """The teacher's key (or a link's reveal key) is missing, forged or of another class."""


class NotStudent(PermissionError):
    """A student's token that is not a seat of this class (rejoin with the class code)."""


class NotOpen(ValueError):
    """An answer to a screen the teacher has not opened yet, or while the class is paused."""


class LinkError(ValueError):
    """A teacher link the store cannot keep (the store is full, or another picture has its
    id)."""


#: What a store call raises when the database cannot be reached or written (PostgreSQL down, a
#: lock held past the busy timeout, a full disk, a folder it may not create): a page catches
#: it (``except StoreUnavailable``) to say so; nothing committed is lost.
StoreUnavailable = (SQLAlchemyError, OSError)
