"""Building what a seated player receives after every change: the typed ``table`` message
(:class:`~mazziere.server.protocol.TableUpdate`) with this seat's view, its legal actions
(computed once, with the view), the events it may see and the seconds left to decide."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mazziere.game import GameSession
from mazziere.server import protocol as P


def table_update(
    *,
    table: int,
    game: str,
    state_no: int,
    status: str,
    seat: int | None,
    seats: list[dict[str, Any]],
    session: GameSession | None,
    events: list[dict[str, Any]],
    time_left: float | None,
    log: Sequence[P.TableNote],
    extra_view: dict[str, Any] | None = None,
) -> P.TableUpdate:
    """The update for ``seat`` (``None``: one who just left, who sees no game any more).
    ``extra_view`` adds table facts to the game's view (a casino session's credit)."""
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
        seats=seats,
        view=view,
        legal=legal,
        events=events,
        time_left=time_left,
        log=list(log)[-10:],
    )
