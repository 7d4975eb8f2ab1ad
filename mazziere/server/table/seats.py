"""A seat and a spectator of a table: who holds the seat, and what each has been sent (the
events it has yet to receive, how many of the table's notes, which version of the seat list),
so that each update carries only what changed since the last one."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from mazziere.server import protocol as P

MAX_WATCHERS = 50
"""Spectators a table keeps; a new one past this replaces the one who came first."""
RECENT_LINES = 60
"""How many lines of its play-by-play (events and notes, in order) a seat keeps, to send in
its next full update (a reload, a second device, a reconnection)."""


@dataclass
class SeatInfo:
    account: int | None = None
    username: str = ""
    bot: str | None = None
    connected: bool = False
    held_until: float | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)
    """Events this seat has yet to receive, in their structured forms."""
    notes_sent: int | None = None
    """How many notes of the table's log (counted since the actor started) this seat has
    received; ``None``: its next update is full (a new player, a join, a reconnection)."""
    seats_sent: int = -1
    """The version of the public seat list (``TableState.public_seats``) this seat's last
    update carried."""
    recent: deque[P.Recent] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    """This seat's recent play-by-play, oldest first: the events it was sent and the table's
    notes, in the order they happened."""

    def push(self, event: dict[str, Any]) -> None:
        """An event for this seat: in its next update, and in its play-by-play."""
        self.pending.append(event)
        if self.account is not None:
            self.recent.append(P.Recent(event=event))

    def mark_connected(self) -> None:
        """A join or a reconnection: the player's page may hold nothing of the table, so its
        next update is full."""
        self.connected = True
        self.notes_sent = None

    def public(self) -> dict[str, Any]:
        return {
            "name": self.username or (f"bot ({self.bot})" if self.bot else ""),
            "bot": self.bot is not None,
            "connected": self.connected or self.bot is not None,
            "free": self.account is None and self.bot is None,
        }


@dataclass
class Watcher:
    """A spectator: what it was sent of the table's notes and seat list, and the events
    anyone may see that it has yet to receive."""

    notes_sent: int | None = None
    seats_sent: int = -1
    pending: list[dict[str, Any]] = field(default_factory=list)


def admit(watchers: dict[int, Watcher], account: int) -> Watcher:
    """A new spectator ``account`` (afresh if it was one): past :data:`MAX_WATCHERS` the one who
    came first makes room.

    >>> w = {n: Watcher() for n in range(MAX_WATCHERS)}
    >>> _ = admit(w, 99); len(w), 0 in w, 99 in w
    (50, False, True)
    """
    watchers.pop(account, None)
    while len(watchers) >= MAX_WATCHERS:
        watchers.pop(next(iter(watchers)))
    watchers[account] = Watcher()
    return watchers[account]
