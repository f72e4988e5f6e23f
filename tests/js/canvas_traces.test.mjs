// The overlay's bookkeeping of Plotly's trace groups (ui/browser/canvas_traces.js), without
// a DOM: groups are plain objects with a style, "Plotly" is a uid → group map as its join.
import assert from "node:assert/strict";
import { test } from "node:test";

import { hideGroups, pointGroups, roleUids, showGroups } from "../../ui/browser/canvas_traces.js";

const D1 = ["regions", "margins", "boundary", "sv", "points:1", "points:-1"];
const D2 = ["regions", "margins", "boundary", "slack", "slack_labels", "sv", "sv",
  "points:1", "points:-1", "misclassified"]; // prettier-ignore

function figure(roles) {
  return roles.map((r) => {
    const [role, label] = r.split(":");
    return { type: "scatter", meta: label ? { role, label: Number(label) } : { role } };
  });
}

function plotly(groups, data) {
  // Plotly's join: a trace keeps the group of its uid (a trace without one takes the uid of
  // the trace at its position before: Plotly's getTraceUids); returns [fullData, calcdata]
  const fullData = data.map((t, i) => Object.assign({}, t, { uid: t.uid || `pos${i}` }));
  const calcdata = fullData.map((t) => {
    if (!groups.has(t.uid)) groups.set(t.uid, { uid: t.uid, style: { visibility: "" } });
    const g = groups.get(t.uid);
    g.role = t.meta.role; // what the group draws now
    return [{ node3: { node: () => g } }];
  });
  return [fullData, calcdata];
}

function stillHidden(groups) {
  return [...groups.values()].filter((g) => g.style.visibility === "hidden").map((g) => g.role);
}

test("roleUids: a uid per role and label, counted within the role", () => {
  const uids = roleUids(figure(D2)).map((t) => t.uid);
  assert.deepEqual(uids, ["regions-0", "margins-0", "boundary-0", "slack-0", "slack_labels-0",
    "sv-0", "sv-1", "points-p-0", "points-m-0", "misclassified-0"]); // prettier-ignore
  assert.equal(new Set(uids).size, uids.length);
  // Plotly makes CSS class names of them: nothing a selector cannot hold
  for (const u of uids) assert.match(u, /^[A-Za-z][A-Za-z0-9_-]*$/);
  const t = { type: "heatmap", x: [1] };
  assert.deepEqual(roleUids([t]), [{ type: "heatmap", x: [1], uid: "heatmap-0" }]);
  assert.equal(roleUids([{ meta: { role: "a b:c" } }])[0].uid, "a_b_c-0");
  assert.equal(t.uid, undefined); // the figure's own traces are left as they are
});

test("the D1 → D2 bug: groups hidden by position hold rings and labels after the next figure", () => {
  // what the overlay did before: hid the point groups of D1's figure, then after drawing
  // D2's showed D2's point groups again; groups reused by position stay hidden
  const groups = new Map();
  const before = plotly(groups, figure(D1));
  pointGroups(...before).forEach((g) => (g.style.visibility = "hidden"));
  const after = plotly(groups, figure(D2));
  pointGroups(...after).forEach((g) => (g.style.visibility = ""));
  assert.deepEqual(stillHidden(groups), ["slack_labels", "sv"]); // the symptom
});

test("showGroups shows every group hideGroups hid, whatever Plotly reused it for", () => {
  for (const [first, second] of [[D1, D2], [D2, D1], [D2, D2.filter((r, i) => i !== 6)]]) {
    const groups = new Map();
    const hidden = [];
    hideGroups(hidden, pointGroups(...plotly(groups, figure(first))));
    assert.deepEqual(stillHidden(groups), ["points", "points"]);
    const next = plotly(groups, figure(second)); // without uids: groups reused by position
    showGroups(hidden);
    assert.deepEqual(stillHidden(groups), []);
    assert.deepEqual(hidden, []);
    hideGroups(hidden, pointGroups(...next)); // the overlay stays: the new point groups
    assert.deepEqual(stillHidden(groups), ["points", "points"]);
  }
});

test("with role uids a point group stays a point group from figure to figure", () => {
  const groups = new Map();
  const hidden = [];
  hideGroups(hidden, pointGroups(...plotly(groups, roleUids(figure(D1)))));
  hideGroups(hidden, pointGroups(...plotly(groups, roleUids(figure(D1))))); // again: once each
  assert.equal(hidden.length, 2);
  plotly(groups, roleUids(figure(D2)));
  assert.deepEqual(stillHidden(groups), ["points", "points"]);
  showGroups(hidden);
  assert.deepEqual(stillHidden(groups), []);
});

test("pointGroups skips traces Plotly has not drawn", () => {
  const data = figure(["points:1", "points:-1"]);
  assert.deepEqual(pointGroups(data, [[{}], null]), []);
  assert.deepEqual(pointGroups(null, null), []);
});
