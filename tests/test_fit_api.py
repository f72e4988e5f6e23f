"""ui.serving.fit_api: the Playground's fit endpoint (request checks, the answer, the HTTP
route)."""

import base64
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from svm_engine import datasets
from svm_engine.bounds import at_C_mask, free_mask, outside_masks, support_mask
from ui.serving import fit_answer, fit_api, fit_request
from ui.shared import browser_data, figures, fitting, numbers, slack_drawing
from ui.shared.points import MAX_POINTS, default_range
from ui.shared.settings import Settings, settings_to_kernel

ROOT = Path(__file__).resolve().parents[1]


def _pts(X, y) -> list:
    return [[float(a), float(b), int(c)] for (a, b), c in zip(X, y, strict=True)]


def _d2_body(**extra) -> dict:
    d = datasets.d2()
    body = {"points": _pts(d.X, d.y), "settings": dict(Settings.from_dataset(d.settings))}
    body.update(extra)
    return body


def _moons():
    d = datasets.load("moons", n=60, noise=0.2, seed=3)
    settings = dict(Settings.parse({"kernel": "gaussian", "sigma": 1.0, "C": 1.0}))
    return d.X, d.y, settings


def _grid(ans) -> np.ndarray:
    g = ans["grid"]
    h = np.frombuffer(base64.b64decode(g["h"]), dtype="<f4")
    return h.reshape(g["y"][2], g["x"][2])


def _answer(body) -> dict:
    status, text = fit_api.respond(json.dumps(body).encode())
    assert status == 200, text
    return json.loads(text)


# ------------------------------------------------------------------------- good requests


def test_answer_is_the_model_fit_points_gives():
    d = datasets.d2()
    settings = dict(Settings.from_dataset(d.settings))
    view = {"x": [-1.0, 9.0], "y": [0.0, 6.0]}
    ans = _answer(_d2_body(view=view, seq=7))
    m = fitting.fit_points(d.X, d.y, settings).model
    assert ans["ok"] and ans["kind"] == "ok" and ans["seq"] == 7 and len(ans["alpha"]) == len(d.y)
    np.testing.assert_array_equal(ans["alpha"], m.alpha)
    np.testing.assert_array_equal(ans["h"], m.h_train)
    assert "b" not in ans and "n" not in ans  # read by no browser code (fit_schema.FitAnswer)
    assert ans["free"] == m.free_support.tolist() and ans["bound"] == m.bound_support.tolist()
    assert ans["misclassified"] == np.flatnonzero(m.category == "misclassified").tolist()
    assert ans["slack_idx"] == np.flatnonzero(m.xi > slack_drawing.MIN_SLACK).tolist()
    assert ans["fit"]["n_iter"] == m.n_iter and ans["fit"]["converged"] is True
    assert ans["fit"]["warm"] is False
    # h on the view widened as the figure's grid is, at the figure's resolution
    xs, ys, H = fitting.decision_grid(
        m, *browser_data.grid_ranges(((-1.0, 9.0), (0.0, 6.0))), browser_data.GRID_RESOLUTION
    )
    assert ans["grid"]["x"] == [xs[0], xs[-1], len(xs)] and ans["grid"]["y"][2] == len(ys)
    np.testing.assert_array_equal(_grid(ans), H)
    assert max(len(xs), len(ys)) == browser_data.GRID_RESOLUTION


