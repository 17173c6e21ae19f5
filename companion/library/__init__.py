"""A group's library as a whole: its backups, and its export and import."""
