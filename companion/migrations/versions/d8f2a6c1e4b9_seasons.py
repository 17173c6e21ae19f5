"""seasons: a group starts its own seasons (a name and a first day); before its first, its seasons are quarters

Revision ID: d8f2a6c1e4b9
Revises: b7e2c4a91f30
Create Date: 2026-12-07 19:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd8f2a6c1e4b9'
down_revision = 'b7e2c4a91f30'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'seasons',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('starts_on', sa.Date(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('group_id', 'starts_on'),
    )
    op.create_index(op.f('ix_seasons_group_id'), 'seasons', ['group_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_seasons_group_id'), table_name='seasons')
    op.drop_table('seasons')
