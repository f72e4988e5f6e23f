// SVM Lab Step-through: the SMO step player (Streamlit Custom Components v2): the controls
// and the set-up (the run's state: step_player_state.js, the drawing: step_player_draw.js).
//
// One step must be redrawn in well under 100 ms, so stepping never goes to the server: the
// element gets ONE payload per recorded run (ui/step_through/player.py: player_payload), keeps it
// (window.__svmlabStepRuns, by run id) and updates α, u and g itself (step_player_state.js); a
// jump (slider, first/last, next bound change) replays α from the records and recomputes them.
//
// Data from Python (player_data): run, payload (only when this browser may lack the run),
// start, options {show_slack}, speeds, default_speed, report_ms, need_seen, plotly_url,
// config, export {decision, curves: {title, settings}} (the words of the saved images). The step is reported with window event "svmlab:step" {run, k} after it has stayed
// put for report_ms; step_sync.js (in the panels' fragment) sends it to the server. The
// server never sends the step back: "start" is read only when this element has no step of
// the run yet. A missing payload is asked for with setStateValue("need", {run, n}).
//
// For tests and benchmarks: each panel [data-panel] carries data-step once it shows that
// step; root.__state.view describes what was drawn; window.__svmlabStepPerf.drawn holds ms
// from a press (click or key) to the frame that paints the step.

import { mountState } from "./plotly_loader.js";
import { hidePlotlySvgs } from "./chart_a11y.js";
import { fmt, sub } from "./format.js";
import { withImageButtons } from "./plot_export.js";
import {
  barsHover, drawBars, drawBox, drawCurvesMarker, drawDecision,
} from "./step_player_draw.js";
import {
  goTo, nextEvent, pointState, prepareRun, recompute, stepRecord,
} from "./step_player_state.js";
import { announce, describe, keepFocus, setUpAccess } from "./step_access.js";

const STATES = new WeakMap();
const RUNS = (window.__svmlabStepRuns = window.__svmlabStepRuns || new Map());
const PERF = (window.__svmlabStepPerf = window.__svmlabStepPerf || { drawn: [], work: [] });
const MAX_RUNS = 3; // payloads kept in this browser tab

// ---------------------------------------------------------------------- controls

function summaryText(st) {
  const k = st.k;
  if (k === 0) return "The start: α = 0. Press Next (or the → key) to take a step.";
  const r = stepRecord(st.R, k);
  return (
    `pair (i, j) = (${r.i + 1}, ${r.j + 1}): α${sub(r.i + 1)} ${fmt(r.ai_old)} → ${fmt(r.ai_new)}, ` +
    `α${sub(r.j + 1)} ${fmt(r.aj_old)} → ${fmt(r.aj_new)}` +
    (r.clipped ? " (clipped to [L, H])" : "")
  );
}

function updateControls(st) {
  const R = st.R;
  const k = st.k;
  const T = R.T;
  const q = (sel) => st.root.querySelector(sel);
  q("[data-role=counter]").textContent = `${k.toLocaleString("en-US")} / ${T.toLocaleString("en-US")}`;
  const slider = q("[data-role=slider]");
  slider.max = String(T);
  if (Number(slider.value) !== k) slider.value = String(k);
  q("[data-act=first]").disabled = k === 0;
  q("[data-act=prev]").disabled = k === 0;
  q("[data-act=next]").disabled = k >= T;
  q("[data-act=last]").disabled = k >= T;
  q("[data-act=play]").disabled = T === 0;
  const playBtn = q("[data-act=play]");
  if (playBtn.dataset.state !== String(st.playing)) {
    playBtn.dataset.state = String(st.playing);
    playBtn.innerHTML = (st.playing ? st.icons.pause : st.icons.play) +
      `<span>${st.playing ? "Pause" : "Play"}</span>`; // prettier-ignore
  }
  q("[data-act=jump]").disabled = nextEvent(R, k) === null;
  q("[data-role=summary]").textContent = summaryText(st);
}

