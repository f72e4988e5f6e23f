"""Joins and answers per session: a token bucket each, kept in the session's ``Shared`` object
(``ui.shared.session``; the session state is any mutable mapping, as in ``ui.shared.state``).
Pure: the caller passes the time.

``allow(ss, "answer", now)`` is True and spends a token when one is left; False (spending
nothing) when the session has used its burst and must wait for the bucket to refill. Joins:
3 at once, then one every 20 s; answers: 10 at once, then one a second.
"""

from __future__ import annotations

from collections.abc import MutableMapping

from ui.shared.session import shared

#: action → (burst: tokens a full bucket holds, refill: tokens per second)
RATES = {
    "join": (3.0, 1 / 20),
    "answer": (10.0, 1.0),
}


def allow(ss: MutableMapping, action: str, now: float) -> bool:
    """Whether the session may ``action`` at ``now`` (seconds); spends a token if so."""
    burst, refill = RATES[action]
    buckets = shared(ss).ratelimit
    tokens, then = buckets.get(action, (burst, now))
    # a clock that went back (another process's time) refills nothing
    tokens = min(burst, tokens + max(0.0, now - then) * refill)
    if tokens < 1.0:
        buckets[action] = (tokens, now)
        return False
    buckets[action] = (tokens - 1.0, now)
    return True


def wait_s(ss: MutableMapping, action: str, now: float) -> float:
    """Seconds until ``allow`` is True again (0 when it is now)."""
    burst, refill = RATES[action]
    tokens, then = shared(ss).ratelimit.get(action, (burst, now))
    tokens = min(burst, tokens + max(0.0, now - then) * refill)
    return 0.0 if tokens >= 1.0 else (1.0 - tokens) / refill
