"""Storage: SQLAlchemy 2 models, the database (SQLite by default, PostgreSQL by URL), the
double-entry ledger and accounts."""
