"""The language switch at the foot of every page: the phone's choice, kept in its cookie."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for
from werkzeug.wrappers import Response

from .. import i18n
from ..forms import LanguageForm

bp = Blueprint("language", __name__)


def _back(target: str | None) -> str:
    # Only a path of this site: a crafted form must not send the phone elsewhere.
    if target and target.startswith("/") and not target.startswith(("//", "/\\")):
        return target
    return url_for("home.index")


@bp.post("/language")
def choose() -> Response:
    """Read the app in the chosen language from now on, back on the page the switch was pressed on."""
    form = LanguageForm()
    response = redirect(_back(form.next.data), 303)
    if form.validate_on_submit():
        response.set_cookie(
            i18n.COOKIE, form.lang.data, max_age=i18n.COOKIE_AGE, samesite="Lax",
            secure=request.is_secure, httponly=True,
        )
    return response
