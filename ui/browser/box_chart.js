// SVM Lab: one SMO step in the (αᵢ, αⱼ) box outside the step player (the Worked examples
// page; Streamlit Custom Components v2). The player's own drawing (step_box.js) and words
// (step_words.js boxWords) of the step's numbers as Python sent them
// (ui/step_through/box_chart.py: rec, height, export {title, settings}, config), with the PNG
// and SVG buttons of every chart (plot_export.js). Named and described as the page's other
// charts are (chart_a11y.js). The picture's data-draws counts its draws (for the browser tests).

import { describeBox } from "./chart_a11y.js";
import { savePicture } from "./plot_export.js";
import { boxSVG } from "./step_box.js";
import { boxWords } from "./step_words.js";

const STATES = new WeakMap();

export function boxRecord(rec) {
  // the record as boxSVG reads it: C and H = ∞ arrive as null (JSON has no ∞)
  return Object.assign({}, rec, { C: rec.C ?? Infinity, H: rec.H ?? Infinity });
}

function draw(st) {
  const W = Math.max(300, st.pic.clientWidth || 500);
  const key = `${W} ${st.dataKey}`;
  if (st.drawn === key) return;
  const [svg] = boxSVG(st.rec, W, st.data.height, st.uid);
  st.pic.innerHTML = svg;
  st.pic.querySelector("svg").setAttribute("aria-hidden", "true"); // the figure is described
  st.size = [W, st.data.height];
  st.drawn = key;
  st.pic.dataset.draws = String(Number(st.pic.dataset.draws || 0) + 1);
}

export default function (component) {
  const { data, parentElement } = component;
  const root = parentElement.querySelector(".svmlab-box");
  if (!root || !data || !data.rec) return undefined;
  let st = STATES.get(parentElement);
  if (!st) {
    st = { root, pic: root.querySelector(".sb-pic"), uid: `b${Math.random().toString(36).slice(2, 8)}` };
    for (const b of root.querySelectorAll("button[data-format]")) {
      b.addEventListener("click", () => savePicture(st, st.pic.innerHTML, ...st.size, b.dataset.format));
    }
    st.ro = new ResizeObserver(() => draw(st));
    st.ro.observe(st.pic);
    STATES.set(parentElement, st);
  }
  st.data = data;
  st.dataKey = JSON.stringify([data.rec, data.height]);
  st.rec = boxRecord(data.rec);
  st.export = data.export;
  st.config = data.config;
  draw(st);
  const [name, description] = boxWords(st.rec, st.rec.it);
  describeBox(st.pic, { name, description });
  return () => {
    if (parentElement.isConnected) return;
    st.ro.disconnect();
    STATES.delete(parentElement);
  };
}
