"""The typed refusal of a table: a request the table cannot take (no free seat, not seated,
a stale state number...), answered with its code and changing nothing. Apart from the actor
so that the hub and the REST routes name it without loading the actor."""

from __future__ import annotations

from mazziere.errors import MazziereError


class TableError(MazziereError):
    default_code = "table_error"
