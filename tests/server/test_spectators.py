"""Spectators. A player who watches a table gets its updates with the view
for no seat: no hand, no legal actions, the events anyone may see; their moves are refused;
``leave`` stops the updates, and sitting down makes them a player."""

from __future__ import annotations

import asyncio
from pathlib import Path

from .live import live_server
from .test_presence import seat_at, uno_table


async def test_a_spectator_sees_the_table_but_no_hand_and_cannot_act(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a, b = await live.signup("aurora"), await live.signup("bianca")
        table = await uno_table(live, a["token"], seats=3, decision_seconds=3600)
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        await seat_at(ca, table)
        n = len(ca.messages)
        await ca.send({"type": "start", "table": table})
        await ca.wait(lambda m: m["type"] == "table" and m["view"] is not None, start=n)
        # the game has started and every other seat has a computer player: bianca watches
        await cb.send({"type": "watch", "table": table})
        first = await cb.wait(lambda m: m["type"] == "table" and m["table"] == table)
        assert first["watching"] and first["seat"] is None and first["full"]
        assert first["legal"] == [] and first["view"]["hand"] == []
        assert sum(first["view"]["hand_counts"]) > 0
        assert first["seats"][0]["name"] == "aurora"
        # aurora plays: bianca sees the move, never a card that is not public
        n = len(cb.messages)
        mine = await ca.wait(lambda m: m["type"] == "table" and m["legal"])
        await ca.send(
            {
                "type": "action",
                "table": table,
                "state_no": mine["state_no"],
                "action": mine["legal"][0]["text"],
            }
        )
        seen = await cb.wait(lambda m: m["type"] == "table" and m["events"], start=n)
        assert seen["watching"] and seen["view"]["hand"] == []
        for e in seen["events"]:
            if e["type"] in ("drew", "dealt"):
                assert not e.get("cards"), e  # another's drawn cards: a count only
        # a spectator's move is refused
        n = len(cb.messages)
        await cb.send(
            {"type": "action", "table": table, "state_no": seen["state_no"], "action": "draw"}
        )
        err = await cb.wait(lambda m: m["type"] == "error", start=n)
        assert err["code"] == "not_seated"
        # leave: no more updates for bianca
        await cb.send({"type": "leave", "table": table})
        actor = live.server.tables[table]
        for _ in range(100):
            if not actor.watchers:
                break
            await asyncio.sleep(0.02)
        assert not actor.watchers
        await ca.close()
        await cb.close()
