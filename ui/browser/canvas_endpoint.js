// SVM Lab click canvas: the fit endpoint (ui/serving/fit_api.py; its request and answer are
// ui/serving/fit_schema.py's, tests/test_fit_schema.py checks what is read here). Each edit
// is POSTed (one request in flight, the latest edit wins, a slow one aborted); each answer,
// or the page's own in the payload, is painted at once (layer, overlay, numbers, table) and
// its full figure scheduled. A failed request is answered here, without a model.

import { decodeGrid, figureOf, pointsOnly } from "./canvas_answer.js";
import { scheduleFull } from "./canvas_full.js";
import { plotArea } from "./canvas_geometry.js";
import { drawRefit } from "./canvas_layer.js";
import { showOverlay } from "./canvas_overlay.js";
import { renderNumbers, renderTable } from "./canvas_panels.js";
import { editSentence } from "./canvas_say.js";
import { nextFrame, PERF, say, setStatus, updateAttrs } from "./canvas_status.js";
import { BOOT_HEADER, restarted, useEndpoint } from "./canvas_sync.js";

const ABORT_AFTER_MS = 300; // a newer edit aborts a refit running longer (its worker is killed)

export function requestRefit(st) {
  if (st.inFlight) {
    st.again = true; // latest wins: asked for the newest points when this one answers
    if (performance.now() - st.inFlightT0 > ABORT_AFTER_MS) st.abort.abort(); // or ends
    return;
  }
  const area = plotArea(st);
  const req = {
    seq: st.seq,
    epoch: st.epoch,
    key: st.settingsKey,
    points: st.points.map((p) => p.slice()),
    view: st.drawn && area ? { x: area.xr.slice(), y: area.yr.slice() } : null,
  };
  const start = st.startView || st.home;
  if (!req.view && start) req.view = { x: start[0].slice(), y: start[1].slice() };
  const body = { points: req.points, settings: st.settings, seq: req.seq };
  if (Object.keys(st.style).length) body.style = st.style;
  if (req.view) body.view = req.view;
  if (st.home) body.home = { x: st.home[0], y: st.home[1] };
  const w = st.warm;
  // (no α when a teacher hid the numbers or the table: the server left it out; a cold start)
  if (w && w.alpha && w.key === req.key && w.epoch === req.epoch) {
    body.warm = { points: w.points, alpha: w.alpha };
  }
  st.inFlight = true;
  st.again = false;
  const t = performance.now();
  st.inFlightT0 = t;
  st.abort = new AbortController();
  fetch(st.fitUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
    cache: "no-store",
    signal: st.abort.signal,
  })
    .then((r) => r.text().then((text) => [r.status, text, r.headers.get(BOOT_HEADER)]))
    .then(([status, text, boot]) => {
      PERF.endpointMs.push(performance.now() - t);
      if (restarted(st, boot)) return;
      st.endpoint = status === 200;
      if (status === 200) {
        onAnswer(st, JSON.parse(text), req, "endpoint");
        return;
      }
      let msg = text;
      try {
        msg = JSON.parse(text).error;
      } catch (e) {
        /* not JSON: keep the text */
      }
      failed(st, req, `HTTP ${status}`, msg);
    })
    .catch((err) => {
      if (err.name === "AbortError") return; // a newer edit's request follows
      st.endpoint = false;
      failed(st, req, "no connection", err);
    })
    .finally(() => {
      st.inFlight = false;
      updateAttrs(st);
      if (st.again && useEndpoint(st)) requestRefit(st);
      st.again = false;
    });
}

function failed(st, req, why, detail) {
  // no answer from the server (it failed, or is gone): the edit's answer is "no model", said
  // as such; the next edit asks again
  console.warn("SVM Lab refit endpoint:", why, detail);
  const message = `The server did not answer (${why}). Edit again to retry.`;
  onAnswer(st, { ok: false, kind: "failed", message, server_ms: 0 }, req, "endpoint");
}

export function onAnswer(st, ans, req, source) {
  // an answer (the endpoint's, or the page's in the payload: ui/serving/fit_schema.py
  // FitAnswer) for the points req.points
  if (req.epoch !== st.epoch) return; // Python replaced the points meanwhile
  PERF.serverMs.push(ans.server_ms);
  if (ans.ok) {
    st.warm = { points: req.points, alpha: ans.alpha, key: req.key, epoch: req.epoch };
    PERF.fits.push(ans.fit);
  }
  if (req.key !== st.settingsKey) return; // the settings changed: a new request follows
  if (st.refit && req.seq < st.refit.seq) return; // an older edit's answer came late
  const t = performance.now();
  st.refit = Object.assign({ ans, seq: req.seq, points: req.points, view: req.view },
    ans.ok ? decodeGrid(ans.grid) : { h: null, xs: [], ys: [] }); // prettier-ignore
  st.refitOn = true;
  st.fig = ans.figure ? figureOf(ans, st.refit) : pointsOnly(st.fig);
  st.figSeq = req.seq;
  drawRefit(st);
  showOverlay(st, null);
  renderNumbers(st);
  renderTable(st);
  PERF.overlayMs.push(performance.now() - t);
  if (req.seq === st.seq) {
    if (ans.ok) setStatus(st, ans.message ? "Not converged: see the numbers." : "");
    else if (ans.kind === "need_two_classes") setStatus(st, "Add points of both classes to train.");
    else setStatus(st, "No model: " + String(ans.message).slice(0, 160), true, !!st.told);
  }
  if (st.told && req.seq >= st.told.seq) {
    // the latest edit's answer: one sentence says what it changed (not the whole panel)
    const shown = st.hide.has("numbers") ? null : ans; // what the teacher hides is not said
    say(st, editSentence(st.told, shown, req.points));
    st.told = null;
  }
  donePending(st, req.seq, source);
  updateAttrs(st);
  scheduleFull(st);
}

function donePending(st, seq, source) {
  // the clicks up to edit seq have their refit on screen from the next frame on
  const done = [];
  st.pending.forEach((t0, s) => {
    if (s <= seq) done.push([s, t0]);
  });
  if (!done.length) return;
  done.forEach(([s]) => st.pending.delete(s));
  nextFrame().then((t) =>
    done.forEach(([, t0]) => {
      PERF.refitDrawn.push(t - t0);
      PERF.refitSource.push(source);
    })
  );
}

export function refreshView(st) {
  // after a zoom/pan the layer's grid may not cover the view, or be too coarse: ask again
  const R = st.refit;
  const area = plotArea(st);
  if (!R || !R.ans.ok || !area || !useEndpoint(st)) return;
  const gx = R.xs[R.xs.length - 1] - R.xs[0];
  const gy = R.ys[R.ys.length - 1] - R.ys[0];
  const [x0, x1] = area.xr;
  const [y0, y1] = area.yr;
  const covered = x0 >= R.xs[0] && x1 <= R.xs[R.xs.length - 1] && y0 >= R.ys[0] &&
    y1 <= R.ys[R.ys.length - 1]; // prettier-ignore
  if (!covered || x1 - x0 < 0.5 * gx || y1 - y0 < 0.5 * gy) requestRefit(st);
}
