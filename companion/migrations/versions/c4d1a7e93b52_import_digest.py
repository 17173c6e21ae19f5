"""import_digest: a session brought in from a file keeps its identity, unique in its group among the sessions not
removed, so the same file brought in from several phones at the same instant is stored once

Revision ID: c4d1a7e93b52
Revises: 5e8a1c4f7b21
Create Date: 2026-12-07 09:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c4d1a7e93b52'
down_revision = '5e8a1c4f7b21'
branch_labels = None
depends_on = None

# A removed session (in the bin, or its tombstone: companion/groups/bin.py) leaves the index, and the
# session can be brought in again.
NOT_REMOVED = sa.text("status != 'removed'")


def upgrade():
    # Sessions brought in before keep None: the index holds those brought in from now on (two identical
    # sessions already in a group, from before, do not stop the upgrade).
    op.add_column('tables', sa.Column('import_digest', sa.String(length=64), nullable=True))
    op.create_index('uq_tables_group_id_import_digest', 'tables', ['group_id', 'import_digest'], unique=True,
                    sqlite_where=NOT_REMOVED, postgresql_where=NOT_REMOVED)


def downgrade():
    op.drop_index('uq_tables_group_id_import_digest', table_name='tables')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('import_digest')
