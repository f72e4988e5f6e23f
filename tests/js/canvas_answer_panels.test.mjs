// The click canvas's parts that need no DOM: the fit endpoint's answer read
// (canvas_answer.js), the numbers panel and the points table (canvas_panels.js), the plot's
// pixels ↔ data (canvas_geometry.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { decodeGrid, figureOf, pointsOnly } from "../../ui/browser/canvas_answer.js";
import { hitTest, inside, roundTo, toData, toPixel } from "../../ui/browser/canvas_geometry.js";
import {
  numbersHtml, renderNumbers, renderTable, shownTitle, tableHtml, tableNote,
} from "../../ui/browser/canvas_panels.js";

const b64 = (a) => Buffer.from(a.buffer).toString("base64");

test("decodeGrid: the axes from [start, stop, count], h from little-endian float32", () => {
  const h = Float32Array.from([0.5, -1, 2, 3.25, 0, -0.125]);
  const g = decodeGrid({ x: [0, 1, 3], y: [-2, 2, 2], h: b64(h) });
  assert.deepEqual(g.xs, [0, 0.5, 1]);
  assert.deepEqual(g.ys, [-2, 2]);
  assert.deepEqual([...g.h], [...h]);
});

test("figureOf puts the answer's grid into the traces that refer to it", () => {
  const R = { xs: [0, 1, 2], ys: [5, 6], h: Float32Array.from([1, 2, 3, 4, 5, 6]) };
  const fig = { data: [
    { type: "heatmap", meta: { role: "regions", z_from: "grid" } },
    { type: "contour", meta: { role: "boundary", z_from: "regions" } },
    { type: "scatter", meta: { role: "points", label: 1 }, x: [9], y: [9] },
  ], layout: {} }; // prettier-ignore
  const out = figureOf({ figure: fig }, R);
  for (const t of out.data.slice(0, 2)) {
    assert.deepEqual([t.x, t.y, t.z.map((r) => [...r])], [R.xs, R.ys, [[1, 2, 3], [4, 5, 6]]]);
  }
  assert.deepEqual([out.data[2].x, out.data[2].z], [[9], undefined]);
  assert.deepEqual(pointsOnly(out).data, [out.data[2]]);
  assert.equal(pointsOnly(null), null);
});

const answer = {
  ok: true, message: "", panel: [["margin", "0.5"], ["<b>w</b>", "1 & 2"]],
  alpha: [0.5, 0, 0.25], h: [1, -1.0004, -0.00001], xi: [0, 0, 1], category: ["SV", "", "<i>"],
  w_norm: 2,
}; // prettier-ignore
const points = [[1, 2, 1], [-0.5, 3.14159, -1], [2, 0, 1]];

test("the numbers panel: counts, the answer's rows, its message, all escaped", () => {
  const html = numbersHtml({ hidden: false, title: "Book <D1>", points, ans: answer });
  assert.ok(html.includes('<div class="svmlab-title">Book &#60;D1&#62;</div>'));
  assert.ok(html.includes("3 points (2 of class +1, 1 of class −1)"));
  assert.ok(html.includes('<th scope="row">&#60;b&#62;w&#60;/b&#62;</th><td>1 &#38; 2</td>'));
  assert.ok(!html.includes("svmlab-msg"));
  const warned = numbersHtml({ hidden: false, title: "", points, ans: { ...answer, message: "not converged: try more" } });
  assert.ok(warned.includes('class="svmlab-msg warning"') && warned.includes("Not converged: try more"));
  const failed = numbersHtml({ hidden: false, title: "", points, ans: { ok: false, kind: "not_separable", message: "no" } });
  assert.ok(failed.includes('class="svmlab-msg error"') && failed.includes("Not separable: no"));
  const one = numbersHtml({ hidden: false, title: "", points, ans: { ok: false, kind: "need_two_classes", message: "x" } });
  assert.ok(one.includes('class="svmlab-msg info"'));
  assert.ok(!numbersHtml({ hidden: false, title: "t", points: [], ans: null }).includes("<table"));
  const hidden = numbersHtml({ hidden: true, title: "t", points, ans: answer });
  assert.ok(hidden.includes("Hidden by your teacher") && !hidden.includes("points ("));
});

