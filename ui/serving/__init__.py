"""Serving a class: the fit endpoint, the fit workers and their budget, start-up and
warm-up, and the warm-start store of the endpoint."""