function drawAll(st) {
  if (!st.R) return;
  const t0 = performance.now();
  const P = pointState(st);
  st.view = { step: st.k };
  updateControls(st);
  const panels = st.panels;
  if (st.dec.ready && drawDecision(st, P)) panels.decision.dataset.step = String(st.k);
  drawBox(st);
  panels.box.dataset.step = String(st.k);
  drawBars(st);
  panels.alpha.dataset.step = String(st.k);
  if (st.cur.ready && drawCurvesMarker(st)) panels.curves.dataset.step = String(st.k);
  describe(st, P);
  st.root.dataset.step = String(st.k);
  st.root.dataset.run = st.R.id;
  st.draws += 1;
  st.root.dataset.draws = String(st.draws);
  PERF.work.push(performance.now() - t0);
  if (PERF.work.length > 2000) PERF.work.splice(0, 1000);
}

function markDrawn(t0) {
  if (t0 === null || t0 === undefined) return;
  // the next frame's callback runs once this step's drawing is done, just before the paint
  requestAnimationFrame(() => {
    PERF.drawn.push(performance.now() - t0);
    if (PERF.drawn.length > 2000) PERF.drawn.splice(0, 1000);
  });
}

function scheduleReport(st) {
  clearTimeout(st.reportTimer);
  st.reportTimer = setTimeout(() => {
    if (!st.R) return;
    window.dispatchEvent(new CustomEvent("svmlab:step", { detail: { run: st.R.id, k: st.k } }));
  }, st.reportMs);
}

function moveTo(st, k, t0) {
  if (!st.R) return;
  const before = st.k;
  goTo(st, k);
  if (st.k === before) return;
  drawAll(st);
  markDrawn(t0);
  const mem = RUNS.get(st.R.id);
  if (mem) mem.k = st.k;
  scheduleReport(st);
}

function act(st, name, t0) {
  if (!st.R) return;
  const R = st.R;
  if (name === "play") {
    if (st.playing) stop(st);
    else play(st);
    return;
  }
  stop(st);
  const k = st.k;
  const target = {
    first: 0,
    prev: k - 1,
    next: k + 1,
    last: R.T,
    jump: nextEvent(R, k),
  }[name];
  if (target === null || target === undefined) {
    if (name === "jump") setStatus(st, "No further α hitting 0 or C in the recorded run.");
    return;
  }
  setStatus(st, "");
  moveTo(st, target, t0);
}

function press(st, name) {
  // a button or a key: the step, then one sentence for a screen reader; focus stays in the
  // player even when the pressed button ends up disabled (Next at the last step)
  const had = document.activeElement;
  const before = st.k;
  const paused = name === "play" && st.playing;
  act(st, name, performance.now());
  keepFocus(st, had);
  if (st.R && (paused || (name !== "play" && st.k !== before))) announce(st, pointState(st));
}

function play(st) {
  if (!st.R || st.R.T === 0) return;
  if (st.k >= st.R.T) moveTo(st, 0, null);
  st.playing = true;
  st.playFrom = { k: st.k, t: performance.now() };
  updateControls(st);
  const tick = (now) => {
    if (!st.playing || !st.R) return;
    const due = st.playFrom.k + Math.floor(((now - st.playFrom.t) * st.speed) / 1000);
    const target = Math.min(due, st.R.T);
    if (target > st.k) moveTo(st, target, null);
    if (st.k >= st.R.T) {
      stop(st);
      return;
    }
    st.raf = requestAnimationFrame(tick);
  };
  st.raf = requestAnimationFrame(tick);
}

function stop(st) {
  if (!st.playing) return;
  st.playing = false;
  cancelAnimationFrame(st.raf);
  if (st.R) updateControls(st);
  scheduleReport(st);
}

function setStatus(st, text) {
  st.root.querySelector("[data-role=status]").textContent = text || "";
}

// ------------------------------------------------------------------ plotly frames

// a chart's PNG and SVG buttons (plot_export.js): the image holds the canvas layers drawn
// over and under the Plotly plot, and its settings line says which step it shows
function imageConfig(st, part, name, layers) {
  const opts = st.config.toImageButtonOptions || {};
  part.Plotly = st.Plotly;
  part.config = { toImageButtonOptions: Object.assign({}, opts, { filename: `${opts.filename || "svm_lab"}_${name}` }) };
  part.exportLayers = layers;
  part.export = () => {
    const e = (st.exportText && st.exportText[name]) || {};
    const step = st.R ? `step ${st.k.toLocaleString("en-US")} of ${st.R.T.toLocaleString("en-US")}` : "";
    return { title: e.title, settings: [e.settings, step].filter(Boolean).join(" · ") };
  };
  return withImageButtons(part, Object.assign({ responsive: true }, st.config));
}

