"""Serving the table from a laptop: gunicorn's worker and settings, the address the phones open, its announcement."""