def test_draw_data_is_the_figures_rings_slack_and_styles():
    X, y, settings = _moons()
    ans = _answer({"points": _pts(X, y), "settings": settings})
    m = fitting.fit_points(X, y, settings).model
    rings = {r["color"]: r for r in ans["rings"]}
    free, bound = rings[figures.FREE_SV_COLOR], rings[figures.BOUND_SV_COLOR]
    assert len(free["x"]) == len(m.free_support) and len(bound["x"]) == len(m.bound_support)
    np.testing.assert_allclose(free["size"], figures.ring_sizes(m, m.free_support), atol=0.01)
    np.testing.assert_allclose(bound["size"], figures.ring_sizes(m, m.bound_support), atol=0.01)
    assert bound["size"][0] == 38.0  # α = C: the largest ring
    np.testing.assert_array_equal(bound["x"], m.X[m.bound_support, 0])
    idx, feet = slack_drawing.slack_segments(m)
    found = [(i, f) for i, f in zip(idx, feet, strict=True) if f is not None]
    assert len(ans["slack"]["lines"]) == len(found) > 0
    for (i, f), (x0, y0, x1, y1) in zip(found, ans["slack"]["lines"], strict=True):
        assert (x0, y0) == tuple(m.X[i]) and (x1, y1) == tuple(f)
    labels = ans["slack"]["labels"]
    assert len(labels) == min(browser_data.MAX_SLACK_LABELS, len(idx))
    worst = int(idx[np.argmax(m.xi[idx])])
    assert any(t == f"ξ={numbers.fmt_num(m.xi[worst], 3)}" for _, _, t in labels)
    assert ans["boundary"] == {"color": "#000000", "width": 3.5, "dash": "solid"}
    assert ans["margins"]["dash"] == "dash"
    assert ans["regions"]["colorscale"] == figures.REGION_COLORSCALE
    assert ans["misclassified"] and ans["misclassified_mark"]["size"] == 22


def _assert_kkt_hinge(X, y, alpha, h, settings, tol=2e-3):
    """KKT of the hinge-loss dual from α and h(xᵢ) (box 0 ≤ α ≤ C, Σαᵢyᵢ = 0); h must be
    Σ αⱼyⱼK(xⱼ, xᵢ) + one b."""
    K = settings_to_kernel(settings)(X, X)
    assert np.ptp(h - K @ (alpha * y)) < 1e-6  # one b for every point
    yh = y * h
    C = settings["C"]
    below, above = outside_masks(alpha, C)
    assert abs(float(alpha @ y)) < 1e-8 and not (below.any() or above.any())
    assert (yh[~support_mask(alpha)] >= 1 - tol).all()
    np.testing.assert_allclose(yh[free_mask(alpha, C)], 1.0, atol=tol)
    assert (yh[at_C_mask(alpha, C)] <= 1 + tol).all()


def test_warm_start_reaches_the_cold_optimum():
    X, y, settings = _moons()
    first = _answer({"points": _pts(X, y), "settings": settings})
    X2, y2 = np.vstack([X, [[0.3, 0.4]]]), np.append(y, 1)
    warm = {"points": _pts(X, y), "alpha": first["alpha"]}
    hot = _answer({"points": _pts(X2, y2), "settings": settings, "warm": warm})
    cold = _answer({"points": _pts(X2, y2), "settings": settings})
    assert hot["fit"]["warm"] is True and cold["fit"]["warm"] is False
    assert hot["fit"]["n_iter"] < cold["fit"]["n_iter"]
    _assert_kkt_hinge(X2, y2, np.array(hot["alpha"]), np.array(hot["h"]), settings)
    _assert_kkt_hinge(X2, y2, np.array(cold["alpha"]), np.array(cold["h"]), settings)
    np.testing.assert_allclose(hot["alpha"], cold["alpha"], atol=2e-3)
    np.testing.assert_allclose(hot["h"], cold["h"], atol=5e-3)
    np.testing.assert_allclose(_grid(hot), _grid(cold), atol=5e-3)


def test_warm_start_is_skipped_when_it_cannot_help():
    X, y, settings = _moons()
    first = _answer({"points": _pts(X, y), "settings": settings})
    warm = {"points": _pts(X, y), "alpha": first["alpha"]}
    moved = _answer({"points": _pts(X + 1.0, y), "settings": settings, "warm": warm})
    assert moved["fit"]["warm"] is False  # every point moved: map_alpha gives up
    qp = dict(settings, solver="qp")
    assert _answer({"points": _pts(X, y), "settings": qp, "warm": warm})["fit"]["warm"] is False


def test_no_model_is_an_answer_not_an_error():
    one = _answer({"points": [[0, 0, 1], [1, 1, 1]], "settings": {}})
    assert one["ok"] is False and one["kind"] == "need_two_classes"
    assert "each class" in one["message"] and "grid" not in one
    # the figure still shows the points (the page's plot must not keep the last model)
    roles = [t["meta"]["role"] for t in one["figure"]["data"]]
    assert set(roles) == {"points"}  # (no regions, boundary or margins of an older fit)
    hard = _answer(_d2_body(settings={"kernel": "linear", "hard_margin": True}))
    assert hard["ok"] is False and hard["kind"] == "not_separable"
    assert "not linearly separable" in hard["message"]
    assert _answer({"points": [], "settings": {}})["kind"] == "need_two_classes"


