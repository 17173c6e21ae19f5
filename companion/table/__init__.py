"""One table being played: its own entry kinds, the log, the state, the wording of entries, recording, seating, the bell.

Between the pure rules (``companion.rules``) and the views: the views call this package to read a
table and to record what a phone sent; it calls the rules to know what the entries mean.
"""
