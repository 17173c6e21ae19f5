"""What keeps every phone current: each table's head read cheaply, the change board, the kept renderings."""
