"""The WSGI entry point of an installed companion: ``gunicorn companion.wsgi:app``, ``flask --app companion.wsgi``."""

from companion import create_app

app = create_app()
