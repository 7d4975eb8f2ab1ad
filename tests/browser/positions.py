"""Putting a live table in a position written as text (docs/positions.md), so that a browser
test can show the page any decision of any game without playing until it comes: the table's
actor takes the game the position describes, and every seated player receives the update the
server builds for it (its own view and legal actions), exactly as after a move."""

from __future__ import annotations

import copy
from typing import Any

from mazziere import casino, poker, uno

from .harness import LiveServer


async def _put(live: LiveServer, table: int, text: str) -> int:
    actor = live.server.tables[table]
    async with actor.lock:
        session = actor.table_game
        assert session is not None, "start the game before putting it in a position"
        work: Any = copy.copy(session)
        if actor.game == "uno":
            work.state = uno.parse_position(text, work.rules)
        elif actor.game == "casino":
            work.round = casino.parse_position(text, work.rules)
        elif actor.game == "poker":
            work.state = poker.parse_position(text, work.rules)
            work._legal = None
        else:
            raise ValueError(actor.game)
        actor.table_game = work
        actor.status = "open" if work.is_over else "playing"
        actor.state_no += 1
        actor._schedule_decision()
        await actor._broadcast()
        return actor.state_no


def put_position(live: LiveServer, table: int, text: str) -> int:
    """Put ``table`` in the position ``text``; returns the table's new state number."""
    return live.call(_put(live, table, text))
