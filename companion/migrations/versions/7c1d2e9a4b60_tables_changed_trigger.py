"""tables_changed trigger: PostgreSQL tells every worker when a table's row changes (companion/live/board.py)

Revision ID: 7c1d2e9a4b60
Revises: 3343eee56203
Create Date: 2026-11-30 05:00:00

"""
from alembic import op

from companion.models import TRIGGER, TRIGGER_DDL


# revision identifiers, used by Alembic.
revision = '7c1d2e9a4b60'
down_revision = '3343eee56203'
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return  # SQLite has no notifications: its polls read the row, which is cheap there
    for statement in TRIGGER_DDL:
        op.execute(statement)


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER} ON tables")
    op.execute("DROP FUNCTION IF EXISTS companion_table_changed()")
