"""A blueprint for the tiny test-only game, built the way a real game's views are: the app registers it as it
does a real game's (``companion.views.init_app``), found through the tiny game's ``VIEWS``."""

from __future__ import annotations

from flask import Blueprint
from companion.forms.fields import IntegerField
from wtforms.validators import InputRequired, NumberRange

from companion.forms import ActionForm
from companion.views import kept_forms
from companion.views.table_forms import record_form
from companion.views.table_page import table_or_404

bp = Blueprint("tiny", __name__)


class ScoreForm(ActionForm):
    player = IntegerField("Player", validators=[InputRequired(), NumberRange(min=0, max=3)])
    points = IntegerField("Points", validators=[InputRequired("Enter the points."), NumberRange(min=-1000, max=1000)])


@bp.post("/t/<token>/tiny/score")
def score(token: str):
    table = table_or_404(token)
    return record_form(table, "score", ScoreForm(),
                       lambda form: {"type": "score", "player": form.player.data, "points": form.points.data})


def table_forms(table, state, seat) -> dict:
    return {"score": ScoreForm(seen=table.last_seq)}


KEPT_FORMS = {"tiny.score": kept_forms.plain(ScoreForm)}
