// Plotly colorscales as lookup tables: the Playground's refit layer and the step player
// shade h as Plotly colours its heatmap (ui/shared/figures.py REGION_COLORSCALE,
// ±REGION_ZMAX). No DOM.

export function parseHex(c) {
  // "#rrggbb" → [r, g, b]; anything else is white
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(String(c).trim());
  return m ? [1, 2, 3].map((k) => parseInt(m[k], 16)) : [255, 255, 255];
}

const LUTS = new Map();

export function colorLut(scale) {
  // 256 RGB colours along a Plotly colorscale [[v, "#rrggbb"], ...]
  const key = JSON.stringify(scale);
  if (LUTS.has(key)) return LUTS.get(key);
  const stops = scale.map(([v, c]) => [Number(v), parseHex(c)]);
  const lut = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256; k++) {
    const t = k / 255;
    let s = 0;
    while (s < stops.length - 2 && t > stops[s + 1][0]) s++;
    const [v0, c0] = stops[s];
    const [v1, c1] = stops[Math.min(s + 1, stops.length - 1)];
    const f = v1 > v0 ? Math.min(1, Math.max(0, (t - v0) / (v1 - v0))) : 0;
    for (let ch = 0; ch < 3; ch++) lut[3 * k + ch] = c0[ch] + (c1[ch] - c0[ch]) * f;
  }
  LUTS.set(key, lut);
  return lut;
}

export function scaleRgb({ colorscale, zmin, zmax }) {
  // rgb(v, data, o): writes the colour of value v at data[o..o+2], as Plotly colours a
  // heatmap with this colorscale between zmin and zmax (values beyond them take the ends)
  const lut = colorLut(colorscale);
  return (v, d, o) => {
    const t = (v - zmin) / (zmax - zmin);
    const k = 3 * Math.round(255 * (t < 0 ? 0 : t > 1 ? 1 : t));
    d[o] = lut[k];
    d[o + 1] = lut[k + 1];
    d[o + 2] = lut[k + 2];
  };
}
