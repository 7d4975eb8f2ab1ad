"""Alembic migrations of the server's schema (applied at start by mazziere serve)."""
