"""Browser tests: the real app under gunicorn, driven through Debian's Chromium at phone size."""
