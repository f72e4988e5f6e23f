// SVM Lab Step-through: the invisible listener that lets the server's panels follow the
// step player (Streamlit Custom Components v2; ui/step_through/player.py: step_listener).
//
// The player (step_player.js) lives outside the panels' fragment, so its own state changes
// would rerun the whole page; instead it dispatches the window event "svmlab:step" {run, k}
// once the step has stayed put for a moment, and this element, mounted inside the panels'
// fragment, turns it into the state "step" = {run, k}: only that fragment reruns. Data from
// Python: {run, k}, the step the panels show now (a report of that same step is not sent).
const HANDLERS = new WeakMap();

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  let h = HANDLERS.get(parentElement);
  if (!h) {
    h = { setStateValue, shown: null };
    h.listener = (ev) => {
      const d = ev.detail || {};
      if (typeof d.run !== "string" || !Number.isInteger(d.k)) return;
      const key = d.run + ":" + d.k;
      if (key === h.shown) return;
      h.shown = key;
      h.setStateValue("step", { run: d.run, k: d.k });
    };
    window.addEventListener("svmlab:step", h.listener);
    HANDLERS.set(parentElement, h);
    // the player may have moved before this element existed
    setTimeout(() => window.dispatchEvent(new CustomEvent("svmlab:step-query")), 0);
  }
  h.setStateValue = setStateValue;
  if (data && typeof data.run === "string") h.shown = data.run + ":" + data.k;
  return () => {
    if (!parentElement.isConnected) {
      window.removeEventListener("svmlab:step", h.listener);
      HANDLERS.delete(parentElement);
    }
  };
}
