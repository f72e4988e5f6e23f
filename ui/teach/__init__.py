"""The Teach a class page (teacher): ``summary`` (the dashboard in numbers: plain Python,
tested), ``figures`` (its charts, pure), ``builder`` (screens the teacher adds) and ``views``
(starting or reopening a class, the code and QR code, the controls, the live dashboard).
"""
