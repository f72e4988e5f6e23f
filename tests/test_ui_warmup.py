"""ui.warmup: the solvers compiled once per process, in the background; pages and the fit
endpoint wait for it. ``svm_engine.precompile.main`` is replaced by a stand-in held by a gate,
so each test decides when the "compilation" ends."""

from __future__ import annotations

import asyncio
import json
import threading
from types import SimpleNamespace

import pytest

from svm_engine import precompile
from ui import fit_api, warmup


@pytest.fixture
def gated(monkeypatch):
    ns = SimpleNamespace(gate=threading.Event(), calls=[], fail=False)

    def stand_in():
        ns.calls.append(threading.current_thread().name)
        if not ns.gate.wait(60):
            raise TimeoutError("the test never opened the gate")
        if ns.fail:
            raise RuntimeError("no compiler here")
        return 0.0

    monkeypatch.setattr(precompile, "main", stand_in)
    monkeypatch.setattr(warmup, "_thread", None)  # a process that has not warmed up yet
    monkeypatch.setattr(warmup, "_done", threading.Event())
    monkeypatch.setattr(warmup, "_result", {})
    yield ns
    ns.gate.set()


def in_thread(coro_fn):
    """Run an async function to its end in a thread of its own (Playwright may keep an event
    loop running in the test's thread); returns its result or raises its exception."""
    out: dict = {}

    def run():
        try:
            out["value"] = asyncio.run(coro_fn())
        except BaseException as exc:
            out["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    t.join(30)
    if "error" in out:
        raise out["error"]
    return out["value"]


def test_start_compiles_once_in_a_background_thread(gated):
    t = warmup.start()
    assert warmup.start() is t and warmup.start() is t
    assert t.daemon and t.name == "svmlab-warmup"
    assert not warmup.ready() and warmup.result() == {}
    assert warmup.join(timeout=0.1) is False  # still compiling
    gated.gate.set()
    assert warmup.join(timeout=10) is True
    assert warmup.ready() and "seconds" in warmup.result()
    warmup.start()
    assert gated.calls == ["svmlab-warmup"]  # once per process, however often it is asked


def test_a_failed_warmup_ends_the_wait_and_keeps_the_reason(gated, capsys):
    gated.fail = True
    gated.gate.set()
    assert warmup.join(timeout=10) is True
    assert warmup.result() == {"error": "RuntimeError: no compiler here"}
    assert "preparing the solvers" in capsys.readouterr().err


def test_wait_async_returns_once_ready(gated):
    async def too_soon():
        await asyncio.wait_for(warmup.wait_async(poll_s=0.01), timeout=0.3)

    with pytest.raises(TimeoutError):
        in_thread(too_soon)
    gated.gate.set()
    in_thread(lambda: asyncio.wait_for(warmup.wait_async(poll_s=0.01), timeout=10))


def test_the_lifespan_starts_it(gated):
    async def serve():
        async with warmup.lifespan(None):
            return warmup._thread is not None and not warmup.ready()

    assert in_thread(serve) is True


def test_the_fit_endpoint_answers_after_the_warmup(gated):
    from starlette.requests import Request

    body = json.dumps({"points": [[0, 0, 1], [2, 2, -1]], "settings": {"kernel": "linear"}})
    scope = {"type": "http", "method": "POST", "path": "/api/refit", "headers": [],
             "query_string": b""}  # fmt: skip

    async def receive():
        return {"type": "http.request", "body": body.encode(), "more_body": False}

    assert fit_api.respond(body.encode())[0] == 200  # the same fit, done once: now quick

    async def post():
        task = asyncio.ensure_future(fit_api.refit_endpoint(Request(scope, receive)))
        await asyncio.wait({task}, timeout=2)
        waited = not task.done()  # held while the solvers compile
        gated.gate.set()
        response = await asyncio.wait_for(task, timeout=30)
        return waited, response

    waited, response = in_thread(post)
    assert waited is True
    assert response.status_code == 200 and json.loads(response.body)["ok"] is True


SCRIPT = """
import streamlit as st
from ui import warmup
warmup.wait()
st.write("after the warm-up")
"""


def test_a_page_waits_then_runs(gated):
    from streamlit.testing.v1 import AppTest

    threading.Timer(0.5, gated.gate.set).start()
    at = AppTest.from_string(SCRIPT, default_timeout=30).run()
    assert not at.exception
    assert [m.value for m in at.markdown] == ["after the warm-up"]
    assert warmup.ready()
