"""The session review: standings, breakdowns, charts, player statistics, CSV and JSON files.

Flask-free except ``history`` and ``exchange``, which query and write the
database through the app's models and ``companion.entries``.
"""
