"""Slow clients: every HTTP request must arrive whole in bounded time, and waiting ones are few.

uvicorn, which serves the app (``st.App`` in app.py), reads a request's head and body with no
time limit, and Streamlit builds uvicorn's ``Config`` itself (no option reaches it). So a
client that sends its head a byte at a time held a socket, a file descriptor, for as long as
it liked: 400 such sockets were all still open after 60 s, and 1,100 under ``ulimit -n 1024``
stopped every health, fit and page request. HAProxy's ``timeout http-request``
(deploy/haproxy.cfg) is the front line; this is the app's own bound, for a process that
faces clients alone (``make run``, the Docker image).

``install()`` (app.py, when uvicorn imports it) wraps uvicorn's h11 protocol, the one it runs
here (``uvicorn.protocols.http.auto``: httptools is not installed; tests/test_slow_clients.py
checks both), so that

- a request's head must arrive within ``HEAD_TIMEOUT_S`` and its whole body within
  ``BODY_TIMEOUT_S`` more, counted from the connection's start or the end of its previous
  answer; else the connection is closed (with a 408 when the head never came);
- at most ``max_waiting()`` connections wait for their request: a new one closes the
  oldest waiting one (a slow client cannot use up the process's file descriptors).

A connection whose request arrived, is being answered, or became a websocket is never
touched. Closings are logged as one line per ``LOG_EVERY_S`` at most, with a count.

A client that leaves while the app reads its body (or is closed by the limit above) raised
starlette's ``ClientDisconnect`` out of the route: a traceback in the log per client.
``client_left`` (the fit endpoint's own catch, and app.py's handler for every other route,
such as Streamlit's upload) logs one line instead.

``lifespan(inner)`` (app.py) also quiets asyncio's accept loop: out of file descriptors, it
logs a traceback for every connection it fails to accept, thousands a second in a burst
(178 MB in 30 s under ``ulimit -n 1024``); now one line per ``LOG_EVERY_S`` with a count.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import resource
import time
from typing import Any

HEAD_TIMEOUT_S = 10.0  # HAProxy's `timeout http-request 10s`
BODY_TIMEOUT_S = 30.0  # a 1 MB upload (server.maxUploadSize) at ~270 kbit/s
#: Connections that may wait for their request at once, at most: a share of the process's
#: file-descriptor limit, leaving the rest to websockets, the fit workers' pipes and files.
WAITING_SHARE = 0.5
WAITING_MAX = 2048
LOG_EVERY_S = 10.0

_log = logging.getLogger(__name__)
_waiting: dict[Any, float] = {}  # protocol → when its request's clock started (insertion order)
_closed = {"count": 0, "logged": -math.inf}
_refused = {"count": 0, "logged": -math.inf}
#: asyncio's message when accept() fails for want of descriptors or memory
ACCEPT_FAILED = "socket.accept() out of system resource"


def max_waiting() -> int:
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return WAITING_MAX
    return max(16, min(WAITING_MAX, int(soft * WAITING_SHARE)))


def install() -> bool:
    """Wrap uvicorn's h11 protocol (once per process). Returns True the first time."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    if getattr(H11Protocol, "svmlab_slow_clients", False):
        return False
    made, lost, done = (H11Protocol.connection_made, H11Protocol.connection_lost,
                        H11Protocol.on_response_complete)

    def connection_made(self, transport):
        made(self, transport)
        _start_clock(self)
        _evict_oldest()

    def connection_lost(self, exc):
        _stop_clock(self)
        lost(self, exc)

    def on_response_complete(self):
        done(self)
        if not self.transport.is_closing():
            _start_clock(self)  # the next request on this connection: a new clock

    H11Protocol.connection_made = connection_made
    H11Protocol.connection_lost = connection_lost
    H11Protocol.on_response_complete = on_response_complete
    H11Protocol.svmlab_slow_clients = True
    return True


