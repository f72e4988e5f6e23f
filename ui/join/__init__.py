"""The Join a class page (students): ``flow`` (joining and rejoining, the open screens, an
answer's way to the store and what the student is told: plain Python, tested) and ``views``
(the page's parts in Streamlit: the join form, a screen, the watch that follows the teacher).
"""
