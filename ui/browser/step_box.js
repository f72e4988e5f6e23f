// SMO's step in the (αᵢ, αⱼ) plane as an SVG string: the square [0, C]² (open for C = ∞), the
// constraint line, the feasible segment [L, H], the old, unclipped and new points. The one
// drawing of it: the step player's box (step_player_draw.js) and the Worked examples' one step
// (box_chart.js). The SVG carries its own styles (an image saved from it looks the same).
// No DOM.

import { COL, FONT } from "./step_style.js";
import { escapeHtml, fmt, MINUS, niceTicks, sub, tickText } from "./format.js";

export function boxView(rec) {
  // [lo, hi, unclippedVisible]: the square view of the (αᵢ, αⱼ) plane. Finite C: the box
  // with a margin, widened to show the unclipped optimum when it is within 2C of the box.
  // C = ∞: the quadrant up to 1.3× the largest α involved.
  const C = rec.C;
  const pts = [rec.ai_old, rec.aj_old, rec.ai_new, rec.aj_new];
  const unc = [rec.ai_unclipped, rec.aj_unclipped];
  let lo;
  let hi;
  let visible;
  if (Number.isFinite(C)) {
    const R = C;
    lo = -0.12 * R;
    hi = 1.12 * R;
    visible = unc.every((v) => -2 * R <= v && v <= 3 * R);
    if (visible) {
      lo = Math.min(lo, Math.min(...unc) - 0.08 * R);
      hi = Math.max(hi, Math.max(...unc) + 0.08 * R);
    }
  } else {
    let R = Math.max(...pts.map(Math.abs), 1e-9);
    visible = unc.every((v) => -R <= v && v <= 3 * R);
    let cands = pts.concat(visible ? unc : []);
    if (!cands.every(Number.isFinite)) cands = pts;
    R = Math.max(...cands.filter((v) => v > 0), R);
    lo = -0.12 * R;
    hi = 1.3 * R;
    if (visible) lo = Math.min(lo, Math.min(...unc) - 0.08 * R);
  }
  return [lo, hi, visible];
}

export function boxGeometry(rec) {
  // where everything of the picture goes, from a step's numbers: the view [lo, hi]², the
  // constraint line's and the segment's ends, which end of [L, H] the new point is on, the
  // off-chart arrow's tip, and each label's side ("t"/"b": above/below, "r"/"l": right/left;
  // tests/test_step_box.py checks it on every step of real runs)
  const [lo, hi, uncVisible] = boxView(rec);
  const span = hi - lo;
  const tol = 1e-9 * Math.max(1, span);
  const s = rec.yi * rec.yj;
  const gamma = rec.ai_old + s * rec.aj_old;
  const aiOf = (aj) => gamma - s * aj;
  const [upSide, downSide] = s > 0 ? ["tr", "bl"] : ["tl", "br"];
  const place = (x, y, preferUp) => {
    const fy = (y - lo) / span;
    const fx = (x - lo) / span;
    if (fy < 0.2 || (s > 0 && fx < 0.2) || (s < 0 && fx > 0.8)) return upSide;
    if (fy > 0.8 || (s > 0 && fx > 0.8) || (s < 0 && fx < 0.2)) return downSide;
    return preferUp ? upSide : downSide;
  };
  const { L, H } = rec;
  const Hend = Number.isFinite(H) ? H : hi + span;
  const at = (v) => Number.isFinite(v) && Math.abs(rec.aj_new - v) <= tol;
  const newEnd = at(L) ? "L" : at(H) ? "H" : null;
  const old = [rec.ai_old, rec.aj_old];
  const unc = [rec.ai_unclipped, rec.aj_unclipped];
  const nw = [rec.ai_new, rec.aj_new];
  let arrow = null;
  if (!uncVisible) {
    const dx = unc[0] - old[0];
    const dy = unc[1] - old[1];
    const norm = Math.hypot(dx, dy) || 1;
    arrow = [Math.min(Math.max(old[0] + (dx / norm) * span * 0.45, lo), hi),
      Math.min(Math.max(old[1] + (dy / norm) * span * 0.45, lo), hi)]; // prettier-ignore
  }
  return { lo, hi, unc_visible: uncVisible,
    line: [[aiOf(lo - span), lo - span], [aiOf(hi + span), hi + span]],
    segment: [[aiOf(L), L], [aiOf(Hend), Hend]],
    new_end: newEnd,
    same: Math.hypot(unc[0] - nw[0], unc[1] - nw[1]) <= tol,
    moved: Math.hypot(nw[0] - old[0], nw[1] - old[1]) > tol,
    arrow,
    places: { L: place(aiOf(L), L, false), H: place(aiOf(Hend), Hend, false),
      unclipped: place(unc[0], unc[1], true), old: place(old[0], old[1], true),
      new: place(nw[0], nw[1], false) } }; // prettier-ignore
}

