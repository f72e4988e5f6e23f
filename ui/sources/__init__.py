"""The Sources page: the documents SVM Lab teaches from (``ui.shared.cite``) and the
conventions the app keeps where they differ (``ui.shared.conventions``)."""
