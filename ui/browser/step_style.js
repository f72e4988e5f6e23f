// The step player's colours and font: ui/shared/palette.py's (through palette.js), under the
// names of ui/shared/figures.py and ui/step_through/figure_style.py (the page's Plotly figures),
// for what it draws itself.
import { PALETTE } from "./palette.js";

export const COL = {
  pos: PALETTE.BLUE,
  neg: PALETTE.VERMILLION,
  free: PALETTE.BLACK,
  bound: PALETTE.PURPLE,
  hl: PALETTE.GREEN,
  viol: PALETTE.ORANGE,
  old: PALETTE.DARK_GREY,
  unc: PALETTE.PURPLE,
  seg: PALETTE.GREEN,
  before: PALETTE.GREY,
  dual: PALETTE.BLUE,
  primal: PALETTE.VERMILLION,
  kkt: PALETTE.BLACK,
  pairText: PALETTE.PAIR_TEXT,
  pairEdge: PALETTE.PAIR_EDGE,
  uncText: PALETTE.PURPLE_TEXT,
};
export const MAX_SLACK_LABELS = 8;
export const FONT = '"Source Sans Pro", Arial, sans-serif';
