"""rate_counts replace join_attempts: one atomic counter per kind, client and window (companion/web/limits.py)

Revision ID: 9b3f5c2d1e07
Revises: 7c1d2e9a4b60
Create Date: 2026-12-01 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9b3f5c2d1e07'
down_revision = '7c1d2e9a4b60'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'rate_counts',
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('client', sa.String(length=64), nullable=False),
        sa.Column('window_start', sa.DateTime(timezone=True), nullable=False),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('kind', 'client', 'window_start', name=op.f('pk_rate_counts')),
    )
    with op.batch_alter_table('rate_counts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rate_counts_window_start'), ['window_start'], unique=False)
    # Failed join attempts of the last ten minutes: nothing worth carrying over.
    with op.batch_alter_table('join_attempts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_join_attempts_client'))
        batch_op.drop_index(batch_op.f('ix_join_attempts_at'))
    op.drop_table('join_attempts')


def downgrade():
    op.create_table(
        'join_attempts',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('client', sa.String(length=64), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_join_attempts')),
    )
    with op.batch_alter_table('join_attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_join_attempts_at'), ['at'], unique=False)
        batch_op.create_index(batch_op.f('ix_join_attempts_client'), ['client'], unique=False)
    with op.batch_alter_table('rate_counts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rate_counts_window_start'))
    op.drop_table('rate_counts')
