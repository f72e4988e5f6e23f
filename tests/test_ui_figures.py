"""ui.shared.figures: the decision plot (pure: model → plotly Figure), with its slack
(ui.shared.slack_drawing) and the ξ labels' places (ui.shared.label_placement)."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from svm_engine import datasets
from tests import fresh_python
from ui.shared import browser_data, figures, fitting, slack_drawing
from ui.shared.settings import Settings


def _fit(name, **settings):
    d = datasets.load(name)
    s = Settings.from_dataset(d.settings).replace(**settings)
    out = fitting.fit_points(d.X, d.y, Settings.parse(s))
    assert out.ok, out.error
    return out.model


@pytest.fixture(scope="module")
def d2_model():
    return _fit("d2")


def _by_role(fig, role):
    return [t for t in fig.data if (t.meta or {}).get("role") == role]


def test_figure_has_every_layer_for_d2(d2_model):
    fig = figures.decision_figure(d2_model)
    assert isinstance(fig, go.Figure)
    roles = [(t.meta or {}).get("role") for t in fig.data]
    for role in ("regions", "margins", "boundary", "slack", "sv", "points", "misclassified"):
        assert role in roles, role
    (boundary,) = _by_role(fig, "boundary")
    assert boundary.contours.start == 0 and boundary.contours.end == 0
    assert boundary.line.dash == "solid"
    (margins,) = _by_role(fig, "margins")
    assert (margins.contours.start, margins.contours.end) == (-1, 1)
    assert margins.line.dash == "dash"


def test_regions_shade_by_h_on_the_grid(d2_model):
    fig = figures.decision_figure(d2_model, x_range=(0, 6), y_range=(0, 5), resolution=40)
    (reg,) = _by_role(fig, "regions")
    xs, ys, H = np.asarray(reg.x), np.asarray(reg.y), np.asarray(reg.z)
    assert H.shape == (len(ys), len(xs)) and xs[0] == 0 and xs[-1] == 6
    probe = d2_model.decision_function([[xs[3], ys[5]]])[0]
    assert H[5, 3] == pytest.approx(probe, rel=1e-5)
    assert reg.zmin == -figures.REGION_ZMAX and reg.zmax == figures.REGION_ZMAX


def test_sv_rings_split_free_and_bound_and_grow_with_alpha(d2_model):
    fig = figures.decision_figure(d2_model)
    free, bound = _by_role(fig, "sv")
    assert "free" in free.name and "bound" in bound.name
    assert len(free.x) == len(d2_model.free_support)
    assert len(bound.x) == len(d2_model.bound_support)
    np.testing.assert_allclose(bound.x, d2_model.X[d2_model.bound_support, 0])
    sizes = figures.ring_sizes(d2_model, d2_model.support)
    alphas = d2_model.alpha[d2_model.support]
    assert np.all(np.diff(sizes[np.argsort(alphas)]) >= 0)
    assert free.marker.line.color != bound.marker.line.color


def test_slack_segments_end_on_the_points_own_margin(d2_model):
    idx, feet = slack_drawing.slack_segments(d2_model)
    # book D2: x15..x18 have slack (0-based 14..17)
    assert set(range(14, 18)) <= set(idx.tolist())
    for i, foot in zip(idx, feet, strict=True):
        assert foot is not None
        assert d2_model.decision_function([foot])[0] == pytest.approx(d2_model.y[i], abs=1e-4)
        # the segment is as long as ξ/‖w‖ (linear kernel: distance to the margin)
        dist = np.linalg.norm(foot - d2_model.X[i])
        assert dist == pytest.approx(d2_model.xi[i] / np.linalg.norm(d2_model.w), rel=1e-3)


def test_slack_labels_show_xi(d2_model):
    fig = figures.decision_figure(d2_model)
    (labels,) = _by_role(fig, "slack_labels")
    texts = set(labels.text)
    assert {"ξ=1.67", "ξ=2.83"} <= texts  # book: ξ16 = 1.667, ξ18 = 2.834


def test_slack_feet_for_a_kernel_model_are_on_the_margin():
    m = _fit("nonlinear", C=0.5)
    idx, feet = slack_drawing.slack_segments(m)
    assert len(idx) > 0
    found = [(i, f) for i, f in zip(idx, feet, strict=True) if f is not None]
    assert len(found) >= len(idx) // 2
    for i, f in found:
        assert m.decision_function([f])[0] == pytest.approx(m.y[i], abs=1e-3)


def test_misclassified_are_crossed_out(d2_model):
    fig = figures.decision_figure(d2_model)
    (mis,) = _by_role(fig, "misclassified")
    got = {(float(a), float(b)) for a, b in zip(mis.x, mis.y, strict=True)}
    assert got == {(2.0, 3.0), (5.0, 3.0)}  # x16 and x18, as on slide 23


def test_points_colour_blind_safe_and_shape_coded(d2_model):
    fig = figures.decision_figure(d2_model)
    pos, neg = _by_role(fig, "points")
    # Okabe–Ito blue, and its vermillion darkened to 4.5:1 on white (issue 28)
    assert pos.marker.color == "#0072B2" and neg.marker.color == "#C35600"
    assert pos.marker.symbol != neg.marker.symbol
    assert len(pos.x) + len(neg.x) == len(d2_model.y)
    assert fig.layout.font.size >= 16  # readable on a projector


def test_highlight_and_overlays():
    m = _fit("d2")
    other = _fit("d2", C=10.0)
    fig = figures.decision_figure(
        m,
        highlight=[15, 99],
        overlays=[
            figures.Overlay("book h", w=(0.834, 0.333), b=-3.334),
            figures.Overlay("C = 10", model=other, margins=True),
        ],
    )
    (hl,) = _by_role(fig, "highlight")
    assert list(hl.x) == [2.0] and list(hl.y) == [3.0]  # x16; index 99 is ignored
    ovs = _by_role(fig, "overlay")
    assert [o.name for o in ovs] == ["book h", "C = 10"]
    assert (ovs[1].contours.start, ovs[1].contours.end) == (-1, 1)
    with pytest.raises(ValueError, match="needs a model"):
        figures.Overlay("bad").decision_function(np.zeros((1, 2)))


def test_points_only_figure_without_a_model():
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    fig = figures.points_figure(X, np.array([1, -1]))
    assert [(t.meta or {}).get("role") for t in fig.data] == ["points", "points"]
    with pytest.raises(ValueError):
        figures.decision_figure(None)


@pytest.mark.parametrize("name", ["d1", "iris_setosa", "iris_versicolor_pca", "nonlinear", "xor"])
def test_every_book_setting_draws_and_serialises(name):
    m = _fit(name)
    fig = figures.decision_figure_dict(m, resolution=30)
    text = browser_data.canvas_figure_json(fig)
    data = json.loads(text)
    assert data["layout"]["yaxis"]["scaleanchor"] == "x"
    go.Figure(figures.decision_figure(m, resolution=30))  # validates against plotly's schema


def test_figures_module_never_imports_streamlit():
    # streamlit refused in a fresh interpreter: an attempt is recorded (tests/fresh_python.py)
    probe = """
        import json
        import ui.shared.figures, ui.shared.fitting, ui.shared.state
        print(json.dumps(tried()))
    """
    assert fresh_python.run(probe, blocked=("streamlit",)) == []


def test_xi_labels_are_placed_clear_of_each_other_and_of_the_rings():
    """Issue 32: ξ labels over each other, the points and the SV rings. place_labels keeps
    each label's box (as Plotly draws "middle right" text) clear where a free spot exists."""
    from ui.shared.label_placement import GAP_PX, place_labels

    def box(anchor, size, unit):
        x, y = anchor[0] * unit, anchor[1] * unit
        return (x + GAP_PX, y - size[1] / 2, x + GAP_PX + size[0], y + size[1] / 2)

    def overlap(a, b):
        return min(a[2], b[2]) - max(a[0], b[0]) > 0 and min(a[3], b[3]) - max(a[1], b[1]) > 0

    unit = 100.0  # px per data unit
    segments = [((0.0, 0.0), (1.0, 0.0))] * 3  # three labels for the same segment
    sizes = [(50.0, 18.0)] * 3
    ring = (40.0, -20.0, 60.0, 20.0)  # over the segment's middle (px)
    anchors = place_labels(segments, sizes, [ring], unit)
    boxes = [box(a, s, unit) for a, s in zip(anchors, sizes, strict=True)]
    for k, b in enumerate(boxes):
        assert not overlap(b, ring), b
        assert not any(overlap(b, c) for c in boxes[k + 1:]), boxes
        # still beside its segment: within 50 px of it
        assert -50 - 50 <= b[0] <= 150 and -50 - 18 <= b[1] <= 50, b
    # nothing in the way: beside the segment's middle, to its right (Plotly's own place)
    assert place_labels(segments[:1], sizes[:1], [], unit) == [(0.5, 0.0)]


