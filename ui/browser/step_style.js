// The step player's colours and font, those of ui/shared/figures.py and
// ui/step_through/figures.py (the page's Plotly figures), for what it draws itself.

export const COL = {
  pos: "#0072B2",
  neg: "#D55E00",
  free: "#000000",
  bound: "#CC79A7",
  hl: "#009E73",
  viol: "#E69F00",
  old: "#555555",
  unc: "#CC79A7",
  seg: "#009E73",
  before: "#7F7F7F",
  dual: "#0072B2",
  primal: "#D55E00",
  kkt: "#000000",
  pairText: "#004D38",
};
export const MAX_SLACK_LABELS = 8;
export const FONT = '"Source Sans Pro", Arial, sans-serif';
