// Numbers and text as the pages print them (ui/shared/numbers.py, ui/shared/figures.py): a
// real minus sign, exponents as superscripts, subscript indices. No DOM.

export const MINUS = "\u2212";
const SUB = "₀₁₂₃₄₅₆₇₈₉";
// superscripts for exponents, as ui/shared/numbers.py fmt_num writes them (1.162·10⁻⁵)
const SUP = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

export function sub(n) {
  // the digits of n as subscripts (α₁₂)
  return String(n).replace(/\d/g, (d) => SUB[Number(d)]);
}

export function stripZeros(s) {
  return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
}

export function fmt(v, digits = 4) {
  // Python's f"{v:.4g}" with a real minus sign and ·10 with a superscript exponent
  // (ui/shared/numbers.py fmt_num)
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : MINUS + "∞";
  if (v === 0) return "0";
  const e = Number(v.toExponential(digits - 1).split("e")[1]);
  let s;
  if (e < -4 || e >= digits) {
    const [m, x] = v.toExponential(digits - 1).split("e");
    s = stripZeros(m) + "·10" + String(Number(x)).replace(/[-\d]/g, (c) => SUP[c]);
  } else {
    s = stripZeros(v.toFixed(Math.max(0, digits - 1 - e)));
  }
  return s.replace(/-/g, MINUS);
}

export function fixed(v, digits) {
  // v with `digits` decimals ("" when it is not a finite number; −0 prints as 0)
  if (v === null || v === undefined || !Number.isFinite(v)) return "";
  const s = v.toFixed(digits);
  return (Number(s) === 0 ? (0).toFixed(digits) : s).replace("-", MINUS);
}

export function short(v) {
  // %.4g as the Python table shows coordinates
  const s = Number(v.toPrecision(4)).toString();
  return s.replace("-", MINUS);
}

export function tickText(v) {
  // an axis tick's label: six significant digits at most
  return String(Number(v.toPrecision(6))).replace(/-/g, MINUS);
}

export function niceTicks(lo, hi, count) {
  // about `count` ticks at 1, 2 or 5 × 10ᵏ steps covering [lo, hi]
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / mag;
  const step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
    out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  }
  return out.map((v) => Number(v.toPrecision(12)));
}

export function escapeHtml(v) {
  // text (from the server or a number) safe inside HTML or SVG markup
  return String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
