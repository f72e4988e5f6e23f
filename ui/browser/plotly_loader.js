// Plotly.js from the app's static folder, loaded once per page and shared by every element
// (the canvas, the step player, the step plots).
function loadPlotly(url) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__svmlabPlotlyPromise) {
    window.__svmlabPlotlyPromise = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = url;
      s.async = true;
      s.onload = () =>
        window.Plotly ? resolve(window.Plotly) : reject(new Error("Plotly did not load"));
      s.onerror = () => {
        window.__svmlabPlotlyPromise = null;
        reject(new Error("could not load " + url));
      };
      document.head.appendChild(s);
    });
  }
  return window.__svmlabPlotlyPromise;
}

// Plotly from the URL the page sent (its static folder), or the app's default
export function loadPlotlyFor(data) {
  return loadPlotly((data && data.plotly_url) || "app/static/plotly.min.js");
}

// The state of the element in `parentElement` (its `selector` root): made by
// `create(root, parentElement)` on the first mount and kept in `states` across reruns, with
// st.ready settled once Plotly is loaded (`loaded(st, Plotly)`) or could not be (`failed`).
// null while the element's markup is not there yet.
export function mountState(parentElement, selector, states, create, data, loaded, failed) {
  const root = parentElement.querySelector(selector);
  if (!root) return null;
  const known = states.get(parentElement);
  if (known) return known;
  const st = create(root, parentElement);
  states.set(parentElement, st);
  st.ready = loadPlotlyFor(data).then(
    (P) => {
      st.Plotly = P;
      loaded(st, P);
    },
    (err) => failed(st, err)
  );
  return st;
}
