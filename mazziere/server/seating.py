"""Which tables each account sits at, kept up to date as seats change, so that a connection
opening or closing finds its tables without looking at every table of the server."""

from __future__ import annotations

from typing import Protocol


class Mirror(Protocol):
    """A copy of the directory kept elsewhere (the cluster's, in Redis)."""

    def seat(self, account: int, table: int) -> None: ...

    def unseat(self, account: int, table: int) -> None: ...


class Seating:
    """Account -> the ids of the tables where it holds a seat.

    >>> s = Seating()
    >>> s.seat(7, 3); s.seat(7, 1); s.tables_of(7)
    [1, 3]
    >>> s.unseat(7, 3); s.unseat(7, 1); s.tables_of(7), len(s)
    ([], 0)
    """

    def __init__(self, mirror: Mirror | None = None) -> None:
        self._by_account: dict[int, set[int]] = {}
        self.mirror = mirror
        """Told every change (several processes: the directory every process reads)."""

    def seat(self, account: int, table: int) -> None:
        """``account`` took a seat at ``table``."""
        self._by_account.setdefault(account, set()).add(table)
        if self.mirror is not None:
            self.mirror.seat(account, table)

    def unseat(self, account: int, table: int) -> None:
        """``account`` left its seat at ``table`` (nothing if it had none)."""
        if self.mirror is not None:
            self.mirror.unseat(account, table)
        tables = self._by_account.get(account)
        if tables is not None:
            tables.discard(table)
            if not tables:
                del self._by_account[account]

    def forget(self, account: int, table: int) -> None:
        """This process no longer serves ``table`` (another took it): drop the entry here only,
        not in the mirror, where the seat still holds."""
        tables = self._by_account.get(account)
        if tables is not None:
            tables.discard(table)
            if not tables:
                del self._by_account[account]

    def tables_of(self, account: int) -> list[int]:
        """The tables where ``account`` is seated, by id."""
        return sorted(self._by_account.get(account, ()))

    def accounts(self) -> list[int]:
        """Every account seated somewhere."""
        return sorted(self._by_account)

    def __len__(self) -> int:
        """How many accounts are seated somewhere."""
        return len(self._by_account)