function drawFrames(st) {
  // the static Plotly figures of this run: once per run (and on a new config)
  const R = st.R;
  const Plotly = st.Plotly;
  if (!Plotly || !R || st.framesOf === R.id) return;
  st.framesOf = R.id;
  const decConfig = imageConfig(st, st.dec, "decision", () => [
    { canvas: st.dec.under, above: false },
    { canvas: st.dec.over, above: true },
  ]);
  const curConfig = imageConfig(st, st.cur, "curves", () => [{ canvas: st.cur.over, above: true }]);
  const lay = (fig) => {
    const l = Object.assign({}, fig.layout, { autosize: true });
    delete l.width;
    return l;
  };
  st.dec.ready = false;
  st.cur.ready = false;
  // the scatter plot keeps x and y to scale: no taller than its width needs
  const fl = R.frame.layout;
  const mg = fl.margin || {};
  const xr = fl.xaxis.range;
  const yr = fl.yaxis.range;
  const plotW = Math.max(200, st.dec.plot.clientWidth - (mg.l || 60) - (mg.r || 10));
  const needH = (plotW * (yr[1] - yr[0])) / (xr[1] - xr[0]) + (mg.t || 20) + (mg.b || 55);
  const decH = Math.round(Math.max(320, Math.min(fl.height || 560, needH)));
  st.dec.plot.style.height = decH + "px";
  st.cur.plot.style.height = (R.curves.layout.height || 440) + "px";
  Promise.all([
    Plotly.react(st.dec.plot, R.frame.data, Object.assign(lay(R.frame), { height: decH }), decConfig),
    Plotly.react(st.cur.plot, R.curves.data, lay(R.curves), curConfig),
  ]).then(() => {
    if (st.framesOf !== R.id) return;
    // Plotly's svgs would read as unnamed images: the canvases drawn over them carry the
    // step's name and description (step_access.js)
    hidePlotlySvgs(st.dec.plot);
    hidePlotlySvgs(st.cur.plot);
    st.dec.ready = true;
    st.cur.ready = true;
    drawAll(st);
  });
}

// ------------------------------------------------------------------------ set-up

function createState(root, parentElement) {
  const q = (sel) => root.querySelector(sel);
  const st = {
    root,
    uid: Math.random().toString(36).slice(2, 8),
    R: null,
    k: 0,
    playing: false,
    speed: 2,
    reportMs: 250,
    options: {},
    config: {},
    draws: 0,
    view: {},
    needSent: 0,
    listeners: [],
    panels: {
      decision: q("[data-panel=decision]"),
      box: q("[data-panel=box]"),
      alpha: q("[data-panel=alpha]"),
      curves: q("[data-panel=curves]"),
    },
    dec: {
      plot: q("[data-panel=decision] .sp-plot"),
      under: q("[data-panel=decision] .sp-under"),
      over: q("[data-panel=decision] .sp-over"),
      ready: false,
    },
    box: { el: q(".sp-box"), cap: q("[data-role=box-caption]"), shown: null },
    bars: q(".sp-bars"),
    tip: q(".sp-tip"),
    cur: {
      plot: q("[data-panel=curves] .sp-plot"),
      over: q("[data-panel=curves] .sp-over"),
      ready: false,
    },
  };
  root.__state = st;
  const on = (target, type, fn, opts) => {
    target.addEventListener(type, fn, opts);
    st.listeners.push(() => target.removeEventListener(type, fn, opts));
  };
  root.querySelectorAll("button[data-act]").forEach((btn) =>
    on(btn, "click", () => press(st, btn.dataset.act))
  );
  const slider = q("[data-role=slider]");
  on(slider, "input", () => {
    stop(st);
    moveTo(st, Number(slider.value), performance.now());
  });
  const speed = q("[data-role=speed]");
  on(speed, "change", () => {
    st.speed = Number(speed.value);
    window.__svmlabStepSpeed = st.speed;
    if (st.playing) st.playFrom = { k: st.k, t: performance.now() };
  });
  // a finger on a Plotly panel scrolls the page: Plotly's drag layer would take the touch
  // (and block the scroll); its toolbar's + / − zoom, its Pan tool pans with one finger
  [st.dec.plot, st.cur.plot].forEach((gd) =>
    on(gd, "touchstart", (ev) => {
      const pan = gd._fullLayout && gd._fullLayout.dragmode === "pan";
      if (!pan && !(ev.target.closest && ev.target.closest(".modebar"))) ev.stopPropagation();
    }, { capture: true, passive: true }) // prettier-ignore
  );
  on(st.bars, "mousemove", (ev) => barsHover(st, ev));
  on(st.bars, "mouseleave", () => (st.tip.hidden = true));
  // the keys act only with focus inside the player (WCAG 2.1.4), so pressing a key
  // elsewhere on the page (a sidebar link, another widget) never steps or plays
  setUpAccess(st, on, (name) => press(st, name));
  // a listener mounted later asks for the step
  on(window, "svmlab:step-query", () => st.R && scheduleReport(st));
  const ro = new ResizeObserver(() => {
    if (st.R) drawAll(st);
  });
  ro.observe(root);
  st.listeners.push(() => ro.disconnect());
  st.destroy = () => {
    stop(st);
    clearTimeout(st.reportTimer);
    st.listeners.forEach((off) => off());
    if (st.Plotly) {
      st.Plotly.purge(st.dec.plot);
      st.Plotly.purge(st.cur.plot);
    }
    STATES.delete(parentElement);
  };
  return st;
}

