// SVM Lab click canvas: which of Plotly's trace groups the overlay hid, and the traces' ids.
// No DOM: a "group" is anything with a style (an SVG <g> in the page, a plain object in the
// unit tests).
//
// Why (issue 32 item 3): while the overlay draws the current points, Plotly's point traces
// are hidden (style.visibility). Plotly keeps a trace's <g> from one figure to the next by
// the trace's uid, and a trace without one inherits the uid of the trace at its position in
// the figure before. When the number of layers changes (D1 → D2 adds the slack and the bound
// SVs; hinge → quadratic drops one ring trace) the groups hidden as "points" are reused for
// other layers (rings, ξ labels, the misclassified crosses), which then stayed hidden for
// good. So: every trace gets a uid from its role (a group is never reused for another role),
// and the overlay keeps the very groups it hid and shows exactly those again.

export function roleUids(data) {
  // the traces with a uid each from their role ("points-p-0", "sv-1", ...): the n-th trace
  // of a role keeps its <g> from one figure to the next, whatever comes before it. (Plotly
  // puts uids into CSS class names: letters, digits, "-" and "_" only.)
  const seen = new Map();
  return data.map((t) => {
    const meta = t.meta || {};
    const label = meta.label === undefined ? "" : meta.label > 0 ? "-p" : "-m";
    const role = String(meta.role || t.type || "trace").replace(/[^A-Za-z0-9_]/g, "_") + label;
    const k = seen.get(role) || 0;
    seen.set(role, k + 1);
    return Object.assign({}, t, { uid: `${role}-${k}` });
  });
}

export function pointGroups(fullData, calcdata) {
  // the groups Plotly drew the point traces into (fullData[i] is drawn from calcdata[i])
  const groups = [];
  (calcdata || []).forEach((cd, i) => {
    const t = fullData && fullData[i];
    if (t && t.meta && t.meta.role === "points" && cd && cd[0] && cd[0].node3) {
      groups.push(cd[0].node3.node());
    }
  });
  return groups;
}

export function hideGroups(hidden, groups) {
  // hide `groups` and remember each one in `hidden` (once)
  for (const g of groups) {
    if (!g || !g.style) continue;
    g.style.visibility = "hidden";
    if (!hidden.includes(g)) hidden.push(g);
  }
  return hidden;
}

export function showGroups(hidden) {
  // show again every group `hidden` holds, whatever trace Plotly uses it for now
  for (const g of hidden) g.style.visibility = "";
  hidden.length = 0;
  return hidden;
}
