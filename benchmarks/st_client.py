"""One Streamlit browser session without a browser: Streamlit 1.67's websocket protocol.

Used by ``bench_class.py`` to put many real sessions (each its own websocket, its own
``st.session_state`` on the server) on one server from one asyncio process. What a browser
tab does, and what this does the same way (read off the frontend bundle and a captured
Chromium session, 2026-11):

1. ``GET /?<query>`` (index.html), ``GET /_stcore/health`` (sets the ``_streamlit_xsrf``
   cookie) and ``GET /_stcore/host-config``; static assets are not fetched.
2. Websocket ``/_stcore/stream`` with subprotocols ``["streamlit", <_streamlit_xsrf cookie>]``
   and an ``Origin`` header. XSRF does not gate the websocket (the server only uses the
   token to trust an auth cookie) nor ``POST /api/refit`` (a route of the app's own), but the
   handshake is sent as the browser sends it.
3. BackMsg ``rerun_script`` (a ``ClientState``): the first with only ``query_string`` and
   ``context_info`` (``page_script_hash`` empty: the server picks the page from the URL), the
   next ones with ``page_script_hash`` (from the ``new_session`` ForwardMsg), ``fragment_id``
   (the fragment of the widget that changed), ``widget_states`` and
   ``cached_message_hashes``.
4. ForwardMsgs until ``script_finished`` (a status other than FINISHED_EARLY_FOR_RERUN).
   Cacheable messages (``metadata.cacheable``) are remembered by hash and aged as the
   frontend's ForwardMsgCache does (dropped after ``max_cached_message_age`` full runs, or
   runs of their own fragment); a ``ref_hash`` message is resolved from that cache.

Differences from a browser, on purpose (the server cannot tell): a rerun carries only the
widget states given to ``rerun()`` (the browser also resends the unchanged values of every
other widget; the server keeps a widget's previous value when it is absent, see
``SessionState._compact_state``); websocket pings are answered by aiohttp (autoping); the
app heartbeat (``app_heartbeat`` BackMsg → ``heartbeat_ack``) is sent only on request.
The client parses only what it needs: the type of each ForwardMsg and delta, and the JSON of
custom-component (``bidi_component``) elements, kept as text until asked for.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

STREAM_PATH = "/_stcore/stream"
XSRF_COOKIE = "_streamlit_xsrf"
EARLY_FOR_RERUN = ForwardMsg.FINISHED_EARLY_FOR_RERUN
CONTEXT = {"timezone": "UTC", "timezone_offset": 0, "locale": "en-US", "is_embedded": False,
           "color_scheme": "light"}  # fmt: skip


class SessionError(RuntimeError):
    """The session failed: websocket closed or refused, a run that did not end in time."""


@dataclass
class Component:
    """A custom component (CCv2 ``bidi_component``) element as the last run sent it."""

    id: str  # the widget id: the key of its WidgetState
    name: str
    fragment_id: str  # the fragment it was drawn in ("" outside fragments)
    json_text: str  # its data (``data=`` in Python), JSON text

    def data(self) -> Any:
        """The data as the component's script reads it: a page that sends JSON text
        (ui/playground/canvas.py payload_text) is parsed as canvas.js parses it."""
        data = json.loads(self.json_text) if self.json_text else None
        return json.loads(data) if isinstance(data, str) else data


@dataclass
class RunResult:
    status: int  # ForwardMsg.ScriptFinishedStatus
    ms: float  # rerun_script sent → script_finished
    components: dict[str, Component] = field(default_factory=dict)  # drawn in this run
    errors: list[str] = field(default_factory=list)  # exception / st.error elements
    texts: list[str] = field(default_factory=list)  # markdown, text, alert and metric bodies

    def text(self) -> str:
        return "\n".join(self.texts)


#: the elements whose words a page shows (RunResult.texts) and the field holding them
TEXT_FIELDS = {"markdown": "body", "text": "body", "alert": "body", "heading": "body",
               "metric": "body", "code": "code_text"}  # fmt: skip
#: widget element type → how its value is sent (a WidgetState's oneof field)
WIDGET_VALUE = {"button": "trigger_value", "text_input": "string_value",
                "text_area": "string_value", "number_input": "double_value",
                "checkbox": "bool_value", "multiselect": "string_array_value",
                "selectbox": "string_value", "radio": "string_value",
                "slider": "double_array_value"}  # fmt: skip


@dataclass
class _Cached:
    run: int  # the run count when last seen
    fragment_id: str
    component: Component | None
    error: str | None


class StreamlitSession:
    """``await open()``: the page loaded (first run finished); ``await rerun(...)`` per widget
    change; ``components`` holds each custom component's latest element by name."""

    def __init__(self, base_url: str, query: str, *, timeout: float = 60.0):
        self.base_url = base_url.rstrip("/")
        self.query = query
        self.timeout = timeout
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.page_script_hash = ""
        self.max_age = 2
        self.components: dict[str, Component] = {}
        self.widgets: dict[str, tuple[str, str]] = {}  # label → (widget id, element type)
        self.widget_fragment: dict[str, str] = {}  # label → the fragment it was drawn in
        self.page_name = ""  # a page's URL path ("join_class"): the first run opens it
        self.fragments: set[str] = set()  # ids of the fragments the page drew
        self.auto_reruns: dict[str, float] = {}  # fragment id → run_every (s), as the page set
        self.closed_reason: str | None = None
        self._cache: dict[str, _Cached] = {}
        self._runs = 0
        self._reader: asyncio.Task | None = None
        self._run: RunResult | None = None  # the run being received
        self._run_fragment = ""
        self._run_done: asyncio.Future | None = None
        self._heartbeat: asyncio.Future | None = None
        self._lock = asyncio.Lock()  # one rerun at a time per session

    # ---------------------------------------------------------------- connection

    async def open(self) -> RunResult:
        """Load the page: the HTTP requests a browser makes, the websocket, the first run."""
        jar = aiohttp.CookieJar(unsafe=True)  # keep cookies of an IP host (127.0.0.1)
        self.http = aiohttp.ClientSession(
            cookie_jar=jar, timeout=aiohttp.ClientTimeout(total=self.timeout)
        )
        for path in (f"/{self.page_name}?{self.query}", "/_stcore/health",
                     "/_stcore/host-config"):
            async with self.http.get(self.base_url + path) as r:
                await r.read()
                if r.status != 200:
                    raise SessionError(f"GET {path}: HTTP {r.status}")
        xsrf = next((c.value for c in jar if c.key == XSRF_COOKIE), "")
        u = urlsplit(self.base_url)
        ws_url = f"{'wss' if u.scheme == 'https' else 'ws'}://{u.netloc}{u.path}{STREAM_PATH}"
        self.ws = await self.http.ws_connect(
            ws_url,
            protocols=("streamlit", xsrf) if xsrf else ("streamlit",),
            origin=self.base_url,
            autoping=True,
            max_msg_size=64 * 2**20,
        )
        self._reader = asyncio.create_task(self._read())
        return await self.rerun({}, first=True)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5)
            except (TimeoutError, asyncio.CancelledError):
                self._reader.cancel()
        if self.http is not None:
            await self.http.close()

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed and self.closed_reason is None

    # ---------------------------------------------------------------- BackMsgs

    async def rerun(
        self, widgets: dict[str, str], *, fragment_id: str = "", first: bool = False,
        values: dict[str, Any] | None = None, auto: bool = False,
    ) -> RunResult:
        """Send a rerun_script with these widget states ({widget id: JSON text}, the value of
        a custom component: ``{"state name": value, ...}``; ``values``: {widget label: value}
        of Streamlit's own widgets as the last run drew them) and wait for the run's end."""
        async with self._lock:
            if not self.connected:
                raise SessionError(f"websocket closed ({self.closed_reason})")
            msg = BackMsg()
            cs = msg.rerun_script
            cs.query_string = self.query
            for k, v in CONTEXT.items():
                setattr(cs.context_info, k, v)
            cs.context_info.url = f"{self.base_url}/{self.page_name}"
            if first and self.page_name:
                cs.page_name = self.page_name
            if not first:
                cs.page_script_hash = self.page_script_hash
                cs.fragment_id = fragment_id
                cs.is_auto_rerun = auto  # a fragment's run_every, as the browser sends it
                cs.cached_message_hashes.extend(self._cache)
            for wid, value in widgets.items():
                w = cs.widget_states.widgets.add()
                w.id = wid
                w.json_value = value
            for label, value in (values or {}).items():
                wid, kind = self.widgets[label]
                w = cs.widget_states.widgets.add()
                w.id = wid
                field_name = WIDGET_VALUE[kind]
                if field_name.endswith("_array_value"):
                    getattr(w, field_name).data.extend(value)
                else:
                    setattr(w, field_name, value)
            loop = asyncio.get_running_loop()
            self._run_done = loop.create_future()
            self._run = RunResult(status=-1, ms=0.0)
            self._run_fragment = fragment_id
            t0 = time.perf_counter()
            await self.ws.send_bytes(msg.SerializeToString())
            try:
                run = await asyncio.wait_for(self._run_done, self.timeout)
            except TimeoutError:
                raise SessionError(f"no script_finished within {self.timeout:.0f} s") from None
            finally:
                self._run_done = None
            run.ms = 1000 * (time.perf_counter() - t0)
            return run

    async def heartbeat(self, timeout: float = 10.0) -> float:
        """app_heartbeat → heartbeat_ack round trip (ms): the session is alive in the runtime."""
        if not self.connected:
            raise SessionError(f"websocket closed ({self.closed_reason})")
        self._heartbeat = asyncio.get_running_loop().create_future()
        t0 = time.perf_counter()
        await self.ws.send_bytes(BackMsg(app_heartbeat=True).SerializeToString())
        try:
            await asyncio.wait_for(self._heartbeat, timeout)
        except TimeoutError:
            raise SessionError(f"no heartbeat_ack within {timeout:.0f} s") from None
        return 1000 * (time.perf_counter() - t0)

    # ---------------------------------------------------------------- ForwardMsgs

    async def _read(self) -> None:
        reason = "closed by the server"
        try:
            async for m in self.ws:
                if m.type == aiohttp.WSMsgType.BINARY:
                    self._on_message(ForwardMsg.FromString(m.data))
                elif m.type == aiohttp.WSMsgType.ERROR:
                    reason = f"websocket error: {self.ws.exception()}"
                    break
        except Exception as exc:  # a bug here must end the session visibly
            reason = f"{type(exc).__name__}: {exc}"
        self.closed_reason = reason if self.ws.close_code is None else (
            f"{reason} (code {self.ws.close_code})")  # fmt: skip
        for fut in (self._run_done, self._heartbeat):
            if fut is not None and not fut.done():
                fut.set_exception(SessionError(self.closed_reason))

    def _on_message(self, m: ForwardMsg) -> None:
        kind = m.WhichOneof("type")
        if kind == "delta":
            self._on_delta(m)
        elif kind == "ref_hash":
            c = self._cache.get(m.ref_hash)
            if c is None:
                self._error(f"cached ForwardMsg miss {m.ref_hash}")
                return
            c.run = self._runs
            if c.component is not None:
                self._component(c.component)
            if c.error:
                self._error(c.error)
        elif kind == "auto_rerun":  # st.fragment(run_every=…): the browser reruns it
            self.auto_reruns[m.auto_rerun.fragment_id] = m.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for fid in m.stop_auto_rerun.fragment_ids:
                self.auto_reruns.pop(fid, None)
        elif kind == "navigation" and m.navigation.page_script_hash:
            # st.navigation (app.py): the page this run opened; the next reruns name it
            self.page_script_hash = m.navigation.page_script_hash
        elif kind == "page_info_changed":  # the page set st.query_params: the address bar
            self.query = m.page_info_changed.query_string
        elif kind == "new_session":
            self.page_script_hash = m.new_session.page_script_hash
            self.max_age = m.new_session.config.max_cached_message_age or self.max_age
        elif kind == "script_finished":
            status = m.script_finished
            if status == EARLY_FOR_RERUN:
                return  # another run follows
            self._age_cache()
            if self._run is not None:
                self._run.status = status
                if self._run_done is not None and not self._run_done.done():
                    self._run_done.set_result(self._run)
                self._run = None
        elif kind == "heartbeat_ack":
            if self._heartbeat is not None and not self._heartbeat.done():
                self._heartbeat.set_result(True)

    def _on_delta(self, m: ForwardMsg) -> None:
        d = m.delta
        if d.WhichOneof("type") == "add_block":
            block = d.add_block
            if block.WhichOneof("type") == "expandable" and self._run is not None:
                self._run.texts.append(block.expandable.label)  # an expander's label
            return
        if d.WhichOneof("type") != "new_element":
            return
        el = d.new_element
        et = el.WhichOneof("type")
        if d.fragment_id:
            self.fragments.add(d.fragment_id)
        comp, err = None, None
        if et in WIDGET_VALUE:
            w = getattr(el, et)
            self.widgets[w.label] = (w.id, et)
            self.widget_fragment[w.label] = d.fragment_id
        if et in TEXT_FIELDS and self._run is not None:
            e = getattr(el, et)
            body = getattr(e, TEXT_FIELDS[et])
            self._run.texts.append(f"{e.label}: {body}" if et == "metric" else body)
        if et == "bidi_component":
            b = el.bidi_component
            comp = Component(b.id, b.component_name, d.fragment_id, b.json)
            self._component(comp)
        elif et == "exception":
            err = f"exception: {el.exception.type}: {el.exception.message[:200]}"
        elif et == "alert" and el.alert.format == el.alert.ERROR:
            err = f"st.error: {el.alert.body[:200]}"
        if err:
            self._error(err)
        if m.metadata.cacheable and m.hash:
            self._cache[m.hash] = _Cached(self._runs, d.fragment_id, comp, err)

    def _component(self, comp: Component) -> None:
        self.components[comp.name] = comp
        if self._run is not None:
            self._run.components[comp.name] = comp

    def _error(self, text: str) -> None:
        if self._run is not None:
            self._run.errors.append(text)

    def _age_cache(self) -> None:
        # the frontend's ForwardMsgCache.incrementRunCount: a fragment run ages only the
        # messages of its own fragment
        self._runs += 1
        frag = self._run_fragment
        for h, c in list(self._cache.items()):
            if frag and c.fragment_id != frag:
                continue
            if self._runs - c.run > self.max_age:
                del self._cache[h]
