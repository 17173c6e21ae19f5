"""A table found by its token, as every game's views find it: a link that leads nowhere, or to a table this phone
may not see, is the same 404.

What the table page shows, and its live region kept per table version, are rendered by ``companion.live.page``
(for an answer and for a push alike).
"""

from __future__ import annotations

import sqlalchemy as sa
from flask import abort
from sqlalchemy.orm import joinedload

from ..extensions import db
from ..models import REMOVED, TOKEN_SHAPE, Table
from ..web import membership


def token_shaped(token: str | None) -> bool:
    """Whether ``token`` could be a table token."""
    return bool(token) and TOKEN_SHAPE.fullmatch(token) is not None


# The seats come in the same query: half the cost of a second one for them, on every request. Built once:
# building the statement cost a fifth of the read on every page.
# A session in the bin is found by no link until it is restored.
_BY_TOKEN, _BY_WATCH_TOKEN = (sa.select(Table).where(column == sa.bindparam("token"), Table.status != REMOVED)
                              .options(joinedload(Table.seats)) for column in (Table.token, Table.watch_token))


def table_or_404(token: str, *, watch: bool = False) -> Table:
    """The table behind a player (or watch) token; 404 that reveals nothing otherwise."""
    if not token_shaped(token):
        abort(404)
    table = db.session.scalars(_BY_WATCH_TOKEN if watch else _BY_TOKEN, {"token": token}).unique().first()
    # A phone taken out of the table's group: the same 404 as a link that leads nowhere (its page stops asking).
    if table is None or membership.barred(table.group_id):
        abort(404)
    return table
