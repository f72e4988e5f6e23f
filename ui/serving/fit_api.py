"""The fit endpoint: POST the Playground's points, get back everything the page shows of the fit.

Why: each click used to rerun the page's Streamlit script twice (the canvas and the panels),
~50–360 ms of server CPU for a fit of ~0.1 ms. Now the browser draws the whole Playground
picture, the numbers panel and the points table from this endpoint's answer, and the script
reruns only for its own widgets and a cheap sync of the points.

The protocol is ``ui.serving.fit_schema`` (the request and the answer, with their JSON Schema
in ``fit_schema.json``); ``fit_request`` checks a request at the door, ``fit_answer`` builds
the answer. ``refit(body)`` is pure (no state kept between requests; per-user data stays in
the browser and in ``st.session_state``). The HTTP route (``refit_endpoint``) reads only a
POST of ``application/json`` from this server's own pages (``refusal``: another site's page
cannot start fits in a student's browser) and checks the JSON itself
(``fit_request.parse_body``) before anything else reads it; GET and HEAD only name the
server process. An answer without a model (one class only, not separable, over the time
budget) is a 200 with ``ok`` false; a bad request a 400 with {"error": message}.
"""

from __future__ import annotations

import gzip
import logging
import secrets
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from ui.serving.fit_answer import answer, points_figure, to_json
from ui.serving.fit_request import (
    MAX_BODY_BYTES,
    error,
    parse_body,
    parse_request,
    too_large_message,
)
from ui.serving.fit_schema import BadRequest

__all__ = ["BadRequest", "answer", "points_figure", "refit", "respond", "respond_gzip", "routes",
           "fit_url"]

FIT_PATH = "api/refit"
#: The only body the endpoint reads: a non-CORS-safelisted type, so another site's page cannot
#: make a student's browser POST here without a preflight (which this server never approves).
JSON_TYPE = "application/json"

_log = logging.getLogger(__name__)
#: This server process's id, sent with every endpoint response (header ``BOOT_HEADER``) and
#: in the Playground's page data: a browser that sees another one knows its session is gone
#: (the server restarted) and reloads the page with its points kept (ui/browser/canvas_sync.js).
BOOT = secrets.token_hex(6)
BOOT_HEADER = "X-SVMLab-Boot"
#: The answer is gzipped in the fit worker at this level, not by Streamlit's middleware at
#: level 9 in the server's event loop: a 200-point answer (~64 KB) costs 1.2 ms there
#: against 3.3 ms (5 ms in a server under load), for 5 % more bytes (35 against 33 KB).
GZIP_LEVEL = 1


def refit(body: Any) -> dict:
    """Fit the posted points and return the answer (``fit_answer.answer``).

    Raises BadRequest (a ValueError naming the bad field) for an invalid request; a fit that
    gives no model (one class, not separable, unsupported combination) is a valid answer with
    ``ok`` false.
    """
    req = parse_request(body)
    return answer(req["X"], req["y"], req["settings"], req["view"], home=req["home"],
                  alpha0=req["alpha0"], warm_model=req["warm_model"], seq=req["seq"],
                  style=req["style"])  # fmt: skip


def respond(raw: bytes) -> tuple[int, str]:
    """(HTTP status, JSON text) for a raw request body: 200 with the answer, 400 with
    {"error": message} for a bad request, 500 with {"error": ...} (never a traceback)."""
    try:
        return 200, to_json(refit(parse_body(raw)))
    except BadRequest as exc:
        return 400, error(str(exc))
    except Exception as exc:  # a bug must not become a traceback in the browser
        _log.exception("refit failed")
        return 500, error(f"the refit failed ({type(exc).__name__})")


def respond_gzip(raw: bytes) -> tuple[int, bytes]:
    """``respond``'s answer as gzip bytes (``GZIP_LEVEL``): run in the fit worker."""
    status, text = respond(raw)
    return status, gzip.compress(text.encode("utf-8"), GZIP_LEVEL, mtime=0)


# ------------------------------------------------------------------------------- route


