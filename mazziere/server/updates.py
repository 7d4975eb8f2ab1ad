"""Building what a seated player receives after every change: the typed ``table`` message
(:class:`~mazziere.server.protocol.TableUpdate`) with this seat's view, its legal actions
(computed once, with the view), the events it may see and the seconds left to decide.

An update carries what changed since the seat's last one (a *delta*): the table's notes it
has not received yet and the seat list only when it changed. A *full* update (a join or a
reconnection, a leaver's farewell, a seat that fell further behind than the table's log
holds) carries the seat list and the last :data:`FULL_NOTES` notes."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Any

from mazziere.game import GameSession
from mazziere.server import protocol as P

FULL_NOTES = 10
"""How many of the table's last notes a full update carries."""


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


def table_update(
    *,
    table: int,
    game: str,
    state_no: int,
    status: str,
    seat: int | None,
    seats: list[dict[str, Any]] | None,
    session: GameSession | None,
    events: list[dict[str, Any]],
    time_left: float | None,
    full: bool,
    log: list[P.TableNote],
    log_from: int,
    extra_view: dict[str, Any] | None = None,
    recent: list[P.Recent] | None = None,
) -> P.TableUpdate:
    """The update for ``seat`` (``None``: one who just left, who sees no game any more).
    ``seats`` is ``None`` when this seat's last update had the same list; ``log`` the notes
    numbered ``log_from`` on (see :func:`notes_for`). ``extra_view`` adds table facts to the
    game's view (a casino session's credit); ``recent`` is the seat's play-by-play, for a full
    update."""
    view: dict[str, Any] | None = None
    legal: list[dict[str, Any]] = []
    if session is not None and seat is not None:
        view, legal = session.seat_view(seat)
    if extra_view is not None and seat is not None:
        view = {**(view or {}), **extra_view}
    return P.TableUpdate(
        table=table,
        game=game,
        state_no=state_no,
        status=status,
        seat=seat,
        full=full,
        seats=seats,
        view=view,
        legal=legal,
        events=events,
        time_left=time_left,
        log=log,
        log_from=log_from,
        recent=recent,
    )