test("the points table: a row per point, the model's columns, the selected rows", () => {
  const html = tableHtml(points, answer, [1]);
  assert.equal(html.match(/<tr data-row=/g).length, 3);
  assert.ok(html.includes('<tr data-row="1" class="selected" aria-selected="true"><td>x2</td>'));
  assert.ok(html.includes("<td>−0.5</td><td>3.142</td><td>−1</td><td>0.0000</td><td>−1.000</td><td>1.000</td><td>0.500</td>"));
  assert.ok(html.includes("<td>0.000</td><td>0.000</td><td>0.000</td><td>1.000</td><td>&#60;i&#62;</td>")); // h = −0.00001
  assert.ok(html.includes("<th>δ = y·h(x)/‖w‖</th>")); // δ = y·h/‖w‖ = 1.000/2
  assert.ok(!tableHtml(points, { ...answer, w_norm: 0 }, []).includes("<td>0.500</td>"));
  const empty = tableHtml(points, null, []);
  assert.ok(!empty.includes("selected") && empty.includes("<td>+1</td><td></td><td></td>"));
});

test("the points table of an answer without α (a teacher hid it): the points, no model", () => {
  // the server leaves α, h, ξ and the categories out of a hidden-numbers session's answers
  const { alpha, h, xi, category, panel, w_norm, ...rest } = answer; // eslint-disable-line no-unused-vars
  const html = tableHtml(points, rest, []);
  assert.equal(html, tableHtml(points, null, []));
});

test("renderNumbers / renderTable show the answer only when it is for these points", () => {
  const st = { numbersEl: {}, tableEl: {}, hide: new Set(), title: "T", points, highlight: [],
    refit: { points: points.slice(0, 2), ans: answer } }; // prettier-ignore
  renderNumbers(st);
  assert.ok(st.numbersEl.innerHTML.includes("2 points")); // the answer's own points
  renderTable(st);
  assert.ok(!st.tableEl.innerHTML.includes("SV")); // 3 rows, an answer for 2: no model
  st.refit.points = points;
  renderTable(st);
  assert.ok(st.tableEl.innerHTML.includes("<td>SV</td>"));
});

test("pixels ↔ data in the plot area; a press hits the nearest point within reach", () => {
  const area = { rect: { left: 100, top: 50, width: 400, height: 200 }, xr: [0, 4], yr: [-1, 1] };
  assert.deepEqual(toPixel(area, 0, 1), [100, 50]);
  assert.deepEqual(toPixel(area, 4, -1), [500, 250]);
  assert.deepEqual(toData(area, 300, 150), [2, 0]);
  const [x, y] = toData(area, 123, 77);
  toPixel(area, x, y).forEach((v, k) => assert.ok(Math.abs(v - [123, 77][k]) < 1e-9));
  assert.ok(inside(area, 100, 250) && !inside(area, 99, 100) && !inside(area, 200, 251));
  const st = { points: [[1, 0, 1], [1.05, 0, -1], [3, 0.5, 1]] }; // pixels (200, 150), (205, 150), (400, 100)
  assert.equal(hitTest(st, area, 204, 151), 1);
  assert.equal(hitTest(st, area, 199, 150), 0);
  assert.equal(hitTest(st, area, 400, 112), -1); // 12 px away: beyond the 11 px of a click
  assert.equal(hitTest(st, area, 400, 112, 18), 2); // within a finger's 18 px
});

test("roundTo keeps 3 significant digits of the view's span", () => {
  assert.equal(roundTo(1.23456, 10), 1.23);
  assert.equal(roundTo(1.23456, 1), 1.235);
  assert.equal(roundTo(-123.456, 1000), -123);
  assert.equal(roundTo(0.000123456, 0.001), 0.000123);
});

test("shownTitle: '(edited)' once from the first edit on, as the session's title", () => {
  assert.equal(shownTitle("Book D1: separable (slide 15)", false), "Book D1: separable (slide 15)");
  assert.equal(shownTitle("Book D1: separable (slide 15)", true),
    "Book D1: separable (slide 15) (edited)"); // prettier-ignore
  assert.equal(shownTitle("My points (edited)", true), "My points (edited)"); // once
  assert.equal(shownTitle("My points (edited)", false), "My points (edited)"); // the session's
  assert.equal(shownTitle("", true), "(edited)");
});

test("tableNote: a long table says that it scrolls inside; a short one shows every row", () => {
  assert.equal(tableNote(18), "(click rows, or Enter on one, to ring their points)");
  assert.equal(tableNote(40), "(click rows, or Enter on one, to ring their points)");
  assert.equal(tableNote(41), "(click rows, or Enter on one, to ring their points · 41 rows: scroll inside the table)");
});
