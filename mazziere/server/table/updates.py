"""Every ``table`` message (:class:`~mazziere.server.protocol.TableUpdate`) a table sends, built
here and nowhere else: a seated player's (its own view and legal actions, computed once
together, the events it may see and the seconds left to decide), a spectator's (the view for
no seat) and a leaver's farewell (no game any more).

An update carries what changed since the recipient's last one (a *delta*): the table's notes
it has not received yet and the seat list only when it changed. A *full* update (a join or a
reconnection, a leaver's farewell, a seat that fell further behind than the table's log
holds) carries the seat list and the last :data:`FULL_NOTES` notes."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Any, Protocol

from mazziere.game import TableGame, TableRules
from mazziere.server import protocol as P
from mazziere.server.table.seats import SeatInfo, Watcher
from mazziere.server.timers import TableTimers

FULL_NOTES = 10
"""How many of the table's last notes a full update carries."""


class TableFacts(Protocol):
    """What an update reads of a table (:class:`~mazziere.server.table.state.TableState`)."""

    id: int
    game: str
    state_no: int
    status: str
    table_game: TableGame | None
    rules: TableRules
    credit_session: int | None
    credit: int | None
    timers: TableTimers
    notes_total: int
    seats: list[SeatInfo]
    watchers: dict[int, Watcher]

    @property
    def log(self) -> Sequence[P.TableNote]: ...

    def public_seats(self) -> tuple[int, list[dict[str, Any]]]: ...


def notes_for(
    log: Sequence[P.TableNote], total: int, sent: int | None
) -> tuple[bool, int, list[P.TableNote]]:
    """What of the table's log goes to a seat that received its first ``sent`` notes
    (``None``: nothing yet): ``(full, log_from, notes)``. ``log`` holds the last notes of the
    ``total`` the table has had, so note ``k`` (counted from 0) is ``log[k - total + len(log)]``
    while it is held. A seat up to date gets the notes it lacks; one that has had nothing, or
    lacks notes the log no longer holds, gets a full update (the last :data:`FULL_NOTES`).

    >>> notes_for(["a", "b", "c"], 5, 3)  # notes 3 and 4 are new
    (False, 3, ['b', 'c'])
    >>> notes_for(["a", "b", "c"], 5, 5)  # nothing new
    (False, 5, [])
    >>> notes_for(["a", "b", "c"], 5, 1)  # note 1 is no longer held: full
    (True, 2, ['a', 'b', 'c'])
    >>> notes_for(["a", "b", "c"], 5, None)
    (True, 2, ['a', 'b', 'c'])
    """
    held = len(log)
    if sent is None or total - sent > held:
        notes = list(islice(log, max(0, held - FULL_NOTES), None))
        return True, total - len(notes), notes
    return False, sent, list(islice(log, held - (total - sent), None))


def seat_update(
    table: TableFacts, seat: int | None, events: list[dict[str, Any]], *, full: bool = False
) -> P.TableUpdate:
    """The update for ``seat`` (``None``: one who just left, who sees no game any more), with
    ``events``: what changed since this seat's last update, or all of it when ``full`` (or
    when the seat is due a full one). The seat list goes only when it changed since the seat's
    last update; a casino table adds its session's credit to the game's view; a full update
    carries the seat's play-by-play. Once built, the seat counts these notes and this seat
    list as sent."""
    credit = table.credit if table.credit_session is not None else None
    version, seats = table.public_seats()
    info = table.seats[seat] if seat is not None else None
    sent = None if full or info is None else info.notes_sent
    full, log_from, notes = notes_for(table.log, table.notes_total, sent)
    changed = full or info is None or info.seats_sent != version
    time_left = table.timers.time_left()
    view: dict[str, Any] | None = None
    legal: list[dict[str, Any]] = []
    if table.table_game is not None and seat is not None:
        view, legal = table.table_game.seat_view(seat)
    if table.rules.session_money and seat is not None:
        view = {**(view or {}), "credit": credit}
    update = P.TableUpdate(
        table=table.id,
        game=table.game,
        state_no=table.state_no,
        status=table.status,
        seat=seat,
        full=full,
        seats=seats if changed else None,
        view=view,
        legal=legal,
        events=events,
        time_left=time_left,
        log=notes,
        log_from=log_from,
        recent=list(info.recent) if full and info is not None else None,
    )
    if info is not None:  # built: this seat now has these notes and this seat list
        info.notes_sent, info.seats_sent = table.notes_total, version
    return update


def watch_update(table: TableFacts, account: int) -> P.TableUpdate:
    """The next update for the spectator ``account``: the view for no seat, no legal actions,
    the events anyone may see that it has not received, and what changed of the notes and the
    seat list since its last update."""
    w = table.watchers[account]
    version, seats = table.public_seats()
    full, log_from, notes = notes_for(table.log, table.notes_total, w.notes_sent)
    events, w.pending = w.pending, []
    update = P.TableUpdate(
        table=table.id,
        game=table.game,
        state_no=table.state_no,
        status=table.status,
        seat=None,
        full=full,
        seats=seats if full or w.seats_sent != version else None,
        view=table.table_game.view(None) if table.table_game is not None else None,
        legal=[],
        events=events,
        time_left=table.timers.time_left(),
        log=notes,
        log_from=log_from,
        watching=True,
    )
    w.notes_sent, w.seats_sent = table.notes_total, version
    return update
