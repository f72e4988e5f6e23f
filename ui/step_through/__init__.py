"""The Step-through page: the recorded SMO run, its figures and text, and the step
player (Python side; its script is in ui/browser/)."""