function bindPlotEvents(st) {
  // zoom, pan, resize: the overlays follow the axes
  const redraw = () => st.R && drawAll(st);
  for (const gd of [st.dec.plot, st.cur.plot]) {
    gd.on("plotly_relayout", redraw);
    gd.on("plotly_relayouting", redraw);
  }
}

function adopt(st, data) {
  // a run from the payload or this tab's memory; null when neither has it
  const id = data.run;
  let mem = RUNS.get(id);
  if (!mem && data.payload) {
    try {
      mem = { R: prepareRun(data.payload), k: null };
    } catch (e) {
      setStatus(st, "Could not read the recorded run: " + e.message);
      return null;
    }
    RUNS.set(id, mem);
    while (RUNS.size > MAX_RUNS) RUNS.delete(RUNS.keys().next().value);
  }
  return mem || null;
}

function update(st, data, setStateValue) {
  st.reportMs = data.report_ms || 250;
  st.icons = data.icons || st.icons || { play: "", pause: "" };
  st.config = data.config || {};
  st.exportText = data.export || {};
  const optText = JSON.stringify(data.options || {});
  const optChanged = optText !== st.optText;
  st.optText = optText;
  st.options = data.options || {};
  const sel = st.root.querySelector("[data-role=speed]");
  if (!sel.options.length) {
    (data.speeds || [1, 2, 4]).forEach((v) => {
      const o = document.createElement("option");
      o.value = String(v);
      o.textContent = `${v} step${v === 1 ? "" : "s"}/s`;
      sel.appendChild(o);
    });
    st.speed = window.__svmlabStepSpeed || data.default_speed || 2;
    sel.value = String(st.speed);
  }
  if (st.R && st.R.id === data.run) {
    if (optChanged) drawAll(st);
    return;
  }
  const mem = adopt(st, data);
  if (!mem) {
    // this tab lost the run (or never had it): ask the server to send it
    if (st.needSent <= (data.need_seen || 0)) {
      st.needSent = Math.max(st.needSent, data.need_seen || 0) + 1;
      setStateValue("need", { run: data.run, n: st.needSent });
    }
    setStatus(st, "Loading the recorded run …");
    return;
  }
  stop(st);
  st.R = mem.R;
  st.root.querySelector("[data-role=decision-caption]").textContent = st.R.text.decision_key;
  const k0 = mem.k !== null ? mem.k : Math.max(0, Math.min(st.R.T, data.start || 0));
  recompute(st, k0);
  mem.k = st.k;
  setStatus(st, "");
  st.box.shown = null;
  drawAll(st);
  st.ready.then(() => drawFrames(st));
  if (mem.k !== (data.start || 0)) scheduleReport(st);
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const st = mountState(parentElement, ".svmlab-player", STATES, createState, data,
    (st, P) => {
      P.newPlot(st.dec.plot, [], {}, { responsive: true });
      P.newPlot(st.cur.plot, [], {}, { responsive: true });
      bindPlotEvents(st);
      drawFrames(st);
    },
    (st, err) => setStatus(st, "The plot library could not be loaded: " + err.message)
  );
  if (!st) return undefined;
  if (data) update(st, data, setStateValue);
  return () => {
    if (!parentElement.isConnected) st.destroy();
  };
}
