// The click plot by keyboard (click_plot.js; WCAG 2.1.1): the plot takes focus; the arrow
// keys move a visible cursor (Shift: bigger steps), Enter or Space adds a point there, sent
// as the same value a click sends ({x, y, seq}), so the page's Python is the same for both.
// The keys act only while the plot itself has focus. The pure parts (the keys, the cursor's
// moves, the words) are tested in node; attachKeys wires them to the plot's element.

import { fmt } from "./format.js";

export const STEPS = 50; // arrow presses across the visible range (Shift: STEPS / 10)
export const KEYS_LABEL =
  "Plot that adds points. Keyboard: the arrow keys move the cursor (with Shift in bigger " +
  "steps); Enter or Space adds a point at the cursor.";
const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

export function plotKey(ev) {
  // {move: [dx, dy], big} | {add: true} | null (the key is left to the browser)
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return null;
  if (MOVES[ev.key]) return { move: MOVES[ev.key], big: !!ev.shiftKey };
  if (ev.key === "Enter" || ev.key === " ") return { add: true };
  return null;
}

const clamp = (v, [lo, hi]) => Math.min(Math.max(v, Math.min(lo, hi)), Math.max(lo, hi));

export function startCursor(xr, yr) {
  // the middle of the visible ranges
  return { x: (xr[0] + xr[1]) / 2, y: (yr[0] + yr[1]) / 2 };
}

export function moveCursor(cur, move, big, xr, yr) {
  // one arrow press: 1/STEPS of the visible range (Shift: ten times that), kept inside it
  const f = (big ? 10 : 1) / STEPS;
  const x = clamp(cur.x + move[0] * f * Math.abs(xr[1] - xr[0]), xr);
  const y = clamp(cur.y + move[1] * f * Math.abs(yr[1] - yr[0]), yr);
  return { x, y };
}

export function cursorWords(cur, names, added) {
  // the polite sentence after a key: where the cursor is, or the point just sent
  const at = `${names[0]} = ${fmt(cur.x, 3)}, ${names[1]} = ${fmt(cur.y, 3)}`;
  return added ? `Adding a point at ${at}.` : `Cursor at ${at}.`;
}

// ---------------------------------------------------------------------------- DOM

function axisName(ax, fallback) {
  const t = ax && ax.title && ax.title.text;
  return t ? String(t).replace(/<[^>]*>/g, "") : fallback;
}

function drawCursor(st) {
  // a cross at the cursor over the plot area (a div of its own: Plotly keeps its own layers)
  const L = st.plot._fullLayout;
  const drag = st.plot.querySelector(".nsewdrag");
  if (!st.cursor || !L || !L.xaxis || !drag) return;
  const el = st.keys.mark;
  if (!el.isConnected) st.plot.appendChild(el);
  const r = drag.getBoundingClientRect();
  const base = st.plot.getBoundingClientRect();
  el.style.left = `${r.left - base.left + L.xaxis.c2p(st.cursor.x) - 12}px`;
  el.style.top = `${r.top - base.top + L.yaxis.c2p(st.cursor.y) - 12}px`;
  el.hidden = false;
}

function makeMark() {
  const el = document.createElement("div");
  el.className = "svmlab-clickplot-cursor";
  el.hidden = true;
  el.setAttribute("aria-hidden", "true");
  el.style.cssText = "position:absolute;width:24px;height:24px;pointer-events:none;z-index:5;" +
    "background:linear-gradient(#000,#000) center/2px 100% no-repeat," +
    "linear-gradient(#000,#000) center/100% 2px no-repeat;" +
    "outline:2px solid #fff;border-radius:50%;box-shadow:0 0 0 4px #000"; // prettier-ignore
  return el;
}

export function attachKeys(st, send) {
  // st.plot takes focus and the keys; send(x, y) adds a point (a click's trigger value)
  const plot = st.plot;
  plot.tabIndex = 0;
  plot.setAttribute("role", "application");
  plot.setAttribute("aria-label", KEYS_LABEL);
  plot.dataset.keys = KEYS_LABEL; // chart_a11y.js puts the chart's name before it
  if (getComputedStyle(plot).position === "static") plot.style.position = "relative";
  const live = document.createElement("div");
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  live.style.cssText = "position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)";
  plot.insertAdjacentElement("afterend", live);
  st.keys = { mark: makeMark(), live };
  const ranges = () => {
    const L = plot._fullLayout;
    return L && L.xaxis && L.yaxis ? [L.xaxis.range, L.yaxis.range, L] : null;
  };
  const onKey = (ev) => {
    if (ev.target !== plot) return; // the toolbar's own buttons keep their keys
    const k = plotKey(ev);
    const R = k && ranges();
    if (!R) return;
    ev.preventDefault();
    const [xr, yr, L] = R;
    st.cursor = st.cursor ? moveCursor(st.cursor, [0, 0], false, xr, yr) : startCursor(xr, yr);
    if (k.move) st.cursor = moveCursor(st.cursor, k.move, k.big, xr, yr);
    else send(st.cursor.x, st.cursor.y);
    drawCursor(st);
    const names = [axisName(L.xaxis, "x"), axisName(L.yaxis, "y")];
    live.textContent = cursorWords(st.cursor, names, !!k.add);
  };
  const onFocus = () => {
    // the cross shows for a keyboard's focus, not for a mouse's click (its pointer is there)
    if (!plot.matches(":focus-visible")) return;
    const R = ranges();
    if (R && !st.cursor) st.cursor = startCursor(R[0], R[1]);
    drawCursor(st);
  };
  const onBlur = () => (st.keys.mark.hidden = true);
  plot.addEventListener("keydown", onKey);
  plot.addEventListener("focus", onFocus);
  plot.addEventListener("blur", onBlur);
  return () => {
    plot.removeEventListener("keydown", onKey);
    plot.removeEventListener("focus", onFocus);
    plot.removeEventListener("blur", onBlur);
    live.remove();
  };
}

export function redrawCursor(st) {
  // after a redraw (a new figure, a zoom): the cross follows the axes while the plot has focus
  const plot = st.plot;
  if (!st.keys.zoomBound && typeof plot.on === "function") {
    plot.on("plotly_relayout", () => redrawCursor(st));
    st.keys.zoomBound = true;
  }
  if (document.activeElement === plot && !st.keys.mark.hidden) drawCursor(st);
}
