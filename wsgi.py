"""The checkout's WSGI entry point (``gunicorn wsgi:app``, ``flask --app wsgi``): the package's own, ``companion.wsgi``."""

from companion.wsgi import app  # noqa: F401
