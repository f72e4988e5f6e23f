"""Pieces every page uses: session state, the model sidebar, number formatting, figures,
undo history, navigation, the fit call and the solvers' descriptions."""
