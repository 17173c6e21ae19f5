"""members, keepers, the bin and the group's log: a private group's phones kept on the server, a removed session or
group kept in the bin with every entry until its time there is up, and what the keepers did

The phones of a group are known to the server from now on: a phone whose cookie names a group from before is made
its member when it next comes (``companion.groups.members.from_cookie``), for as long as the group's invitation is
the one of those days (``groups.invited_at`` stays NULL here until a keeper makes a new one). Nothing already
removed comes back: a session removed before this has no entries left (``removed_at`` NULL: a tombstone), and
neither has a group removed before.

Revision ID: b7e2c4a91f30
Revises: c4d1a7e93b52
Create Date: 2026-12-07 06:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7e2c4a91f30'
down_revision = 'c4d1a7e93b52'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('groups', schema=None) as batch_op:
        batch_op.add_column(sa.Column('removed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('invited_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('removed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('removed_from', sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column('removed_with_group', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        'members',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('device', sa.String(length=32), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('keeper', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('seen_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('removed_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id'], name=op.f('fk_members_group_id_groups')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_members')),
        sa.UniqueConstraint('group_id', 'device', name=op.f('uq_members_group_id_device')),
        sa.UniqueConstraint('group_id', 'number', name=op.f('uq_members_group_id_number')),
    )
    with op.batch_alter_table('members', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_members_device'), ['device'], unique=False)
        batch_op.create_index(batch_op.f('ix_members_group_id'), ['group_id'], unique=False)
    op.create_table(
        'group_log',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('by_name', sa.String(length=40), nullable=False),
        sa.Column('by_number', sa.Integer(), nullable=True),
        sa.Column('details', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id'], name=op.f('fk_group_log_group_id_groups')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_group_log')),
    )
    with op.batch_alter_table('group_log', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_group_log_group_id'), ['group_id'], unique=False)


def downgrade():
    op.drop_table('group_log')
    op.drop_table('members')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('removed_with_group')
        batch_op.drop_column('removed_from')
        batch_op.drop_column('removed_at')
    with op.batch_alter_table('groups', schema=None) as batch_op:
        batch_op.drop_column('invited_at')
        batch_op.drop_column('removed_at')
