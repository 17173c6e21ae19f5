"""What the benchmark serves: the real app, plus one bare route to compare against.

The bare route lives in the same Flask app (same gunicorn, same request
hooks: session, security headers, compression), so the ratios measure what
the app's own work costs on top of the framework. It exists only here, never
in the product.
"""

from __future__ import annotations

from companion import create_app

app = create_app()


@app.get("/bench/bare")
def bare() -> tuple[str, int, dict]:
    """The baseline: a Flask route that does nothing."""
    return "ok", 200, {"Cache-Control": "no-store"}