function svgSub(base, idx) {
  return `${escapeHtml(base)}<tspan baseline-shift="sub" font-size="75%">${idx}</tspan>`;
}

export function boxSVG(rec, W, Hh, uid) {
  const m = { l: 78, r: 24, t: 62, b: 74 };
  const side = Math.max(60, Math.min(W - m.l - m.r, Hh - m.t - m.b));
  const ox = m.l + (W - m.l - m.r - side) / 2;
  const oy = m.t;
  const g = boxGeometry(rec);
  const { lo, hi } = g;
  const uncVisible = g.unc_visible;
  const X = (v) => ox + ((v - lo) / (hi - lo)) * side;
  const Y = (v) => oy + ((hi - v) / (hi - lo)) * side;
  const C = rec.C;
  const finite = Number.isFinite(C);
  const label = (x, y, pos, text, size, color, r) => {
    // on the side pos asks for, unless the text would run past the picture's edge ("new =
    // unclipped" was cut at the right): then on the other side of the point
    const width = 0.56 * size * text.length;
    let right = pos[1] === "r";
    if (right && X(x) + r + width > W - 2) right = false;
    else if (!right && X(x) - r - width < 2) right = true;
    const dy = pos[0] === "t" ? -r : r + size * 0.8;
    const tx = X(x) + (right ? r : -r);
    const anchor = right ? "start" : "end";
    return `<text x="${tx}" y="${Y(y) + dy}" font-size="${size}" fill="${color}" text-anchor="${anchor}" class="sp-halo">${escapeHtml(text)}</text>`;
  };
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${Hh}" font-family='${FONT}'>`);
  out.push(`<defs><clipPath id="clip${uid}"><rect x="${ox}" y="${oy}" width="${side}" height="${side}"/></clipPath>
    <marker id="arr${uid}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333333"/></marker>
    <marker id="arru${uid}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${COL.unc}"/></marker></defs>`); // prettier-ignore
  out.push(`<style>.sp-halo{paint-order:stroke;stroke:rgba(255,255,255,0.85);stroke-width:4px}</style>`);
  out.push(`<rect width="${W}" height="${Hh}" fill="#FFFFFF"/>`);
  // grid and ticks
  const ticks = niceTicks(lo, hi, 6);
  for (const t of ticks) {
    out.push(`<line x1="${X(t)}" y1="${oy}" x2="${X(t)}" y2="${oy + side}" stroke="#EEEEEE"/>`);
    out.push(`<line x1="${ox}" y1="${Y(t)}" x2="${ox + side}" y2="${Y(t)}" stroke="#EEEEEE"/>`);
    out.push(`<line x1="${X(t)}" y1="${oy + side}" x2="${X(t)}" y2="${oy + side + 5}" stroke="#444444"/>`);
    out.push(`<line x1="${ox - 5}" y1="${Y(t)}" x2="${ox}" y2="${Y(t)}" stroke="#444444"/>`);
    out.push(`<text x="${X(t)}" y="${oy + side + 22}" font-size="16" text-anchor="middle" fill="#262730">${tickText(t)}</text>`);
    out.push(`<text x="${ox - 9}" y="${Y(t) + 5}" font-size="16" text-anchor="end" fill="#262730">${tickText(t)}</text>`);
  } // prettier-ignore
  out.push(`<g clip-path="url(#clip${uid})">`);
  if (finite) {
    out.push(`<rect x="${X(0)}" y="${Y(C)}" width="${X(C) - X(0)}" height="${Y(0) - Y(C)}" fill="rgba(0,114,178,0.07)" stroke="#222222" stroke-width="3"/>`); // prettier-ignore
  } else {
    out.push(`<rect x="${X(0)}" y="${Y(hi)}" width="${X(hi) - X(0)}" height="${Y(0) - Y(hi)}" fill="rgba(0,114,178,0.07)"/>`); // prettier-ignore
    out.push(`<line x1="${X(0)}" y1="${Y(0)}" x2="${X(hi)}" y2="${Y(0)}" stroke="#222222" stroke-width="3"/>`); // prettier-ignore
    out.push(`<line x1="${X(0)}" y1="${Y(0)}" x2="${X(0)}" y2="${Y(hi)}" stroke="#222222" stroke-width="3"/>`); // prettier-ignore
  }
  // the constraint line yᵢαᵢ + yⱼαⱼ = const over the whole view
  const [[lx0, ly0], [lx1, ly1]] = g.line;
  out.push(`<line x1="${X(lx0)}" y1="${Y(ly0)}" x2="${X(lx1)}" y2="${Y(ly1)}" stroke="#777777" stroke-width="2" stroke-dasharray="9 6"/>`); // prettier-ignore
  // the feasible segment αⱼ ∈ [L, H] (C = ∞, yᵢ ≠ yⱼ: a ray, drawn past the view)
  const [[sxL, syL], [sxH, syH]] = g.segment;
  const seg = `α${sub(rec.j + 1)} ∈ [L, H] = [${escapeHtml(fmt(rec.L))}, ${Number.isFinite(rec.H) ? escapeHtml(fmt(rec.H)) : "∞"}]`;
  out.push(`<line x1="${X(sxL)}" y1="${Y(syL)}" x2="${X(sxH)}" y2="${Y(syH)}" stroke="${COL.seg}" stroke-width="7" stroke-linecap="butt"><title>${seg}</title></line>`); // prettier-ignore
  for (const [sx, sy] of g.segment) {
    out.push(`<line x1="${X(sx)}" y1="${Y(sy) - 7}" x2="${X(sx)}" y2="${Y(sy) + 7}" stroke="${COL.seg}" stroke-width="3"/>`); // prettier-ignore
  }
  out.push("</g>");
  if (finite) {
    out.push(`<text x="${X(C) + 4}" y="${Y(C) - 4}" font-size="20" fill="#262730">C</text>`);
  }
  // the new point at an end of the segment: that end is named in the new point's label, not
  // by a second label on the same spot (they overlapped)
  const newEnd = g.new_end;
  if (newEnd !== "L") out.push(label(sxL, syL, g.places.L, "L", 20, COL.pairText, 9));
  if (Number.isFinite(rec.H) && newEnd !== "H") {
    out.push(label(sxH, syH, g.places.H, "H", 20, COL.pairText, 9));
  }
  const old = [rec.ai_old, rec.aj_old];
  const unc = [rec.ai_unclipped, rec.aj_unclipped];
  const nw = [rec.ai_new, rec.aj_new];
  const view = { step: rec.it, pair: [rec.i + 1, rec.j + 1], range: [lo, hi], old, new: nw,
    unclipped: unc, unclippedVisible: uncVisible, L: rec.L, H: rec.H, clipped: rec.clipped }; // prettier-ignore
  if (uncVisible) {
    const x = X(unc[0]);
    const y = Y(unc[1]);
    const r = 14.3; // a Plotly diamond of size 22
    out.push(`<path d="M${x},${y - r}L${x + r},${y}L${x},${y + r}L${x - r},${y}Z" fill="none" stroke="${COL.unc}" stroke-width="4">${hover("unclipped", unc)}</path>`); // prettier-ignore
    if (!g.same) out.push(label(unc[0], unc[1], g.places.unclipped, "unclipped", 18, COL.uncText, 12));
  } else {
    const [ex, ey] = g.arrow;
    out.push(`<line x1="${X(old[0])}" y1="${Y(old[1])}" x2="${X(ex)}" y2="${Y(ey)}" stroke="${COL.unc}" stroke-width="2" marker-end="url(#arru${uid})"/>`); // prettier-ignore
    // the note in the view's top-left corner, where it always fits (the arrow points on)
    out.push(`<text x="${ox + 8}" y="${oy + 20}" font-size="15" fill="${COL.uncText}" class="sp-halo">unclipped α${sub(rec.j + 1)} = ${escapeHtml(fmt(unc[1]))} (off the chart)</text>`); // prettier-ignore
  }
  // the step: old → new
  if (g.moved) {
    out.push(`<line x1="${X(old[0])}" y1="${Y(old[1])}" x2="${X(nw[0])}" y2="${Y(nw[1])}" stroke="#333333" stroke-width="2.5" marker-end="url(#arr${uid})"/>`); // prettier-ignore
  }
  out.push(`<circle cx="${X(old[0])}" cy="${Y(old[1])}" r="8" fill="${COL.old}" stroke="#FFFFFF" stroke-width="2">${hover("old", old)}</circle>`); // prettier-ignore
  out.push(label(old[0], old[1], g.places.old, "old", 18, COL.old, 10));
  out.push(starPath(X(nw[0]), Y(nw[1]), 15, hover("new", nw)));
  out.push(label(nw[0], nw[1], g.places.new,
    (rec.clipped ? "new (clipped)" : "new = unclipped") + (newEnd ? ` at ${newEnd}` : ""), 18, COL.pairText, 13)); // prettier-ignore
  // frame, titles
  out.push(`<rect x="${ox}" y="${oy}" width="${side}" height="${side}" fill="none" stroke="#444444"/>`); // prettier-ignore
  const boxText = finite ? `box [0, ${fmt(C)}]²` : "no upper bound on α: the box is open";
  // the title within the picture's width (it ran past the right edge): in two lines when one
  // does not fit at 20 px, smaller only when a line still does not
  const pair = `Step ${rec.it}: the pair (${svgSub("α", rec.i + 1)}, ${svgSub("α", rec.j + 1)})`;
  const fit = (chars) => Math.min(20, Math.floor((W - 16) / (0.56 * chars)));
  const head = `Step ${rec.it}: the pair (α${rec.i + 1}, α${rec.j + 1})`.length;
  const one = fit(head + 3 + boxText.length);
  const title = (y, size, text) => `<text x="8" y="${y}" font-size="${size}" fill="#262730">${text}</text>`;
  if (one >= 20) out.push(title(30, one, `${pair} · ${escapeHtml(boxText)}`));
  else {
    const ts = Math.max(12, fit(Math.max(head, boxText.length)));
    out.push(title(22, ts, pair), title(26 + ts, ts, escapeHtml(boxText)));
  }
  const sg = (v) => (v > 0 ? "+1" : MINUS + "1");
  out.push(`<text x="${ox + side / 2}" y="${oy + side + 52}" font-size="18" text-anchor="middle" fill="#262730">${svgSub("α", rec.i + 1)}  (i = ${rec.i + 1}, ${svgSub("y", "i")} = ${sg(rec.yi)})</text>`); // prettier-ignore
  const cy = oy + side / 2;
  out.push(`<text x="20" y="${cy}" font-size="18" text-anchor="middle" fill="#262730" transform="rotate(-90 20 ${cy})">${svgSub("α", rec.j + 1)}  (j = ${rec.j + 1}, ${svgSub("y", "j")} = ${sg(rec.yj)})</text>`); // prettier-ignore
  out.push("</svg>");
  return [out.join(""), view];
}

function hover(what, [a, b]) {
  // a mark's tooltip: its name and (αᵢ, αⱼ)
  return `<title>${what}: (${escapeHtml(fmt(a))}, ${escapeHtml(fmt(b))})</title>`;
}

function starPath(x, y, R, title) {
  const r = R * 0.45;
  const pts = [];
  for (let q = 0; q < 10; q++) {
    const ang = -Math.PI / 2 + (q * Math.PI) / 5;
    const rad = q % 2 ? r : R;
    pts.push(`${(x + rad * Math.cos(ang)).toFixed(2)},${(y + rad * Math.sin(ang)).toFixed(2)}`);
  }
  return `<polygon points="${pts.join(" ")}" fill="${COL.hl}" stroke="${COL.pairEdge}" stroke-width="1.5">${title}</polygon>`;
}
