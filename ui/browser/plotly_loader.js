// Plotly.js from the app's static folder, loaded once per page and shared by every element
// (the canvas, the step player, the step plots).
export function loadPlotly(url) {
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
