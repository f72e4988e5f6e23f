"""The one rule for pages that wait on the teacher (ui.shared.poll): rerun only on a real
change, never on a tick that could not ask."""

from ui.shared import poll


def test_no_answer_never_reruns():
    assert not poll.changed(poll.NO_ANSWER, "drawn")
    assert not poll.changed(poll.NO_ANSWER, None)


def test_same_answer_does_not_rerun():
    assert not poll.changed((1, False), (1, False))
    assert not poll.changed(False, False)


def test_a_changed_answer_reruns():
    assert poll.changed((2, False), (1, False))
    assert poll.changed("ended", (1, False))
    assert poll.changed(True, False)  # a link just revealed