def test_default_view_is_around_the_points():
    ans = _answer(_d2_body())
    (x0, x1), _ = browser_data.grid_ranges(default_range(datasets.d2().X))
    assert ans["grid"]["x"][:2] == [x0, x1]


def test_the_answer_is_strict_json():
    text = fit_api.respond(json.dumps(_d2_body()).encode())[1]
    json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in the answer"))


# -------------------------------------------------------------------------- bad requests

D2 = _d2_body()
GOOD_SETTINGS = D2["settings"]
BAD = [
    (b"not json", "not valid JSON"),
    (b"[1, 2]", "JSON object"),
    (b'{"points": [[0, NaN, 1]], "settings": {}}', "NaN"),
    ({"points": D2["points"], "settings": {}, "color": 1}, "unknown field: color (expected"),
    ({"settings": {}}, "points is missing"),
    ({"points": "0,0,1"}, "points: "),
    ({"points": [[0, "1", 1]]}, "points: point 1 is not two finite numbers"),
    (b'{"points": [[0, 1e999, 1]]}', "points: point 1 is not two finite numbers"),
    ({"points": [[0, 0, 1], [0, 0, 2]]}, "points: point 2 has label 2"),
    ({"points": [[0, 0, True]]}, "points: point 1 has label True"),
    ({"points": [[0, 0, 1]] * (MAX_POINTS + 1)}, "too many points: 2001 (at most 2000)"),
    ({"points": [[0, 0, 1]], "settings": [1]}, "settings: must be an object"),
    ({"points": [[0, 0, 1]], "settings": {"kernel": "cubic"}}, "settings: kernel must be one of"),
    ({"points": [[0, 0, 1]], "settings": {"C": 0}}, "settings: C must be a number between"),
    ({"points": [[0, 0, 1]], "settings": {"foo": 1}}, "settings: unknown setting(s): foo"),
    ({"points": [[0, 0, 1]], "view": [0, 1]}, "view: must be"),
    ({"points": [[0, 0, 1]], "view": {"x": [1, 1], "y": [0, 1]}}, "view: must be"),
    ({"points": [[0, 0, 1]], "view": {"x": [0, "a"], "y": [0, 1]}}, "view: must be"),
    ({"points": [[0, 0, 1]], "seq": -1}, "seq: Input should be greater than or equal to 0"),
    ({"points": [[0, 0, 1]], "seq": 1.5}, "seq: Input should be a valid integer"),
    ({"points": [[0, 0, 1]], "seq": True}, "seq: Input should be a valid integer"),
    ({"points": [[0, 0, 1]], "style": {"scale": 3}}, "style.scale: Input should be less"),
    ({"points": [[0, 0, 1]], "style": {"hide": ["sv"]}}, "style.hide.0: Input should be"),
    ({"points": [[0, 0, 1]], "style": {"show_sv": 1}}, "style.show_sv: Input should be a valid"),
    ({"points": [[0, 0, 1]], "style": {"font": 1}}, "unknown field: style.font (expected"),
    ({"points": [[0, 0, 1]], "warm": [1]}, "warm: Input should be a valid dictionary"),
    ({"points": [[0, 0, 1]], "warm": {"points": [[0, 0, 1]], "alpha": []}}, "warm: alpha must"),
    ({"points": [[0, 0, 1]], "warm": {"points": [[0, 0, 1]], "alpha": ["x"]}}, "warm.alpha.0: "),
    ({"points": [[0, 0, 1]], "warm": {"points": [[0, 0, 7]], "alpha": [1]}}, "warm.points: "),
    ({"points": [[0, 0, 1]], "warm": {"alpha": []}}, "warm.points is missing"),
]
# integers no float holds (they overflowed every check after the JSON: a 500), and nesting
# deeper than any request (json and repr recurse: RecursionError, a 500)
HUGE = 10**400
OVERSIZED = [
    ({"points": [[0, 0, 1]], "settings": {"C": HUGE}}, "(401 digits) is too large"),
    ({"points": [[0, 0, 1]], "settings": {"sigma": -HUGE}}, "(402 digits) is too large"),
    ({"points": [[0, 0, 1]], "settings": {"degree": HUGE}}, "is too large"),
    ({"points": [[HUGE, 0, 1]]}, "is too large"),
    ({"points": [[0, 0, 1]], "view": {"x": [0, HUGE], "y": [0, 1]}}, "is too large"),
    ({"points": [[0, 0, 1]], "style": {"scale": HUGE}}, "is too large"),
    ({"points": [[0, 0, 1]], "warm": {"points": [[0, 0, 1]], "alpha": [HUGE]}}, "is too large"),
    ({"points": [[0, 0, 1]], "seq": HUGE}, "is too large"),
    (b"[" * 100_000 + b"]" * 100_000, "more than 6 levels deep"),
    (b'{"points": [[0, 0, 1]], "settings": {"kernel": ' + b"[" * 900 + b"]" * 900 + b"}}",
     "more than 6 levels deep"),
    ({"points": [[0, 0, 1]], "settings": {"kernel": [[[[[["x"]]]]]]}}, "levels deep"),
]
BAD += OVERSIZED


