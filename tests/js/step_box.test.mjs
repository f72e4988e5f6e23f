// step_box.js: the (αᵢ, αⱼ) box as SVG text, the one drawing of it (the step player's, and
// the Worked examples' through box_chart.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { boxGeometry, boxSVG, boxView } from "../../ui/browser/step_box.js";

function record(over) {
  // a step of the pair (i, j) = (2, 5) (0-based) of opposite classes, C = 1
  const rec = { it: 42, i: 2, j: 5, yi: 1, yj: -1, C: 1, ai_old: 0.2, aj_old: 0.3, ai_new: 0.5,
    aj_new: 0.6, aj_unclipped: 0.6, L: 0, H: 0.9, clipped: false, ...over }; // prettier-ignore
  rec.ai_unclipped = rec.ai_old + rec.yi * rec.yj * (rec.aj_old - rec.aj_unclipped);
  return rec;
}

test("boxView: the box [0, C]² with a margin, widened for an unclipped point nearby", () => {
  const [lo, hi, visible] = boxView(record());
  assert.ok(Math.abs(lo + 0.12) < 1e-12 && Math.abs(hi - 1.12) < 1e-12 && visible);
  // unclipped αⱼ = 1.3 (αᵢ = 1.2): in view, the view grows to hold it
  const near = boxView(record({ aj_unclipped: 1.3, ai_new: 1, aj_new: 0.9, clipped: true }));
  assert.ok(near[2] && Math.abs(near[1] - 1.38) < 1e-12 && Math.abs(near[0] + 0.12) < 1e-12);
  // far off (αⱼ = 10 > 3C): not shown, the view stays the box's
  const far = boxView(record({ aj_unclipped: 10, clipped: true }));
  assert.equal(far[2], false);
  assert.ok(Math.abs(far[0] + 0.12) < 1e-12 && Math.abs(far[1] - 1.12) < 1e-12);
});

test("boxView with C = ∞: the view scales with the largest α", () => {
  const [lo, hi, visible] = boxView(record({ C: Infinity, ai_new: 4, aj_new: 4.1, aj_unclipped: 4.1, H: Infinity }));
  assert.ok(visible);
  assert.ok(Math.abs(hi - 1.3 * 4.1) < 1e-12 && Math.abs(lo + 0.12 * 4.1) < 1e-12);
});

test("boxSVG draws the step and describes it", () => {
  const [svg, view] = boxSVG(record(), 600, 520, "u1");
  assert.ok(svg.startsWith("<svg") && svg.endsWith("</svg>"));
  assert.equal(svg.match(/<svg/g).length, 1);
  assert.ok(svg.includes('id="clipu1"') && svg.includes("url(#arru1)"));
  assert.ok(svg.includes("Step 42: the pair ("));
  assert.ok(svg.includes("new = unclipped") && !svg.includes("off the chart"));
  assert.ok(svg.includes("box [0, 1]²"));
  assert.deepEqual(view.pair, [3, 6]); // 1-based, as the page shows them
  assert.deepEqual([view.old, view.new, view.clipped], [[0.2, 0.3], [0.5, 0.6], false]);
  assert.ok(view.unclippedVisible);
});

test("boxSVG: an unclipped point off the chart gets a note; C = ∞ an open box", () => {
  const [svg, view] = boxSVG(record({ aj_unclipped: 10, aj_new: 0.9, ai_new: 0.8, clipped: true }), 600, 520, "a");
  assert.ok(!view.unclippedVisible && view.clipped);
  assert.ok(svg.includes("unclipped α₆ = 10 (off the chart)") && svg.includes("new (clipped)"));
  const [open] = boxSVG(record({ C: Infinity, H: Infinity }), 600, 520, "b");
  assert.ok(open.includes("no upper bound on α: the box is open") && !open.includes(">C</text>"));
});

function texts(svg) {
  // every <text>: its x, its anchor and its words
  return [...svg.matchAll(/<text x="([-\d.e]+)"([^>]*)>([^<]*)</g)].map((m) => ({
    x: Number(m[1]),
    anchor: (m[2].match(/text-anchor="(\w+)"/) || [null, "start"])[1],
    text: m[3],
  }));
}

test("boxSVG: a new point clipped to H is labelled once, not under a second 'H'", () => {
  // αⱼ pushed past H = 0.9: the new point sits on H
  const [svg] = boxSVG(record({ aj_unclipped: 1.2, aj_new: 0.9, ai_new: 0.8, clipped: true }), 600, 520, "c");
  const t = texts(svg).map((e) => e.text);
  assert.ok(t.includes("new (clipped) at H"), t);
  assert.ok(!t.includes("H"), t); // the end is named in the new point's label
  assert.ok(t.includes("L"));
});

