"""The Playground page: the click canvas (Python side; its script is in ui/browser/) and
the teacher links."""
