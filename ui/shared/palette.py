"""Every plot's colours, defined once (issue 28: WCAG 1.4.11, lines and markers at least 3:1
against what they are drawn on, the decision regions' shading included).

The Okabe–Ito hues (colour-blind safe), darkened where the original had under 3:1 on white or
on the shading: each keeps its hue (its RGB scaled down), so "the orange line" is still
orange. The shading is a class colour over white at ``SHADE`` (pale enough for every plot
colour here to keep 3:1 on it; tests/test_plot_contrast.py measures it). The browser's own
drawings get these values in their payload or from ui/browser/step_style.js, which
tests/test_plot_contrast.py holds to the same values.
"""

from __future__ import annotations

WHITE = "#FFFFFF"
BLACK = "#000000"
BLUE = "#0072B2"        # Okabe–Ito blue, as it is: 5.2:1 on white
VERMILLION = "#C35600"  # Okabe–Ito vermillion #D55E00 × 0.92: 3.9 → 4.5:1 on white
GREEN = "#008762"       # bluish green #009E73 × 0.86: 3.4 → 4.5:1
PURPLE = "#A56287"      # reddish purple #CC79A7 × 0.81: 3.1 → 4.47:1
ORANGE = "#9F6E00"      # orange #E69F00 × 0.69: 2.3 → 4.46:1
SKY = "#3C7EA3"         # sky blue #56B4E9 × 0.70: 2.3 → 4.46:1
OLIVE = "#7A6F00"       # yellow #F0E442 darkened (1.3:1 on white: no yellow line or mark)
GREY = "#727272"        # the lightest grey with 3:1 on the shading (4.8:1 on white)
DARK_GREY = "#555555"
SLACK = "#333333"
INK = "#222222"         # margins, boxes
PAIR_TEXT = "#004D38"   # text beside the green pair (7:1)
AXIS_LINE = "#444444"
GRID_LINE = "#EEEEEE"   # the grid: a faint guide, not content

#: the share of a class colour in the shading of its side (plotted at full opacity)
SHADE = 0.25


def tint(hex_color: str, share: float = SHADE) -> str:
    """``hex_color`` at ``share`` over white (what a fill of that opacity looks like)."""
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(round(255 - share * (255 - c)) for c in (r, g, b)))


REGION_NEG = tint(VERMILLION)  # h < 0: class −1's side
REGION_POS = tint(BLUE)        # h > 0: class +1's side
