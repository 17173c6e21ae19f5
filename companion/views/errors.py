"""Error pages in the app's layout, and a 503 when the database is away."""

from __future__ import annotations

from flask import Flask, current_app, render_template
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from ..extensions import db
from ..rules.words import N_, _

# Worded when a page is rendered, in the phone's language.
MESSAGES = {
    400: (N_("That request did not make sense"), N_("Something in it was missing or malformed. Go back and try again.")),
    403: (N_("This phone is just watching"),
          N_("Nothing is recorded from a watching phone. To record, say whose phone it is under “Whose phone is "
             "this?” on the table page.")),
    404: (N_("Nothing here"), N_("There is no page at this address. A table link may have been mistyped.")),
    405: (N_("Not like that"), N_("This address does not take that kind of request.")),
    413: (N_("Too much at once"), N_("What was sent is larger than the app accepts.")),
    414: (N_("That address is too long"), N_("Check the link, or open the table again from the home page.")),
    422: (N_("That could not be recorded"), N_("Go back and check the form.")),
    429: (N_("Slow down"), N_("Too many tries in a short time. Wait a few minutes and try again.")),
    431: (N_("Too much sent with the request"),
          N_("The browser sent more than the app accepts. Clear this site's cookies, then try again.")),
    500: (N_("Something went wrong on our side"), N_("Nothing was recorded. Go back and try again.")),
    503: (N_("The score pad is unavailable"),
          N_("The database could not be reached; nothing was recorded. Try again in a moment.")),
}


def render_error(status: int, detail: str | None = None) -> tuple[str, int]:
    """An error page in the layout, with a way back."""
    title, text = MESSAGES.get(status, MESSAGES[400 if status < 500 else 500])
    return render_template("errors/error.html", status=status, title=_(title), text=detail or _(text)), status


def init_app(app: Flask) -> None:
    """Register the handlers."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int]:
        return render_error(400, _("This form has expired or came from elsewhere. Reload the page and try again."))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int]:
        return render_error(error.code or 500)

    @app.errorhandler(OperationalError)
    def database_away(error: OperationalError) -> tuple[str, int, dict]:
        try:
            db.session.rollback()
        except OperationalError:
            pass  # the connection is gone; nothing was committed on it
        current_app.logger.error("database unavailable: %s", error)
        return *render_error(503), {"Retry-After": "5"}

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[str, int]:
        db.session.rollback()
        current_app.logger.exception("unexpected error")
        return render_error(500)
