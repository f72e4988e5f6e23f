"""A logging handler that keeps the records it is given (what a test expects a server to
log, and how often)."""

from __future__ import annotations

import logging


class Records(logging.Handler):
    def __init__(self, level: int = logging.INFO):
        super().__init__(level)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)
