"""entries.words: each entry's sentence as data, worded in each reader's language when shown

Revision ID: 5e8a1c4f2b93
Revises: 9b3f5c2d1e07
Create Date: 2026-12-01 13:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5e8a1c4f2b93'
down_revision = '9b3f5c2d1e07'
branch_labels = None
depends_on = None


def upgrade():
    # Entries written before keep their English summary, shown as it is.
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('words', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.drop_column('words')
