"""The language switch at the foot of every page: the phone's choice, kept in its cookie."""

from __future__ import annotations

from flask import Blueprint, request, url_for
from werkzeug.wrappers import Response

from .. import i18n
from ..forms import LanguageForm
from ..web.redirects import go, local_path

bp = Blueprint("language", __name__)


@bp.post("/language")
def choose() -> Response:
    """Read the app in the chosen language from now on, back on the page the switch was pressed on."""
    form = LanguageForm()
    # Only a path of this site: a crafted form must not send the phone elsewhere.
    response = go(local_path(form.next.data) or url_for("home.index"))
    if form.validate_on_submit():
        response.set_cookie(
            i18n.COOKIE, form.lang.data, max_age=i18n.COOKIE_AGE, samesite="Lax",
            secure=request.is_secure, httponly=True,
        )
    return response
