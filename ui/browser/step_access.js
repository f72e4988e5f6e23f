// The step player for the keyboard and screen readers (step_player.js calls these): its keys
// on its own element (step_keys.js), the "Keyboard" help, one polite sentence per step taken
// with a button or a key, and the pictures' names and descriptions, redone on each step
// (step_words.js). The descriptions live in visually hidden paragraphs (aria-describedby).

import { PLAYER_KEYS, playerAction } from "./step_keys.js";
import { barsWords, boxWords, curvesWords, decisionWords, stepSentence } from "./step_words.js";
import { stepRecord } from "./step_player_state.js";

function describedBy(st, el, part) {
  // a hidden paragraph for el's description; [el, paragraph]
  const p = document.createElement("p");
  p.id = `svmlab-sp-${st.uid}-${part}`;
  st.root.querySelector("[data-role=descriptions]").appendChild(p);
  el.setAttribute("role", "img");
  el.setAttribute("aria-describedby", p.id);
  return [el, p];
}

export function setUpAccess(st, on, act) {
  // call once per element: keys, help, descriptions; act(name) takes a step
  const root = st.root;
  const q = (sel) => root.querySelector(sel);
  st.words = {
    under: describedBy(st, st.dec.under, "under"),
    over: describedBy(st, st.dec.over, "over"),
    bars: describedBy(st, st.bars, "bars"),
    curves: describedBy(st, st.cur.over, "curves"),
    box: describedBy(st, st.box.el, "box"),
  };
  const rows = PLAYER_KEYS.map(([keys, what]) => {
    const tr = document.createElement("tr");
    for (const [tag, text] of [["th", keys], ["td", what]]) {
      const c = document.createElement(tag);
      c.textContent = text;
      if (tag === "th") c.scope = "row";
      tr.appendChild(c);
    }
    return tr;
  });
  q("[data-role=keys] tbody").append(...rows);
  on(root, "keydown", (ev) => {
    const name = st.R ? playerAction(ev) : null;
    if (!name) return;
    ev.preventDefault();
    act(name);
  });
}

export function keepFocus(st, had) {
  // a button that a step disabled (Next at the end) would drop focus to <body>: move it to
  // the nearest enabled control of the player instead
  if (!had || !had.disabled || !st.root.contains(had)) return;
  const order = ["next", "prev", "play", "first", "last"];
  const to = order.map((a) => st.root.querySelector(`[data-act=${a}]`)).find((b) => !b.disabled);
  (to || st.root).focus();
}

function stepNumbers(st, P) {
  const R = st.R;
  return { k: st.k, T: R.T, n: R.n, C: R.Cbox, amax: P.amax, rules: R.rules, alpha: st.alpha, b: P.b, P,
    rec: st.k > 0 ? stepRecord(R, st.k) : null, kkt: R.kkt[st.k],
    nSV: P.free.length + P.bound.length }; // prettier-ignore
}

export function announce(st, P) {
  // one short sentence in the polite live region (not the counter or the summary)
  st.root.querySelector("[data-role=announce]").textContent = stepSentence(stepNumbers(st, P));
}

function put(pair, [name, text]) {
  const [el, p] = pair;
  if (el.getAttribute("aria-label") !== name) el.setAttribute("aria-label", name);
  if (p.textContent !== text) p.textContent = text;
}

export function describe(st, P) {
  // the pictures' names and descriptions for the step shown
  const s = stepNumbers(st, P);
  const R = st.R;
  const W = st.words;
  const [under, over] = decisionWords(s);
  put(W.under, under);
  put(W.over, over);
  put(W.bars, barsWords(s));
  put(W.curves, curvesWords({ k: s.k, T: s.T, dual: R.dual[s.k], primal: R.primal[s.k],
    kkt: s.kkt })); // prettier-ignore
  const slider = st.root.querySelector("[data-role=slider]");
  slider.setAttribute("aria-valuetext", `step ${s.k.toLocaleString("en-US")} of ${s.T.toLocaleString("en-US")}`);
  const [box, p] = W.box;
  if (s.rec) {
    box.setAttribute("role", "img");
    put(W.box, boxWords(s.rec, s.k));
  } else {
    // the start: the box holds visible text, not a picture
    box.removeAttribute("role");
    box.removeAttribute("aria-label");
    p.textContent = "";
  }
}
