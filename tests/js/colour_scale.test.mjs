// colour_scale.js: Plotly colorscales as the refit layer and the step player shade h.
import assert from "node:assert/strict";
import { test } from "node:test";

import { colorLut, parseHex, scaleRgb } from "../../ui/browser/colour_scale.js";

// ui/shared/figures.py REGION_COLORSCALE and REGION_ZMAX (the shading of h)
const REGIONS = [
  [0.0, "#F3B58C"],
  [0.5, "#FFFFFF"],
  [1.0, "#8FBEE3"],
];
const ZMAX = 2;

const colour = (rgb, v) => {
  const d = new Uint8ClampedArray(3);
  rgb(v, d, 0);
  return [...d];
};

test("hex colours are read; anything else is white", () => {
  assert.deepEqual(parseHex("#0072B2"), [0, 114, 178]);
  assert.deepEqual(parseHex(" 8fbee3 "), [143, 190, 227]);
  for (const bad of ["red", "#12345", "#GGGGGG", "rgb(1,2,3)", null]) {
    assert.deepEqual(parseHex(bad), [255, 255, 255], String(bad));
  }
});

test("two stops: a linear ramp over the 256 entries", () => {
  const lut = colorLut([
    [0, "#000000"],
    [1, "#FFFFFF"],
  ]);
  assert.equal(lut.length, 256 * 3);
  for (let k = 0; k < 256; k++) assert.deepEqual([...lut.subarray(3 * k, 3 * k + 3)], [k, k, k]);
});

test("each stop's colour at its own value, and monotone between stops", () => {
  const lut = colorLut(REGIONS);
  const at = (k) => [...lut.subarray(3 * k, 3 * k + 3)];
  assert.deepEqual(at(0), parseHex("#F3B58C"));
  assert.deepEqual(at(255), parseHex("#8FBEE3"));
  assert.deepEqual(at(128), [255, 255, 255].map((v, ch) => Math.round(v + (parseHex("#8FBEE3")[ch] - v) / 255)));
  for (let ch = 0; ch < 3; ch++) {
    for (let k = 1; k < 128; k++) assert.ok(lut[3 * k + ch] >= lut[3 * (k - 1) + ch]); // towards white
    for (let k = 129; k < 256; k++) assert.ok(lut[3 * k + ch] <= lut[3 * (k - 1) + ch]); // away from it
  }
  assert.equal(colorLut(REGIONS.map((s) => s.slice())), lut, "one table per scale, reused");
});

test("values beyond zmin, zmax take the ends; the middle of the range the middle stop", () => {
  const rgb = scaleRgb({ colorscale: REGIONS, zmin: -ZMAX, zmax: ZMAX });
  assert.deepEqual(colour(rgb, -ZMAX), parseHex("#F3B58C"));
  assert.deepEqual(colour(rgb, -50), parseHex("#F3B58C"));
  assert.deepEqual(colour(rgb, ZMAX), parseHex("#8FBEE3"));
  assert.deepEqual(colour(rgb, 1e9), parseHex("#8FBEE3"));
  // h = 0 falls between entries 127 and 128 (both within one step of white)
  for (const v of colour(rgb, 0)) assert.ok(v >= 254);
  // h = +1 is halfway from white to the +1 colour
  const half = colour(rgb, 1);
  parseHex("#8FBEE3").forEach((c, ch) => assert.ok(Math.abs(half[ch] - (255 + c) / 2) <= 1));
});

test("the colour is written at the offset given, leaving the rest alone", () => {
  const rgb = scaleRgb({ colorscale: REGIONS, zmin: -ZMAX, zmax: ZMAX });
  const d = new Uint8ClampedArray(8).fill(7);
  rgb(-ZMAX, d, 4);
  assert.deepEqual([...d], [7, 7, 7, 7, ...parseHex("#F3B58C"), 7]);
});
