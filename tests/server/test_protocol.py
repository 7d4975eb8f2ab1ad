"""platform.md "Fairness and security": every client message validated;
a stale number, a malformed or oversized message, an action out of turn or illegal gets a typed
error with a code and changes nothing; a client only ever receives its own view."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import msgspec

from mazziere.server import protocol as P

from .live import live_server
from .test_live_games import play_until_over

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"


def test_json_schema_file_is_up_to_date() -> None:
    expected = json.dumps(P.json_schema(), indent=2, sort_keys=True) + "\n"
    assert SCHEMA_FILE.read_text() == expected, (
        "docs/protocol.schema.json is stale: run python -m mazziere.server.protocol "
        "> docs/protocol.schema.json"
    )


def test_protocol_doc_shows_every_message_type() -> None:
    doc = (SCHEMA_FILE.parent / "protocol.md").read_text()
    for name in (
        "join",
        "leave",
        "start",
        "action",
        "stake",
        "topup",
        "ping",
        "hello",
        "table",
        "error",
        "notice",
        "pong",
    ):
        assert f'"type": "{name}"' in doc, name


def test_protocol_doc_table_examples_are_valid_table_messages() -> None:
    """The ``table`` examples of docs/protocol.md (a full update, then a delta) decode as the
    protocol's ``TableUpdate``, exactly (no field missing, none unknown)."""
    doc = (SCHEMA_FILE.parent / "protocol.md").read_text()
    blocks = re.findall(r"```json\n(.*?)```", doc, re.S)
    tables = [b for b in blocks if '"type": "table"' in b]
    updates = [msgspec.json.decode(b, type=P.TableUpdate) for b in tables]
    assert [u.full for u in updates] == [True, False]
    assert updates[1].seats is None and updates[1].log == []
    assert updates[1].log_from == updates[0].log_from + len(updates[0].log)


