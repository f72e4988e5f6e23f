"""ui.serving.slow_clients: a request's head and body arrive in bounded time, few wait at once.

A real uvicorn server on loopback (a thread of this process) with short limits; each slow
client is a raw socket that sends part of a request and then nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import socket
import threading
import time

import pytest

from tests.log_records import Records
from ui.serving import fit_api, slow_clients

LIMIT_S = 0.5  # the head's and the body's limits in these tests
PATIENCE_S = 5.0  # how long a test waits for the server to close a socket (never reached)


async def _ok(request):
    from starlette.responses import PlainTextResponse

    return PlainTextResponse("ok")


async def _slow_answer(request):
    from starlette.responses import PlainTextResponse

    await asyncio.sleep(3 * LIMIT_S)  # an answer that takes longer than the limits
    return PlainTextResponse("late but whole")


async def _read(request):  # a route of someone else's (Streamlit's upload) reads a body
    from starlette.responses import PlainTextResponse

    return PlainTextResponse(str(len(await request.body())))


@pytest.fixture
def server(monkeypatch):
    """(host, port) of a uvicorn server with the fit endpoint, /ok and /slow, the limits at
    LIMIT_S; its log records (INFO and up) in ``server.records``."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import ClientDisconnect
    from starlette.routing import Route

    slow_clients.install()
    monkeypatch.setattr(slow_clients, "HEAD_TIMEOUT_S", LIMIT_S)
    monkeypatch.setattr(slow_clients, "BODY_TIMEOUT_S", LIMIT_S)
    monkeypatch.setattr(slow_clients, "_closed", {"count": 0, "logged": -math.inf})
    routes = [*fit_api.routes(), Route("/ok", _ok), Route("/slow", _slow_answer),
              Route("/read", _read, methods=["POST"])]
    app = Starlette(routes=routes,  # as app.py's st.App
                    exception_handlers={ClientDisconnect: slow_clients.client_left})
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, http="h11", ws="none", lifespan="off", log_config=None,
                            access_log=False)
    srv = uvicorn.Server(config)
    seen, root = Records(), logging.getLogger()
    monkeypatch.setattr(root, "level", logging.INFO)
    root.addHandler(seen)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if srv.started:
            break
        time.sleep(0.01)
    assert srv.started
    try:
        yield sock.getsockname(), seen.records
    finally:
        srv.should_exit = True
        thread.join(10)
        root.removeHandler(seen)
        sock.close()


def _open(addr, data: bytes) -> socket.socket:
    s = socket.create_connection(addr, timeout=PATIENCE_S)
    s.sendall(data)
    return s


def _until_closed(s: socket.socket) -> tuple[float, bytes]:
    """(seconds until the server closed ``s``, what it sent); fails after PATIENCE_S."""
    t0, got = time.monotonic(), b""
    try:
        while chunk := s.recv(4096):
            got += chunk
    except TimeoutError:
        pytest.fail(f"the server kept the socket open for {PATIENCE_S} s (sent {got!r})")
    return time.monotonic() - t0, got


def _get(addr, path: str = "/ok") -> bytes:
    with _open(addr, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()) as s:
        return _until_closed(s)[1]


def test_uvicorn_runs_the_protocol_that_is_wrapped():
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.http.h11_impl import H11Protocol

    # `streamlit run` leaves uvicorn's http="auto": h11 unless httptools is installed
    assert AutoHTTPProtocol is H11Protocol
    slow_clients.install()
    assert H11Protocol.svmlab_slow_clients and not slow_clients.install()


def test_a_head_that_never_ends_is_closed_with_408(server):
    addr, _ = server
    with _open(addr, b"GET /ok HTTP/1.1\r\nHost: x\r\nX-Slow: a") as s:
        took, got = _until_closed(s)
    assert got.startswith(b"HTTP/1.1 408 ") and LIMIT_S * 0.8 <= took <= LIMIT_S + 2


