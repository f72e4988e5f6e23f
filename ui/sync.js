// SVM Lab: rerun the Playground's panels after the canvas has drawn a refit.
//
// The canvas lives in its own fragment, so a click reruns only the canvas (fast). When the
// canvas has painted the refitted figure it dispatches a window event "svmlab:drawn"; this
// invisible component turns it into a state change, which reruns the fragment holding the
// numbers and the table.
const HANDLERS = new WeakMap();

export default function (component) {
  const { parentElement, setStateValue } = component;
  let h = HANDLERS.get(parentElement);
  if (!h) {
    h = { setStateValue, count: 0 };
    h.listener = (ev) => {
      h.count += 1;
      // Streamlit flushes widget updates of one tick with a single fragment id; tell the
      // canvas so its next edit waits for this flush instead of joining it (canvas.js).
      window.__svmlabSyncFlushPending = true;
      h.setStateValue("drawn", Object.assign({ n: h.count }, ev.detail || {}));
      setTimeout(() => {
        window.__svmlabSyncFlushPending = false;
      }, 0);
    };
    window.addEventListener("svmlab:drawn", h.listener);
    HANDLERS.set(parentElement, h);
  }
  h.setStateValue = setStateValue;
  return () => {
    if (!parentElement.isConnected) {
      window.removeEventListener("svmlab:drawn", h.listener);
      HANDLERS.delete(parentElement);
    }
  };
}
