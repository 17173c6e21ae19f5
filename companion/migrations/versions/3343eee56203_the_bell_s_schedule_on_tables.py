"""the bell's schedule on tables: the opening entry, the public plan, the (maybe hidden) due moment

Revision ID: 3343eee56203
Revises: 2f069ff96b15
Create Date: 2026-11-30 01:36:37.272538

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3343eee56203'
down_revision = '2f069ff96b15'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bell_seq', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('bell_plan', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('bell_due_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('bell_due_at')
        batch_op.drop_column('bell_plan')
        batch_op.drop_column('bell_seq')