def fit_url(base_url_path: str = "") -> str:
    """The endpoint's absolute path under Streamlit's ``server.baseUrlPath``."""
    base = "/".join(p for p in str(base_url_path or "").split("/") if p)
    return f"/{base}/{FIT_PATH}" if base else f"/{FIT_PATH}"


async def _read_capped(request) -> bytes | None:
    """The body, or None when it is longer than MAX_BODY_BYTES (stops reading there)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def refusal(headers: Mapping[str, str]) -> tuple[int, str] | None:
    """(status, JSON text) for a POST another site's page could have sent, else None.

    A page elsewhere can make a student's browser POST a form or text/plain (no preflight)
    and start fits in the student's name: only ``JSON_TYPE`` is read (415 otherwise), and a
    request whose Origin is not this server's own (its Host, or the proxy's
    X-Forwarded-Host) is refused (403). No Origin (curl, a script): not a browser's
    cross-site request, allowed."""
    media = headers.get("content-type", "").split(";")[0].strip().lower()
    if media != JSON_TYPE:
        return 415, error(f"send the request as {JSON_TYPE}; got {media or 'no type'!r:.60}")
    origin = headers.get("origin")
    if origin is None:
        return None
    hosts = {_host_port(h, origin) for h in (headers.get("host"), headers.get("x-forwarded-host"))}
    mine = _origin_host_port(origin)
    if mine is None or mine not in hosts:
        return 403, error(f"requests from another site's page are refused (Origin {origin!r:.80})")
    return None


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_host_port(origin: str) -> tuple[str, int] | None:
    try:
        o = urlsplit(origin)
        if o.scheme not in _DEFAULT_PORTS or not o.hostname:
            return None
        return o.hostname, o.port or _DEFAULT_PORTS[o.scheme]
    except ValueError:  # a port that is not a number
        return None


def _host_port(host: str | None, origin: str) -> tuple[str, int] | None:
    """(host, port) of a Host header, the port defaulting to the origin's scheme's."""
    if not host:
        return None
    try:
        h = urlsplit("//" + host.split(",")[0].strip())
        scheme = urlsplit(origin).scheme
        return (h.hostname or ""), h.port or _DEFAULT_PORTS.get(scheme, 80)
    except ValueError:
        return None


async def refit_endpoint(request):
    """Starlette handler: the fit runs in a worker process within the time budget
    (``budget.respond``), killed when the browser drops the request, so a slow fit never
    blocks the event loop that serves every session's websocket, nor outlives its client.
    Nothing reaches ``budget`` that ``refusal`` or ``parse_body`` refuses."""
    from starlette.requests import ClientDisconnect
    from starlette.responses import Response

    from ui.serving import budget, slow_clients

    headers = {"Cache-Control": "no-store", BOOT_HEADER: BOOT}
    if request.method in ("GET", "HEAD"):  # which server answers (a restart?); never a fit
        return Response("{}", media_type=JSON_TYPE, headers=headers)
    refused = refusal(request.headers)
    if refused is not None:
        status, text = refused
    else:
        try:
            raw = await _read_capped(request)
        except ClientDisconnect as exc:  # the browser left, or ``slow_clients`` closed it
            return await slow_clients.client_left(request, exc)
        try:
            if raw is None:
                raise BadRequest(too_large_message())
            body = parse_body(raw)  # parsed once here: the lane is read from it
        except BadRequest as exc:
            status, text = 400, error(str(exc))
        else:
            gz = "gzip" in request.headers.get("accept-encoding", "").lower()
            status, text = await budget.respond(raw, request.is_disconnected, body=body,
                                                respond_fn=respond_gzip if gz else None)
            if isinstance(text, bytes):  # gzipped in the worker: the middleware passes it on
                headers.update({"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return Response(text, status_code=status, media_type=JSON_TYPE, headers=headers)


def routes(base_url_path: str = "") -> list:
    """The starlette routes to pass to ``st.App(..., routes=...)`` (see app.py): the fit
    endpoint and the browser's modules (``browser_modules.route``)."""
    from starlette.routing import Route

    from ui.serving import browser_modules

    return [Route(fit_url(base_url_path), refit_endpoint, methods=["POST", "GET", "HEAD"]),
            browser_modules.route(base_url_path)]