@pytest.mark.parametrize("body, words", BAD, ids=[w for _, w in BAD])
def test_bad_requests_get_400_with_a_message_naming_the_problem(body, words):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    status, text = fit_api.respond(raw)
    assert status == 400
    answer = json.loads(text)
    assert set(answer) == {"error"} and words in answer["error"], answer
    assert "Traceback" not in text


def test_the_deepest_request_is_within_max_depth():
    body = _d2_body(warm={"points": [[0, 0, 1]], "alpha": [0.0]}, view={"x": [0, 1], "y": [0, 1]})
    assert fit_request.depth(body) == 4 <= fit_request.MAX_DEPTH
    assert fit_request.parse_body(json.dumps(body).encode()) == body


def test_a_dict_with_a_huge_integer_is_a_bad_request_too():
    # refit() is also called with dicts (the page's payload): no OverflowError out of it
    with pytest.raises(fit_api.BadRequest, match="too large"):
        fit_api.refit({"points": [[0, 0, 1]], "settings": {"C": HUGE}})


def test_size_caps():
    status, text = fit_api.respond(b" " * (fit_request.MAX_BODY_BYTES + 1))
    assert status == 400 and "too large" in json.loads(text)["error"]
    # the largest allowed point list passes the checks (2,000 points, a warm start for all)
    pts = [[float(i), float(i % 7), 1 if i % 2 else -1] for i in range(MAX_POINTS)]
    body = {"points": pts, "settings": {}, "warm": {"points": pts, "alpha": [0.5] * len(pts)}}
    assert len(json.dumps(body)) < fit_request.MAX_BODY_BYTES
    req = fit_request.parse_request(body)
    assert req["X"].shape == (MAX_POINTS, 2)
    np.testing.assert_array_equal(req["alpha0"], 0.5)


