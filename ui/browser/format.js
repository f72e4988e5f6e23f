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

// Python rounds an exact decimal tie half to even (f"{0.125:.2f}" is "0.12"); toFixed and
// toExponential round it away from zero ("0.13"). Other values agree: both round the exact
// binary value correctly. So: the native digits, unless an exact check finds such a tie.
const VIEW = new DataView(new ArrayBuffer(8));

function isExactly(x, digits, k) {
  // whether the double x ≥ 0 equals the integer `digits` · 10^k exactly (BigInt, no rounding)
  VIEW.setFloat64(0, x);
  const hi = VIEW.getUint32(0);
  const field = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(VIEW.getUint32(4));
  let e = -1074; // subnormal
  if (field) {
    m |= 1n << 52n;
    e = field - 1075;
  }
  let n = BigInt(digits);
  if (e >= 0) m <<= BigInt(e);
  else n <<= BigInt(-e);
  if (k >= 0) n *= 10n ** BigInt(k);
  else m *= 10n ** BigInt(-k);
  return m === n;
}

function tiesDown(longer, k, x) {
  // `longer`: x with one digit more than kept, its last at 10^k. True when x is exactly that
  // number, the digit is 5 and the kept digit before it even: Python keeps it, JS rounds up.
  const d = longer.replace(".", "");
  return d.endsWith("5") && Number(d.at(-2)) % 2 === 0 && isExactly(x, d, k);
}

function sigDigits(x, p) {
  // x ≥ 0 to p significant digits as Python rounds: [the p digits, exponent of the first]
  const [m1, e1] = x.toExponential(p).split("e");
  if (tiesDown(m1, Number(e1) - p, x)) return [m1.replace(".", "").slice(0, -1), Number(e1)];
  const [m, e] = x.toExponential(p - 1).split("e"); // its exponent after rounding: 9999.5 → 1e4
  return [m.replace(".", ""), Number(e)];
}

export function fmt(v, digits = 4) {
  // Python's f"{v:.4g}" with a real minus sign and ·10 with a superscript exponent
  // (ui/shared/numbers.py fmt_num; a zero has no sign there, −0 prints as "0")
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : MINUS + "∞";
  const p = Math.max(1, digits);
  if (v === 0) return "0";
  const sign = v < 0 ? MINUS : "";
  const [d, e] = sigDigits(Math.abs(v), p);
  let s;
  if (e < -4 || e >= p) {
    s = stripZeros(d[0] + "." + d.slice(1)) + "·10" + String(e).replace(/[-\d]/g, (c) => SUP[c]);
  } else if (e < 0) {
    s = stripZeros("0." + "0".repeat(-e - 1) + d);
  } else {
    s = stripZeros(d.slice(0, e + 1) + "." + d.slice(e + 1));
  }
  return sign + s;
}

export function fixed(v, digits) {
  // Python's f"{v:.{digits}f}" as ui/shared/numbers.py fmt_fixed prints it (a rounded zero
  // has no sign); "" when v is not a finite number (an empty table cell)
  if (v === null || v === undefined || !Number.isFinite(v)) return "";
  const x = Math.abs(v);
  let s;
  if (x >= 1e21) {
    s = BigInt(x).toString() + (digits > 0 ? "." + "0".repeat(digits) : ""); // an integer
  } else {
    const longer = x.toFixed(digits + 1);
    const down = tiesDown(longer, -digits - 1, x);
    s = down ? longer.slice(0, -1).replace(/\.$/, "") : x.toFixed(digits);
  }
  return (v < 0 && /[1-9]/.test(s) ? MINUS : "") + s;
}

export function short(v) {
  // a coordinate in the canvas's points table: fmt_num's 4 digits, as the server's numbers
  return fmt(v);
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
