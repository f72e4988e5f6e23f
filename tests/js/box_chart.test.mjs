// box_chart.js: one SMO step in its box outside the player (the record Python sends), and
// plot_export.js framedSVG: the saved image of a picture drawn as SVG text.
import assert from "node:assert/strict";
import { test } from "node:test";

import { boxRecord } from "../../ui/browser/box_chart.js";
import { framedSVG } from "../../ui/browser/plot_export.js";
import { boxSVG } from "../../ui/browser/step_box.js";

// the two-point example's step as ui/step_through/box_chart.py sends it: C = H = ∞ as null
const SENT = { it: 1, i: 0, j: 1, yi: 1, yj: -1, C: null, ai_old: 0, aj_old: 0, ai_new: 1,
  aj_new: 1, ai_unclipped: 1, aj_unclipped: 1, L: 0, H: null, clipped: false }; // prettier-ignore

test("boxRecord: null (JSON's ∞) is C = ∞ and H = ∞; the rest as sent", () => {
  const rec = boxRecord(SENT);
  assert.equal(rec.C, Infinity);
  assert.equal(rec.H, Infinity);
  assert.equal(rec.L, 0);
  assert.equal(SENT.C, null); // the data is left as it came
  const finite = boxRecord({ ...SENT, C: 2, H: 2 });
  assert.deepEqual([finite.C, finite.H], [2, 2]);
  const [svg] = boxSVG(rec, 500, 420, "w");
  assert.ok(svg.includes("no upper bound on α: the box is open") && !svg.includes("NaN"));
});

test("framedSVG: the picture under a band with the title and the settings, escaped", () => {
  const [svg] = boxSVG(boxRecord(SENT), 500, 420, "f");
  const words = { title: "7. Two points <by hand>", line: "Two points · n = 2 · C = ∞" };
  const [out, H] = framedSVG(svg, 500, 420, words);
  assert.equal(H, 420 + 64);
  assert.ok(out.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="500" height="484"'));
  assert.ok(out.includes("7. Two points &#60;by hand&#62;</text>"));
  assert.ok(out.includes(">Two points · n = 2 · C = ∞</text>"));
  assert.ok(out.includes('<g transform="translate(0 64)"><svg'));
  // a long title takes more lines, and the band grows with them
  const [, taller] = framedSVG(svg, 300, 420, { title: "word ".repeat(30), line: "" });
  assert.ok(taller > 484);
});