def _start_clock(proto) -> None:
    _stop_clock(proto)
    now = time.monotonic()
    _waiting[proto] = now
    proto.svmlab_timer = proto.loop.call_later(HEAD_TIMEOUT_S, _check, proto)


def _stop_clock(proto) -> None:
    _waiting.pop(proto, None)
    timer = getattr(proto, "svmlab_timer", None)
    if timer is not None:
        timer.cancel()
        proto.svmlab_timer = None


def _phase(proto) -> str:
    """"head" (waiting for it), "body" (head read, body not whole), or "" (the request is
    in, being answered, or the connection is no longer this HTTP protocol's)."""
    import h11

    if proto.transport.is_closing() or proto.transport.get_protocol() is not proto:
        return ""  # closed, or upgraded to a websocket
    if proto.conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
        return ""  # answering (SEND_RESPONSE: a request came, nothing of its answer went)
    return {h11.IDLE: "head", h11.SEND_BODY: "body"}.get(proto.conn.their_state, "")


def _check(proto) -> None:
    proto.svmlab_timer = None
    since = _waiting.get(proto)
    phase = _phase(proto)
    if since is None or not phase:
        _waiting.pop(proto, None)
        return
    left = since + HEAD_TIMEOUT_S + BODY_TIMEOUT_S - time.monotonic()
    if phase == "body" and left > 0:
        proto.svmlab_timer = proto.loop.call_later(left, _check, proto)
        return
    _close(proto, phase)


def _evict_oldest() -> None:
    cap = max_waiting()
    for proto in list(_waiting):
        if len(_waiting) <= cap:
            return
        phase = _phase(proto)
        if phase:
            _close(proto, phase)
        else:
            _stop_clock(proto)


def _close(proto, phase: str) -> None:
    _stop_clock(proto)
    if phase == "head":  # nothing of an answer was sent: say why
        proto.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n"
                              b"connection: close\r\n\r\n")
    proto.transport.close()  # the app, if reading the body, sees the client leave
    _closed["count"] += 1
    now = time.monotonic()
    if now - _closed["logged"] >= LOG_EVERY_S:
        _log.warning("closed %s connection(s) whose request did not arrive in time (head "
                     "%s s, body %s s more) or waited beyond the %s allowed",
                     _closed["count"], HEAD_TIMEOUT_S, BODY_TIMEOUT_S, max_waiting())
        _closed.update(count=0, logged=now)


def note_client_left(request) -> None:
    """One log line for a client that left before its request arrived whole."""
    c = request.client
    who = f"{c.host}:{c.port}" if c else "a client"
    _log.info("%s %s: %s left before its request arrived whole", request.method,
              request.url.path, who)


async def client_left(request, exc):
    """starlette exception handler for ``ClientDisconnect`` (app.py): ``note_client_left``
    and an empty 499 that nobody reads."""
    from starlette.responses import Response

    note_client_left(request)
    return Response(status_code=499)


def lifespan(inner):
    """``inner`` (an ASGI lifespan) with asyncio's accept errors counted, not each logged."""

    @contextlib.asynccontextmanager
    async def wrapped(app):
        quiet_accept_errors(asyncio.get_running_loop())
        async with inner(app) as state:
            yield state

    return wrapped


def quiet_accept_errors(loop) -> None:
    """Route the loop's "accept() out of system resource" errors to one line per
    LOG_EVERY_S; any other error goes to the handler that was there before."""
    previous = loop.get_exception_handler()

    def handler(loop, context):
        if context.get("message") != ACCEPT_FAILED:
            if previous is not None:
                previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        _refused["count"] += 1
        now = time.monotonic()
        if now - _refused["logged"] >= LOG_EVERY_S:
            _log.warning("could not accept %s connection(s): %s (slow clients are closed "
                         "after %s s; the rest wait in the kernel's queue)", _refused["count"],
                         context.get("exception"), HEAD_TIMEOUT_S)
            _refused.update(count=0, logged=now)

    loop.set_exception_handler(handler)