test("boxSVG: no label runs past the picture's edges", () => {
  // a narrow player (300 px: "new = unclipped" ran past the right edge) and a wider one
  const cases = [{}, { aj_unclipped: 1.2, aj_new: 0.9, ai_new: 0.8, clipped: true },
    { ai_old: 0.95, aj_old: 0.05, ai_new: 0.9, aj_new: 0, aj_unclipped: -0.2, L: 0, H: 0.1, clipped: true }]; // prettier-ignore
  for (const W of [300, 420]) {
    for (const over of cases) {
      const [svg] = boxSVG(record(over), W, 420, "d");
      for (const e of texts(svg)) {
        if (!/^(new|old|unclipped|L|H)\b/.test(e.text)) continue;
        const w = 0.5 * 18 * e.text.length;
        const [a, b] = e.anchor === "end" ? [e.x - w, e.x] : [e.x, e.x + w];
        assert.ok(a >= 0 && b <= W, `${e.text}: ${a}..${b} in 0..${W}`);
      }
    }
  }
});

test("boxGeometry: the new point's end of [L, H], the off-chart arrow, the line through old and new", () => {
  const atH = boxGeometry(record({ aj_unclipped: 1.3, ai_new: 0.8, aj_new: 0.9, clipped: true }));
  assert.equal(atH.new_end, "H");
  assert.ok(atH.moved && !atH.same && atH.arrow === null);
  const far = boxGeometry(record({ aj_unclipped: 10, ai_new: 0.8, aj_new: 0.9, clipped: true }));
  assert.equal(far.unc_visible, false);
  const [ex, ey] = far.arrow; // on the way from old towards the unclipped point, inside the view
  assert.ok(ex > 0.2 && ey > 0.3 && ey <= far.hi && ex <= far.hi);
  // yᵢ ≠ yⱼ: αᵢ − αⱼ is constant on the line and on the segment
  const g = boxGeometry(record());
  for (const [x, y] of [...g.line, ...g.segment]) assert.ok(Math.abs(x - y - (0.2 - 0.3)) < 1e-12);
  assert.ok(g.same && g.moved && g.new_end === null);
});

test("boxSVG: the title fits the picture's width, smaller when it is narrow", () => {
  // the title's lines: [y, font size, characters shown] (above the plot, which starts at 62)
  const title = (svg) => [...svg.matchAll(/<text x="8" y="(\d+)" font-size="(\d+)"[^>]*>(.*?)<\/text>/g)]
    .map((m) => [Number(m[1]), Number(m[2]), m[3].replace(/<[^>]+>/g, "").length]) // prettier-ignore
    .filter(([y]) => y < 62);
  const lines = {};
  for (const W of [300, 420, 548, 900]) {
    const [svg] = boxSVG(record({ C: Infinity, H: Infinity }), W, 420, "w");
    lines[W] = title(svg);
    for (const [y, size, chars] of lines[W]) {
      assert.ok(0.5 * size * chars <= W - 8, `${W}: ${size} px × ${chars} characters`);
      assert.ok(size >= 12 && size <= 20 && y + 0.3 * size < 62);
    }
  }
  assert.equal(lines[548].length, 2); // the pair, then the box, at 20 px
  assert.deepEqual(lines[548].map(([, size]) => size), [20, 20]);
  assert.ok(lines[300][0][1] < 20); // smaller only where a line does not fit
  assert.equal(lines[900].length, 1);
  const [wide] = boxSVG(record(), 900, 520, "v");
  assert.deepEqual(title(wide).map(([, size]) => size), [20]); // full size when there is room
});

test("boxSVG: the SVG carries its own halo style and a tooltip on each mark", () => {
  const [svg] = boxSVG(record(), 600, 520, "t");
  assert.equal(svg.match(/<style>\.sp-halo\{/g).length, 1); // a saved image looks the same
  assert.ok(svg.includes("<title>old: (0.2, 0.3)</title></circle>"));
  assert.ok(svg.includes("<title>new: (0.5, 0.6)</title></polygon>"));
  assert.ok(svg.includes("<title>unclipped: (0.5, 0.6)</title></path>"));
  assert.ok(svg.includes("α₆ ∈ [L, H] = [0, 0.9]</title></line>"));
  const [open] = boxSVG(record({ C: Infinity, H: Infinity }), 600, 520, "o");
  assert.ok(open.includes("α₆ ∈ [L, H] = [0, ∞]</title>"));
});