@pytest.mark.parametrize("path", ["/api/refit", "/read"])
def test_a_body_that_never_ends_is_closed_and_logged_in_one_line(server, path):
    addr, records = server
    head = (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 1000\r\n\r\n").encode()
    with _open(addr, head + b'{"points": [') as s:
        took, got = _until_closed(s)
    assert got == b"" and took <= 2 * LIMIT_S + 2
    time.sleep(0.2)  # the route logs once the app sees the disconnect
    assert not any(r.exc_info or r.levelno >= logging.ERROR for r in records), records
    lines = [r.getMessage() for r in records]
    assert sum(f"POST {path}: 127.0.0.1:" in m and "left before its request arrived whole" in m
               for m in lines) == 1, lines
    assert sum("did not arrive in time" in m for m in lines) == 1, lines


def test_an_answer_that_takes_longer_than_the_limits_is_not_cut(server):
    addr, _ = server
    got = _get(addr, "/slow")
    assert got.startswith(b"HTTP/1.1 200 ") and got.endswith(b"late but whole")


def test_a_kept_alive_connections_next_request_has_its_own_clock(server):
    addr, _ = server
    with _open(addr, b"GET /ok HTTP/1.1\r\nHost: x\r\n\r\n") as s:
        got = b""
        while not got.endswith(b"\r\n\r\nok"):
            got += s.recv(4096)
        assert got.startswith(b"HTTP/1.1 200 ")
        # a second head that never ends: uvicorn's keep-alive timer stops at its first byte
        s.sendall(b"GET /ok HTTP/1.1\r\nHost: x\r\n")
        took, got = _until_closed(s)
    assert got.startswith(b"HTTP/1.1 408 ") and took <= LIMIT_S + 2


def test_the_oldest_waiting_connections_make_room(server, monkeypatch):
    addr, _ = server
    monkeypatch.setattr(slow_clients, "HEAD_TIMEOUT_S", 60.0)  # only the cap closes them
    monkeypatch.setattr(slow_clients, "max_waiting", lambda: 4)
    slow = []
    for _ in range(10):
        slow.append(_open(addr, b"GET /ok HTTP/1.1\r\nHost: x\r\n"))
        time.sleep(0.02)  # accepted in this order
    assert _get(addr).startswith(b"HTTP/1.1 200 ")  # a new client is answered
    still_open = []
    for s in slow:
        s.settimeout(0.3)
        try:
            s.recv(4096)  # the 408, or the end: closed
            still_open.append(False)
        except TimeoutError:
            still_open.append(True)
        s.close()
    assert still_open == [False] * 7 + [True] * 3, still_open  # the newest stay (4 with /ok's)


def test_the_endpoint_still_answers_with_slow_clients_waiting(server):
    addr, _ = server
    slow = [_open(addr, b"GET /ok HTTP/1.1\r\nHost: x\r\n") for _ in range(20)]
    try:
        raw = json.dumps({"points": [[0, 0, 1]], "seq": 1}).encode()
        head = (f"POST /api/refit HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                f"Content-Length: {len(raw)}\r\nConnection: close\r\n\r\n").encode()
        with _open(addr, head + raw) as s:
            got = _until_closed(s)[1]
        assert got.startswith(b"HTTP/1.1 415 ")  # answered (and refused: not JSON)
    finally:
        for s in slow:
            s.close()


def test_accept_errors_are_one_line_a_while_not_a_traceback_each(monkeypatch):
    # out of descriptors, asyncio's accept loop logged a traceback per connection it could
    # not accept: 178 MB in 30 s under `ulimit -n 1024` (benchmarks/bench_slow_clients.py)
    import inspect

    assert slow_clients.ACCEPT_FAILED in inspect.getsource(asyncio.selector_events)
    monkeypatch.setattr(slow_clients, "_refused", {"count": 0, "logged": -math.inf})
    seen = Records()
    log = logging.getLogger(slow_clients.__name__)
    monkeypatch.setattr(log, "level", logging.INFO)
    log.addHandler(seen)
    loop = asyncio.new_event_loop()
    try:
        others: list[dict] = []
        loop.set_exception_handler(lambda _loop, context: others.append(context))
        slow_clients.quiet_accept_errors(loop)
        for _ in range(1000):
            loop.call_exception_handler({"message": slow_clients.ACCEPT_FAILED,
                                         "exception": OSError(24, "Too many open files")})
        loop.call_exception_handler({"message": "something else"})
    finally:
        loop.close()
        log.removeHandler(seen)
    assert [r.exc_info for r in seen.records] == [None]
    assert "could not accept 1 connection(s)" in seen.records[0].getMessage()
    assert [c["message"] for c in others] == ["something else"]  # the rest as before
