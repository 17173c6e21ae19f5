"""groups: every table is a session of one group; the sessions played so far land in the server's first group

Revision ID: 5e8a1c4f7b21
Revises: 9b3f5c2d1e07
Create Date: 2026-12-05 08:00:00

"""
from datetime import UTC, datetime
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5e8a1c4f7b21'
down_revision = '9b3f5c2d1e07'
branch_labels = None
depends_on = None

JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def upgrade():
    groups = op.create_table(
        'groups',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('invite_token', sa.String(length=32), nullable=False),
        sa.Column('join_code', sa.String(length=6), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('removed', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_groups')),
        sa.UniqueConstraint('invite_token', name=op.f('uq_groups_invite_token')),
        sa.UniqueConstraint('join_code', name=op.f('uq_groups_join_code')),
        sqlite_autoincrement=True,
    )
    # The household's group, unnamed (the pages call it in each reader's language): everything played so far.
    op.bulk_insert(groups, [{
        'id': 1, 'name': '', 'invite_token': secrets.token_urlsafe(16),
        'join_code': ''.join(secrets.choice(JOIN_ALPHABET) for _ in range(6)), 'created_at': datetime.now(UTC),
    }])
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("SELECT setval(pg_get_serial_sequence('groups', 'id'), 1)")
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('group_id', sa.Integer(), nullable=True))
    op.execute("UPDATE tables SET group_id = 1")
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.alter_column('group_id', existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(batch_op.f('ix_tables_group_id'), ['group_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_tables_group_id_groups'), 'groups', ['group_id'], ['id'])


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_tables_group_id_groups'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_tables_group_id'))
        batch_op.drop_column('group_id')
    op.drop_table('groups')
