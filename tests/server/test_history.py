"""The hand history over a real server (platform.md "Hand history"): a replay shows each step
as the live table showed it to that player, and the seed, with the actions in full, only once
the hand is over."""

from __future__ import annotations

import asyncio
import hashlib
import re
from pathlib import Path
from typing import Any

from mazziere.poker.actions import Action as PokerAction
from mazziere.poker.actions import Draw
from mazziere.poker.events import Drew, Event
from mazziere.server.store import hands

from .live import Client, live_server

PREFERRED = ("replace", "draw", "wait", "fold")
"""The player's choices, best first: to the draw at no cost, stand pat, never a showdown (in
the second round the player folds), so the computer's cards are never shown by the rules."""


def tokens(value: Any) -> set[str]:
    """Every word of every text anywhere in a JSON answer (card codes stand alone in them:
    ``draw 7h 9h``, ``["7h", "9h"]``, ``discarded=7h,9h``)."""
    if isinstance(value, str):
        return set(re.split(r"[\s,=]+", value))
    if isinstance(value, dict):
        return set().union(*(tokens(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(tokens(v) for v in value)) if value else set()
    return set()


def choose(legal: list[dict[str, Any]]) -> str:
    texts = [a["text"] for a in legal]
    return next((t for t in PREFERRED if t in texts), texts[0])


async def play_until_the_computer_discards(c: Client, table: int) -> None:
    """Play until the computer has replaced at least one card (its ``drew`` event, with the
    count any player sees, arrived); the player then has a decision pending, the game runs."""
    acted = -1
    for _ in range(400):
        drew = [
            e
            for m in c.messages
            if m["type"] == "table"
            for e in m["events"]
            if e["type"] == "drew" and e["seat"] == 1 and e["count"] > 0
        ]
        t = c.tables[table]
        if drew and t["legal"]:
            return
        assert not (t["view"] or {}).get("result"), "the game ended before the computer drew"
        if t["legal"] and t["view"]["current"] == 0 and t["state_no"] != acted:
            acted = t["state_no"]
            await c.send(
                {
                    "type": "action",
                    "table": table,
                    "state_no": acted,
                    "action": choose(t["legal"]),
                }
            )
        c.new.clear()
        await asyncio.wait_for(c.new.wait(), 30)
    raise AssertionError("the computer never replaced a card")


async def test_replay_never_shows_the_other_seats_discards_before_the_end(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("greta")
        r = await live.post("/api/tables", a["token"], {"game": "poker", "level": "normal"})
        assert r.status_code == 200, r.text
        table = r.json()["id"]
        c = await live.connect(a["token"])
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["seat"] == 0)
        await c.send({"type": "start", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        await play_until_the_computer_discards(c, table)

        (listed,) = await live.get("/api/history", a["token"])
        assert listed["status"] == "playing" and "seed" not in listed
        hand = listed["hand"]
        # what the server recorded: the computer's draw, the cards it threw away and got
        async with live.server.db.session() as db:
            rows = await hands.actions_of(db, hand)
        # the steps of that deal: after the one that dealt it (0: the first deal, dealt at
        # the start)
        starts = [r.seq for r in rows if any(t.startswith("deal_started ") for t, _, _ in r.events)]
        draws = [(r, PokerAction.parse(r.action)) for r in rows if r.seat == 1]
        ((drawn, act),) = [(r, x) for r, x in draws if isinstance(x, Draw) and x.cards]
        assert isinstance(act, Draw)
        discarded = {str(x) for x in act.cards}
        (own,) = [Event.parse(t) for t, only, _ in drawn.events if only == 1]
        assert isinstance(own, Drew) and own.received
        secret = discarded | {str(x) for x in own.received}
        deal_from = max([0, *(s for s in starts if s < drawn.seq)])

        rep = await live.get(f"/api/history/{hand}", a["token"])
        assert rep["seed"] is None and rep["seat"] == 0
        # nowhere in this deal's steps (nor the deal as dealt, for the first): not the action,
        # its structured form, the events, the moves or the views
        checked = [s for s in rep["steps"] if s["seq"] > deal_from]
        assert checked and drawn.seq in [s["seq"] for s in checked]
        if deal_from == 0:
            checked.append({"initial": rep["initial"]})
        for s in checked:
            assert not tokens(s) & secret, (secret, s)
        (step,) = [s for s in rep["steps"] if s["seq"] == drawn.seq]
        assert step["action"] is None and step["act"] is None and step["moves"] is None
        (count,) = [e for e in step["events"] if e["type"] == "drew"]  # how many: public
        assert count["count"] == len(discarded) and count["discarded"] == count["received"] == []

        # the hand over (the player leaves: a forfeit), its seed is revealed: what the seed
        # tells anyone, the actions in full, shows; the events stay as the player saw them
        await c.send({"type": "leave", "table": table})
        await c.wait(lambda m: m["type"] == "table" and m["seat"] is None)
        (listed,) = await live.get("/api/history", a["token"])
        assert listed["status"] == "done"
        rep = await live.get(f"/api/history/{hand}", a["token"])
        assert rep["seed"] is not None
        assert hashlib.sha256(bytes.fromhex(rep["seed"])).hexdigest() == rep["commitment"]
        (step,) = [s for s in rep["steps"] if s["seq"] == drawn.seq]
        assert step["action"] == drawn.action
        assert set(step["act"]["cards"]) == discarded
        (count,) = [e for e in step["events"] if e["type"] == "drew"]
        assert count["discarded"] == count["received"] == []
        await c.close()
