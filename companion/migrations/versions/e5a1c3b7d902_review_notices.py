"""review notices: PostgreSQL announces a table added and a season's change too, so a kept review page knows

Revision ID: e5a1c3b7d902
Revises: d8f2a6c1e4b9
Create Date: 2026-12-07 21:30:00

"""
from alembic import op

from companion.models import SEASONS_TRIGGER, SEASONS_TRIGGER_DDL, TRIGGER, TRIGGER_DDL


# revision identifiers, used by Alembic.
revision = 'e5a1c3b7d902'
down_revision = 'd8f2a6c1e4b9'
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return  # SQLite has no notifications: a kept page asks its data version (companion/commits.py)
    for statement in TRIGGER_DDL + SEASONS_TRIGGER_DDL:  # the tables' trigger again, now on INSERT too
        op.execute(statement)


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"DROP TRIGGER IF EXISTS {SEASONS_TRIGGER} ON seasons")
    op.execute("DROP FUNCTION IF EXISTS companion_season_changed()")
    op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER} ON tables")
    op.execute(f"""CREATE TRIGGER {TRIGGER} AFTER UPDATE OR DELETE ON tables
    FOR EACH ROW EXECUTE FUNCTION companion_table_changed()""")