def test_an_engine_bug_is_a_500_without_a_traceback(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("internal detail")

    monkeypatch.setattr(fit_answer, "draw_data", boom)
    status, text = fit_api.respond(json.dumps(_d2_body()).encode())
    assert status == 500 and json.loads(text) == {"error": "the refit failed (RuntimeError)"}


# ----------------------------------------------------------------------------- the route


@pytest.mark.parametrize(
    "base, url", [("", "/api/refit"), ("/lab/", "/lab/api/refit"), ("a/b", "/a/b/api/refit")]
)
def test_fit_url_follows_the_base_url_path(base, url):
    assert fit_api.fit_url(base) == url


JSON_HEADERS = {"content-type": "application/json"}


def _call(app, method: str, path: str, body: bytes = b"", chunk: int = 65536,
          headers: dict | None = None, leave_after: int | None = None):  # fmt: skip
    """One HTTP request through an ASGI app (starlette's TestClient needs httpx, which the
    project does not install): (status, headers, body). ``leave_after``: the client
    disconnects after sending that many chunks of the body (status None: no answer)."""
    import asyncio
    import threading

    parts = [body[k : k + chunk] for k in range(0, len(body), chunk)] or [b""]
    sent: list[dict] = []
    received = 0

    async def receive():
        nonlocal received
        if leave_after is not None and received >= leave_after:
            return {"type": "http.disconnect"}
        received += 1
        part = parts.pop(0) if parts else b""
        return {"type": "http.request", "body": part, "more_body": bool(parts)}

    async def send(message):
        sent.append(message)

    path, _, query = path.partition("?")
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(k.encode(), v.encode())
                    for k, v in (JSON_HEADERS if headers is None else headers).items()],
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
    }  # fmt: skip
    # a thread of its own: the browser tests' Playwright keeps an event loop running in this
    # one for the whole session, and asyncio.run refuses to start a second there
    errors: list[BaseException] = []

    def serve():
        try:
            asyncio.run(app(scope, receive, send))
        except BaseException as exc:  # re-raised below, in the test's thread
            errors.append(exc)

    worker = threading.Thread(target=serve)
    worker.start()
    worker.join()
    if errors:
        raise errors[0]
    if leave_after is not None and not sent:
        return None, {}, b""
    start = next(m for m in sent if m["type"] == "http.response.start")
    headers = {k.decode(): v.decode() for k, v in start["headers"]}
    text = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], headers, text


def test_route_answers_json_through_starlette():
    from starlette.applications import Starlette

    app = Starlette(routes=fit_api.routes("lab"))
    good = json.dumps(_d2_body(seq=3)).encode()
    status, headers, text = _call(app, "POST", "/lab/api/refit", good)
    assert status == 200 and headers["content-type"] == "application/json"
    assert headers["cache-control"] == "no-store"
    assert json.loads(text)["seq"] == 3 and json.loads(text)["ok"] is True
    status, _, text = _call(app, "POST", "/lab/api/refit", b"{")
    assert status == 400 and "not valid JSON" in json.loads(text)["error"]
    status, _, text = _call(app, "POST", "/lab/api/refit", b" " * (fit_request.MAX_BODY_BYTES + 10))
    assert status == 400 and "too large" in json.loads(text)["error"]
    # GET names the server process (a browser that sees another one reloads: a restart)
    status, headers, text = _call(app, "GET", "/lab/api/refit")
    assert status == 200 and headers[fit_api.BOOT_HEADER.lower()] == fit_api.BOOT
    assert headers["cache-control"] == "no-store" and json.loads(text) == {}
    assert _call(app, "PUT", "/lab/api/refit", b"{}")[0] == 405
    assert _call(app, "POST", "/api/refit", json.dumps(_d2_body()).encode())[0] == 404


def _no_fit(monkeypatch):
    """budget.respond (the fit worker) must not be reached: it fails the test if it is."""
    from ui.serving import budget

    async def fit(raw, *args, **kwargs):
        pytest.fail(f"a fit worker got {raw[:60]!r}")

    monkeypatch.setattr(budget, "respond", fit)


@pytest.mark.parametrize("body, words", OVERSIZED, ids=[w for _, w in OVERSIZED])
def test_oversized_numbers_and_nesting_are_400_at_the_door(monkeypatch, body, words):
    # they were a 500 (plain text, a traceback in the log): the lane's estimate
    # (budget._peek) read the settings in the server's process, outside any try
    from starlette.applications import Starlette

    _no_fit(monkeypatch)
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    status, _, text = _call(Starlette(routes=fit_api.routes()), "POST", "/api/refit", raw)
    assert status == 400 and words in json.loads(text)["error"], text


def test_head_names_the_server_and_runs_no_fit(monkeypatch):
    from starlette.applications import Starlette

    _no_fit(monkeypatch)  # HEAD went the POST way: a fit worker, then a 400
    status, headers, _ = _call(Starlette(routes=fit_api.routes()), "HEAD", "/api/refit")
    assert status == 200 and headers[fit_api.BOOT_HEADER.lower()] == fit_api.BOOT


