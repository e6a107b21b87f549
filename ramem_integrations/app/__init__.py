"""The application: the ``ramem`` command, its demo and its backups."""
