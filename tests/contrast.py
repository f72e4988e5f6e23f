"""WCAG 2.2 contrast (pure; tests/test_plot_contrast.py): relative luminance and the contrast
ratio of two colours, and what a translucent colour looks like over another (issue 28: lines
and markers ≥ 3:1)."""

from __future__ import annotations

import re

_RGBA = re.compile(r"rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)")


def parse(color: str) -> tuple[tuple[float, float, float], float]:
    """'#RRGGBB' or 'rgb(a)(r, g, b[, a])' → ((r, g, b) in 0…255, alpha)."""
    c = color.strip()
    if c.startswith("#") and len(c) == 7:
        return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)), 1.0
    m = _RGBA.fullmatch(c)
    if not m:
        raise ValueError(f"not a colour this checker reads: {color!r}")
    alpha = float(m.group(4)) if m.group(4) is not None else 1.0
    return (float(m.group(1)), float(m.group(2)), float(m.group(3))), alpha


def over(color: str, background: str = "#FFFFFF") -> tuple[float, float, float]:
    """The colour seen where ``color`` (its alpha included) is drawn over ``background``."""
    (r, g, b), a = parse(color)
    (R, G, B), _ = parse(background)
    return (a * r + (1 - a) * R, a * g + (1 - a) * G, a * b + (1 - a) * B)


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG's relative luminance of an sRGB colour (0…255 channels)."""
    lin = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
           for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def ratio(a: str, b: str, background: str = "#FFFFFF") -> float:
    """The contrast ratio (1…21) of colours ``a`` and ``b``, each seen over ``background``."""
    la, lb = sorted((luminance(over(a, background)), luminance(over(b, background))))
    return (lb + 0.05) / (la + 0.05)