FOREIGN = [
    ({"content-type": "text/plain"}, 415, "send the request as application/json"),
    ({"content-type": "application/x-www-form-urlencoded"}, 415, "application/json"),
    ({"content-type": "multipart/form-data; boundary=x"}, 415, "application/json"),
    ({}, 415, "application/json"),
    ({"content-type": "application/json", "host": "lab.example",
      "origin": "https://evil.example"}, 403, "another site"),
    ({"content-type": "application/json", "host": "lab.example:8501",
      "origin": "http://lab.example"}, 403, "another site"),
    ({"content-type": "application/json", "host": "lab.example", "origin": "null"}, 403,
     "another site"),
]


@pytest.mark.parametrize("headers, status, words", FOREIGN,
                         ids=[h.get("origin") or h.get("content-type", "-") for h, *_ in FOREIGN])
def test_what_another_site_could_send_is_refused(monkeypatch, headers, status, words):
    # a form or text/plain POST needs no preflight: another site's page could make a
    # student's browser start fits; a foreign Origin is refused whatever the type
    from starlette.applications import Starlette

    _no_fit(monkeypatch)
    app = Starlette(routes=fit_api.routes())
    got, _, text = _call(app, "POST", "/api/refit", json.dumps(_d2_body()).encode(),
                         headers=headers)
    assert got == status and words in json.loads(text)["error"], text


