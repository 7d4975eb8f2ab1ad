"""Table and hand ids: one range, written here once, for the protocol's schema
(:mod:`mazziere.server.protocol`), the REST paths (:mod:`mazziere.server.routes.deps`) and the
database's id columns (:mod:`mazziere.server.store.models`, 32-bit ``INTEGER`` on PostgreSQL;
``tests/server/test_ids.py`` holds the columns to it).

An id outside the range names no table and no hand: it is answered ``no_table`` or ``no_hand``,
as an unknown id in the range is, and never reaches the database (PostgreSQL would refuse to
compare it with a 32-bit column, where SQLite just finds no row).
"""

from __future__ import annotations

ID_BITS = 32
"""The width of the id columns (signed)."""
MIN_ID = 1
MAX_ID = (1 << (ID_BITS - 1)) - 1
"""The largest id a column holds: 2,147,483,647."""


def in_range(value: int) -> bool:
    """Whether ``value`` may be a table's or a hand's id.

    >>> in_range(1), in_range(MAX_ID), in_range(MAX_ID + 1), in_range(0)
    (True, True, False, False)
    """
    return MIN_ID <= value <= MAX_ID