async def test_bad_messages_get_typed_errors_and_change_nothing(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a, b = await live.signup("hugo"), await live.signup("ines")
        r = await live.post(
            "/api/tables",
            a["token"],
            {
                "game": "uno",
                "preset": "classic",
                "options": {"match": "single_hand"},
                "seats": 3,
                "decision_seconds": 600,
            },
        )
        table = r.json()["id"]
        ca, cb = await live.connect(a["token"]), await live.connect(b["token"])
        for c in (ca, cb):
            await c.send({"type": "join", "table": table})
            await c.wait(lambda m: m["type"] == "table")
        await ca.send({"type": "start", "table": table})
        await ca.wait(lambda m: m["type"] == "table" and m["status"] == "playing")
        actor = live.server.tables[table]
        state_before, state_no = actor.table_game.state, actor.state_no  # type: ignore[union-attr]
        current = state_before.current
        mover = ca if current == 0 else cb if current == 1 else None
        waiter = cb if current == 0 else ca

        async def expect(c, raw: str | dict, code: str) -> None:  # type: ignore[no-untyped-def]
            n = len(c.messages)
            await c.send_raw(raw if isinstance(raw, str) else json.dumps(raw))
            m = await c.wait(lambda m: m["type"] == "error", start=n)
            assert m["code"] == code, (m, code)

        await expect(ca, "{not json", "malformed")
        await expect(ca, "x" * 5000, "too_large")
        await expect(ca, {"v": 2, "type": "ping"}, "bad_version")
        await expect(ca, {"v": 1, "type": "fly", "table": table}, "malformed")
        await expect(ca, {"v": 1, "type": "action", "table": table}, "malformed")
        await expect(
            ca,
            {"v": 1, "type": "action", "table": 999, "state_no": 1, "action": "draw"},
            "no_table",
        )
        await expect(
            waiter,
            {"v": 1, "type": "action", "table": table, "state_no": state_no - 1, "action": "draw"},
            "stale_state",
        )
        await expect(
            waiter,
            {"v": 1, "type": "action", "table": table, "state_no": state_no, "action": "draw"},
            "not_your_turn",
        )
        await expect(
            waiter,
            {"v": 1, "type": "action", "table": table, "state_no": state_no, "action": "R99"},
            "bad_card",
        )
        await expect(
            waiter,
            {"v": 1, "type": "action", "table": table, "state_no": state_no, "action": "timeout"},
            "server_only",
        )
        if mover is not None and state_before.phase.value == "play":  # not a first-card wild
            held = {str(c) for c in state_before.hands[current]}
            missing = next(t for t in ("R1", "R2", "G5", "B9", "Y7", "GS") if t not in held)
            await expect(
                mover,
                {"v": 1, "type": "action", "table": table, "state_no": state_no, "action": missing},
                "not_in_hand",
            )
        assert actor.table_game.state == state_before and actor.state_no == state_no  # type: ignore[union-attr]
        await ca.close()
        await cb.close()


async def test_no_message_leaks_another_seats_cards_or_the_deck(
    db_url: str, tmp_path: Path
) -> None:
    """Records every message of several full games and finds no card of another seat and no
    deck order in any (hands revealed at the end of a hand excepted, by design), and no seed
    but the one a ``hand_over`` note reveals, whose SHA-256 is its hand's commitment."""
    async with live_server(db_url, tmp_path) as live:
        a, b = await live.signup("lia"), await live.signup("leo")
        clients = [await live.connect(a["token"]), await live.connect(b["token"])]
        for game in range(3):
            r = await live.post(
                "/api/tables",
                a["token"],
                {
                    "game": "uno",
                    "preset": ["classic", "house", "online"][game],
                    "options": {"match": "single_hand"},
                    "seats": 4 if game != 2 else 3,
                },
            )
            table = r.json()["id"]
            for c in clients:
                await c.send({"type": "join", "table": table})
                await c.wait(lambda m, t=table: m["type"] == "table" and m["table"] == t)
            await clients[0].send({"type": "start", "table": table})
            import asyncio

            await asyncio.gather(*(play_until_over(c, table, i) for i, c in enumerate(clients)))
        for seat, c in enumerate(clients):
            # not vacuous: views of every game were received (a game's length is random)
            assert len({m["table"] for m in c.messages if m["type"] == "table" and m["view"]}) == 3
            commitments: dict[int, str] = {}
            for m in c.messages:
                notes = [
                    *(m.get("log") or []),
                    *(r["note"] for r in m.get("recent") or [] if r.get("note")),
                ]
                commitments |= {
                    n["hand"]: n["commitment"] for n in notes if n["note"] == "hand_started"
                }
                text = json.dumps(m)
                for n in notes:
                    if n["note"] == "hand_over":  # the hand is over: its seed is revealed
                        assert (
                            hashlib.sha256(bytes.fromhex(n["seed"])).hexdigest()
                            == commitments[n["hand"]]
                        )
                        text = text.replace(json.dumps({"seed": n["seed"]})[1:-1], "")
                assert 'draw_pile"' not in text and 'seed"' not in text and "w4_legal" not in text
                if m["type"] != "table":
                    continue
                if m["view"] is not None:
                    assert m["seat"] == seat and m["view"]["seat"] == seat
                for ev in m["events"]:  # another seat's dealt or drawn cards: a count only
                    if ev["type"] in ("dealt", "drew"):
                        assert ev["seat"] == seat or ev["cards"] == [], (seat, ev)
        for c in clients:
            await c.close()


async def test_metrics_count_players_decisions_latency_and_errors(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path) as live:
        a = await live.signup("mia")
        table = (
            await live.post(
                "/api/tables",
                a["token"],
                {
                    "game": "uno",
                    "preset": "classic",
                    "options": {"match": "single_hand"},
                    "seats": 2,
                },
            )
        ).json()["id"]
        c = await live.connect(a["token"])
        await c.send({"type": "join", "table": table})
        await c.wait(lambda m: m["type"] == "table")
        await c.send({"type": "start", "table": table})
        await play_until_over(c, table, 0)
        n = len(c.messages)
        await c.send_raw("{oops")
        await c.wait(lambda m: m["type"] == "error" and m["code"] == "malformed", start=n)
        text = (await live.http.get("/metrics")).text
        assert "mazziere_players_connected 1.0" in text
        assert re.search(r'mazziere_decisions_total\{actor="player",game="uno"\} [1-9]', text)
        assert re.search(r"mazziere_decision_latency_seconds_count [1-9]", text)
        assert 'mazziere_errors_total{code="malformed"} 1.0' in text
        assert "mazziere_tables_open 1.0" in text
        # every write went through a group commit, and the histogram counts them all
        commits = re.search(r"mazziere_commit_batch_writes_count (\S+)", text)
        writes = re.search(r"mazziere_commit_batch_writes_sum (\S+)", text)
        assert commits and writes and 1 <= float(commits.group(1)) <= float(writes.group(1))
        await c.close()