def test_a_gzip_client_gets_the_workers_gzip_and_the_middleware_leaves_it():
    # the answer is compressed in the fit worker (fit_api.GZIP_LEVEL), not again by the
    # server's GZip middleware (Streamlit's, level 9, in the event loop); the same answer
    import gzip

    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.gzip import GZipMiddleware

    app = Starlette(routes=fit_api.routes(), middleware=[Middleware(GZipMiddleware)])
    raw = json.dumps(_d2_body(seq=5)).encode()
    status, headers, body = _call(app, "POST", "/api/refit", raw,
                                  headers={**JSON_HEADERS, "accept-encoding": "gzip, br"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert headers["vary"] == "Accept-Encoding"
    ans = json.loads(gzip.decompress(body))  # compressed once: plain JSON inside
    plain = json.loads(fit_api.respond(raw)[1])
    for a in (ans, plain):
        a.pop("server_ms")
        a["fit"].pop("solver_ms")
        a["panel"] = [row for row in a["panel"] if row[0] != "time"]
    assert ans == plain
    status, headers, text = _call(app, "POST", "/api/refit", raw)  # no gzip asked: none
    assert status == 200 and "content-encoding" not in headers and json.loads(text)["seq"] == 5


def test_json_integers_and_the_long_integer_check_agree():
    # json's own integers are read unless a run of FLOAT_DIGITS digits could overflow a float
    ok = b'{"seq": 1' + b"0" * (fit_request.FLOAT_DIGITS - 2) + b', "x": [1, -1, 2.5]}'
    assert fit_request.parse_body(ok)["seq"] == 10 ** (fit_request.FLOAT_DIGITS - 2)
    for digits in (fit_request.FLOAT_DIGITS, 400):
        with pytest.raises(fit_api.BadRequest, match="too large"):
            fit_request.parse_body(b'{"seq": 9' + b"9" * (digits - 1) + b"}")


@pytest.mark.parametrize("headers", [
    {"content-type": "application/json; charset=utf-8"},
    {"content-type": "application/json", "host": "lab.example", "origin": "https://lab.example"},
    {"content-type": "application/json", "host": "127.0.0.1:8501",
     "origin": "http://127.0.0.1:8501"},
    {"content-type": "application/json", "host": "10.0.0.5:8502",
     "x-forwarded-host": "lab.example", "origin": "https://lab.example"},
])
def test_the_pages_own_requests_are_answered(headers):
    from starlette.applications import Starlette

    app = Starlette(routes=fit_api.routes())
    status, _, text = _call(app, "POST", "/api/refit", json.dumps(_d2_body(seq=4)).encode(),
                            headers=headers)
    assert status == 200 and json.loads(text)["seq"] == 4


def test_a_client_that_leaves_mid_body_is_one_log_line(monkeypatch):
    # it was starlette's ClientDisconnect raised out of the app (uvicorn logs its traceback
    # and the server error middleware a 500 to nobody), per client
    import logging

    from starlette.applications import Starlette

    from tests.log_records import Records

    _no_fit(monkeypatch)
    app = Starlette(routes=fit_api.routes())
    raw = json.dumps(_d2_body()).encode()
    seen, root = Records(), logging.getLogger()
    monkeypatch.setattr(root, "level", logging.INFO)
    root.addHandler(seen)
    try:
        _call(app, "POST", "/api/refit", raw, chunk=100, leave_after=2)
    finally:
        root.removeHandler(seen)
    assert len(seen.records) == 1 and seen.records[0].exc_info is None, seen.records
    assert "left before its request arrived whole" in seen.records[0].getMessage()


def test_streamlit_run_serves_app_py_with_the_fit_route():
    from streamlit.web.server.app_discovery import discover_asgi_app

    found = discover_asgi_app(ROOT / "app.py")
    assert found.is_asgi_app and found.import_string == "app:app"
    # imported as a module (what uvicorn does), app.py builds the st.App with the route; run
    # in a child process: st.App sets process-wide Streamlit config
    code = (
        "import runpy; g = runpy.run_path('app.py', run_name='app');"
        "print([r.path for r in g['app']._user_routes]);"
        "from uvicorn.protocols.http.h11_impl import H11Protocol;"
        "print(H11Protocol.svmlab_slow_clients);"  # ui/serving/slow_clients.py: installed
        "from starlette.requests import ClientDisconnect;"
        "print(g['app']._exception_handlers[ClientDisconnect].__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-3:] == [
        "['/api/refit', '/svmlab/{version}/{name}']", "True", "client_left"]


def test_no_state_is_kept_between_requests():
    # the same request twice gives the same answer, whatever came in between
    a = _answer(_d2_body(seq=1))
    _answer({"points": [[0, 0, 1], [3, 3, -1]], "settings": {"kernel": "gaussian"}})
    b = _answer(_d2_body(seq=1))
    def untimed(ans):  # the timings differ, and so does the panel's "time" row
        out = {k: v for k, v in ans.items() if k not in ("fit", "server_ms")}
        out["panel"] = [row for row in ans["panel"] if row[0] != "time"]
        return out

    assert untimed(a) == untimed(b)
    assert math.isfinite(a["server_ms"])


def test_a_refit_after_one_edit_starts_from_the_previous_model(monkeypatch):
    """The server keeps recent models (pure results keyed by points + settings): the answer
    to an edit starts from the model before it, α and gradient, and ends where a cold fit
    does."""
    monkeypatch.setattr(fit_answer, "RECENT", fitting.RecentModels())
    body = _d2_body()
    first = fit_api.refit(body)
    assert first["ok"] and not first["fit"]["warm"] and len(fit_answer.RECENT) == 1
    moved = [list(p) for p in body["points"]] + [[3.0, 3.5, 1]]
    second = fit_api.refit({**body, "points": moved,
                            "warm": {"points": body["points"], "alpha": first["alpha"]}})
    assert second["fit"]["warm"] and second["fit"]["warm_gradient"]
    X = np.array([p[:2] for p in moved], dtype=float)
    y = np.array([p[2] for p in moved])
    cold = fitting.fit_points(X, y, fit_request.parse_request(body)["settings"]).model
    warm = fit_answer.RECENT.get(fitting.fit_key(X, y, fit_request.parse_request(body)["settings"]))
    assert warm is not None and warm.alpha0 is not None
    assert warm.dual_objective == pytest.approx(cold.dual_objective, rel=1e-6)
    np.testing.assert_allclose(second["alpha"], warm.alpha)


def test_recent_models_is_a_bounded_lru():
    cache = fitting.RecentModels(size=2)
    cache.put(b"a", 1)
    cache.put(b"b", 2)
    assert cache.get(b"a") == 1          # a is now the most recent
    cache.put(b"c", 3)
    assert cache.get(b"b") is None and cache.get(b"a") == 1 and cache.get(b"c") == 3
    assert len(cache) == 2


def test_precompile_runs_the_playgrounds_hot_path():
    """`make run` calls it before the server starts: a cold fit and a warm refit per kernel."""
    from svm_engine import precompile

    assert precompile.main() > 0.0
