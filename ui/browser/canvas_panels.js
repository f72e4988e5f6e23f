// SVM Lab click canvas: the numbers panel and the points table, drawn from the answer
// (ui/shared/tables.py formats the numbers on the server; the coordinates here). The HTML
// builders need no DOM.

import { describeBox, hidePlotlySvgs } from "./chart_a11y.js";
import { describeAnswer } from "./describe.js";
import { escapeHtml, fixed, MINUS, short } from "./format.js";

function sentence(text) {
  // the engine's status ("not converged: …, try …") as a sentence of its own
  const t = String(text || "");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

const EDITED = "(edited)"; // ui/shared/state.py set_points: the same mark

export function shownTitle(title, edited) {
  // the points' title once the student edited them here: "(edited)" from the first edit on,
  // as the session's title says once it has the points (ui/shared/state.py set_points)
  const t = String(title || "");
  return edited && !t.endsWith(EDITED) ? (t ? `${t} ${EDITED}` : EDITED) : t;
}

export function numbersHtml({ hidden, title, points, ans }) {
  // the panel beside the plot: the title, the class counts, then the answer's message or
  // its numbers (ans.panel: [label, text] rows, formatted by the server)
  if (hidden) return '<div class="svmlab-muted">Hidden by your teacher: predict first.</div>';
  const npos = points.filter((p) => p[2] > 0).length;
  const parts = [
    `<div class="svmlab-title">${escapeHtml(title)}</div>`,
    `<div class="svmlab-count">${points.length} points (${npos} of class +1, ` +
      `${points.length - npos} of class −1)</div>`,
  ];
  // no role="alert" on its messages: the panel is redrawn after every edit, and an alert
  // would be said again each time; the live region's sentence names them (canvas_say.js)
  if (ans && !ans.ok) {
    const cls = ans.kind === "need_two_classes" ? "info" : "error";
    const lead = ans.kind === "not_separable" ? "Not separable: " : "";
    parts.push(`<div class="svmlab-msg ${cls}">${escapeHtml(lead + ans.message)}</div>`);
  } else if (ans) {
    if (ans.message) {
      parts.push(
        `<div class="svmlab-msg warning">${escapeHtml(sentence(ans.message))}</div>`
      );
    }
    const rows = ans.panel.map(
      ([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`
    );
    parts.push(`<table class="svmlab-summary"><tbody>${rows.join("")}</tbody></table>`);
  }
  return parts.join("");
}

function delta(yh, wNorm) {
  // δ = y·h(x)/‖w‖, the signed distance to the hyperplane (slide 6); empty without ‖w‖
  return wNorm > 0 ? fixed(yh / wNorm, 3) : "";
}

export function tableHtml(points, ans, highlight) {
  // the points table: a row per point, its model columns from the answer `ans` (null: empty);
  // the rows in `highlight` (0-based) selected
  // (an answer without α: the teacher hid the numbers or the table, and the server left
  // the model columns out)
  const cols = !!(ans && ans.alpha);
  const sel = new Set(highlight);
  const head =
    "<thead><tr><th>i</th><th>x1</th><th>x2</th><th>y</th><th>α</th><th>h(x)</th>" +
    "<th>y·h(x)</th><th>δ = y·h(x)/‖w‖</th><th>ξ</th><th>category</th></tr></thead>";
  const rows = points.map((p, i) => {
    const model = cols
      ? `<td>${fixed(ans.alpha[i], 4)}</td><td>${fixed(ans.h[i], 3)}</td>` +
        `<td>${fixed(p[2] * ans.h[i], 3)}</td><td>${delta(p[2] * ans.h[i], ans.w_norm)}</td>` +
        `<td>${fixed(ans.xi[i], 3)}</td>` +
        `<td>${escapeHtml(ans.category[i])}</td>`
      : "<td></td><td></td><td></td><td></td><td></td><td></td>";
    const on = sel.has(i) ? ' class="selected" aria-selected="true"' : "";
    return (
      `<tr data-row="${i}"${on}><td>x${i + 1}</td><td>${short(p[0])}</td>` +
      `<td>${short(p[1])}</td><td>${p[2] > 0 ? "+1" : MINUS + "1"}</td>${model}</tr>`
    );
  });
  return head + `<tbody>${rows.join("")}</tbody>`;
}

export function renderNumbers(st) {
  const el = st.numbersEl;
  if (!el) return;
  const R = st.refit;
  el.innerHTML = numbersHtml({ hidden: st.hide.has("numbers"), title: st.title,
    points: R ? R.points : st.points, ans: R && R.ans }); // prettier-ignore
  describePlot(st);
}

export function describePlot(st) {
  // the plot's accessible name and description, from the answer the numbers panel shows
  // (st.a11y: {name, kernel, table, where} from the page, ui/playground/panels.py)
  const R = st.refit;
  const a = st.a11y || {};
  const hidden = st.hide.has("numbers");
  const description = describeAnswer({ points: R ? R.points : st.points,
    ans: R && !hidden ? R.ans : null, kernel: a.kernel, table: hidden ? "" : a.table,
    where: a.where }); // prettier-ignore
  describeBox(st.wrap, { name: a.name || st.title, description });
  if (st.plot) hidePlotlySvgs(st.plot);
}

const LONG_TABLE_ROWS = 40; // a longer table scrolls inside its box (canvas.css)

export function tableNote(n) {
  // the summary's words after "Points table"
  const rows = n > LONG_TABLE_ROWS ? ` · ${n} rows: scroll inside the table` : "";
  return `(click rows, or Enter on one, to ring their points${rows})`;
}

export function renderTable(st) {
  // the model columns only when the answer is for as many points as the table shows
  const el = st.tableEl;
  if (!el) return;
  const R = st.refit;
  const a = R && R.ans && R.ans.ok && R.points.length === st.points.length ? R.ans : null;
  const focused = focusedRow(el);
  el.innerHTML = tableHtml(st.points, a, st.highlight);
  if (el.querySelectorAll) rowStops(st, focused);
  const wrap = el.parentElement;
  const note = wrap && wrap.parentElement && wrap.parentElement.querySelector("summary .svmlab-muted");
  if (wrap && wrap.classList) wrap.classList.toggle("svmlab-long", st.points.length > LONG_TABLE_ROWS);
  if (note) note.textContent = tableNote(st.points.length);
}

function focusedRow(el) {
  // the table row the keyboard is on, if any: a re-render puts the focus back on it
  const a = typeof document === "undefined" ? null : document.activeElement;
  return a && el.contains && el.contains(a) && a.dataset && a.dataset.row != null
    ? Number(a.dataset.row)
    : null;
}

function rowStops(st, focused) {
  // one tab stop in the table, its current row (st.tableRow); canvas_keyboard.js moves it
  const rows = st.tableEl.querySelectorAll("tr[data-row]");
  if (!rows.length) return;
  const cur = Math.min(Math.max(0, focused ?? st.tableRow ?? 0), rows.length - 1);
  st.tableRow = cur;
  rows.forEach((tr, i) => (tr.tabIndex = i === cur ? 0 : -1));
  if (focused != null) rows[cur].focus();
}
