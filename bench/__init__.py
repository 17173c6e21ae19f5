"""`make bench`: the app under gunicorn on loopback, measured against a bare Flask route in the same run."""