def test_d2s_xi_labels_in_the_figure_cover_no_ring():
    from ui.shared.figures import ring_sizes
    from ui.shared.label_placement import GAP_PX
    from ui.shared.slack_drawing import CHAR_EM, LINE_EM, SLACK_FONT

    d = datasets.d2()
    m = fitting.fit_points(d.X, d.y, Settings.from_dataset(d.settings)).model
    fig = figures.decision_figure_dict(m)
    (lab,) = [t for t in fig["data"] if t["meta"]["role"] == "slack_labels"]
    assert len(lab["text"]) == int(np.sum(m.xi > slack_drawing.MIN_SLACK))
    unit = 95.0 * 0.9  # about the plot's px per unit (a little tighter than the estimate)
    sv = np.flatnonzero(m.alpha > 0)
    r = ring_sizes(m, sv) / 2
    for x, y, text in zip(lab["x"], lab["y"], lab["text"], strict=True):
        w, h = CHAR_EM * SLACK_FONT * len(text), LINE_EM * SLACK_FONT
        x0, x1 = x * unit + GAP_PX, x * unit + GAP_PX + w
        y0, y1 = y * unit - h / 2, y * unit + h / 2
        for (cx, cy), rr in zip(m.X[sv] * unit, r, strict=True):
            apart = x1 < cx - rr or x0 > cx + rr or y1 < cy - rr or y0 > cy + rr
            assert apart, (text, (cx / unit, cy / unit))
