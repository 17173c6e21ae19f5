"""The session review: standings, breakdowns, charts, player statistics, CSV and JSON files.

Flask-free except ``history``, ``exchange`` and ``wording``, which query and write the database
through the app's models and ``companion.table.recording``, and the words and figures, which are worded in
the reader's language when shown (``companion.rules.words``, ``companion.i18n.number``).
"""
