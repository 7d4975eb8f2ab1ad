"""Money adjustments (docs/operators.md): nothing moves until a second operator approves; its
requester cannot approve it; approved, one balanced ledger transaction moves the amount
between the wallet and the named house book; a rejected one never moves; a debit beyond the
wallet is refused and changes nothing; with one approval the request posts at once; every
field is checked (integer cents, non-zero, a house book, a reason, an account that exists);
each step is in the audit log and the ledger check passes after each, and knows adjustments."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from mazziere.server.store import ledger
from mazziere.server.store.models import Adjustment

from .live import Live, live_server
from .test_back_office import CHEAP, make_staff
from .test_back_office_players import post
from .test_live_games import ledger_ok


async def balance(live: Live, token: str, account: int) -> int:
    return int((await live.get(f"/api/admin/players/{account}", token))["balance_cents"])


async def test_an_adjustment_waits_for_a_second_operator(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, demo_credit=10_000, **CHEAP) as live:
        anna = await make_staff(live, "anna", "operator")
        bruno = await make_staff(live, "bruno", "admin")
        player = (await live.signup("carlo"))["account"]
        house_before = None
        async with live.server.db.session() as db:
            house_before = await ledger.balance(db, ledger.HOUSE)
        r = await post(live, "/api/admin/adjustments", anna, {
            "account": player, "amount_cents": 2_500, "house_account": "house",
            "reason": "goodwill after a dropped connection",
        })  # fmt: skip
        assert r.status_code == 200, r.text
        adj = r.json()
        assert adj["status"] == "pending" and adj["txn"] is None
        assert await balance(live, anna, player) == 10_000  # nothing moved
        await ledger_ok(live)
        r = await post(live, f"/api/admin/adjustments/{adj['id']}/approve", anna, {})
        assert (r.status_code, r.json()["code"]) == (403, "own_adjustment")
        pending = (await live.get("/api/admin/adjustments?status=pending", anna))["adjustments"]
        assert [(a["id"], a["requested_by"], a["amount_cents"]) for a in pending] == [
            (adj["id"], "anna", 2_500)
        ]
        r = await live.http.post(
            f"/api/admin/adjustments/{adj['id']}/approve",
            headers={"Authorization": f"Bearer {bruno}"},
        )  # no body at all
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "posted" and r.json()["txn"] is not None
        assert await balance(live, anna, player) == 12_500
        async with live.server.db.session() as db:
            assert await ledger.balance(db, ledger.HOUSE) == house_before - 2_500
        r = await post(live, f"/api/admin/adjustments/{adj['id']}/approve", bruno, {})
        assert (r.status_code, r.json()["code"]) == (409, "already_posted")
        r = await post(live, f"/api/admin/adjustments/{adj['id']}/reject", bruno, {"reason": "x"})
        assert (r.status_code, r.json()["code"]) == (409, "already_posted")
        [done] = (await live.get("/api/admin/adjustments?status=posted", anna))["adjustments"]
        assert done["approved_by"] == "bruno" and done["username"] == "carlo"
        lines = (await live.get(f"/api/admin/players/{player}/ledger", anna))["entries"]
        assert (lines[0]["kind"], lines[0]["amount_cents"]) == ("adjustment", 2_500)
        audit = (await live.get(f"/api/admin/audit?target=adjustment:{adj['id']}", bruno))[
            "entries"
        ]
        assert [(e["action"], e["actor"]) for e in audit] == [
            ("adjustment_posted", "bruno"),
            ("adjustment_requested", "anna"),
        ]
        assert audit[0]["before"]["status"] == "pending" and audit[0]["after"]["status"] == "posted"
        await ledger_ok(live)


async def test_a_rejected_adjustment_never_moves_and_a_debit_beyond_the_wallet_is_refused(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, demo_credit=10_000, **CHEAP) as live:
        anna = await make_staff(live, "anna", "operator")
        bruno = await make_staff(live, "bruno", "operator")
        player = (await live.signup("dora"))["account"]
        body = {"account": player, "amount_cents": -20_000, "house_account": "mint", "reason": "r"}
        big = (await post(live, "/api/admin/adjustments", anna, body)).json()
        r = await post(live, f"/api/admin/adjustments/{big['id']}/approve", bruno, {})
        assert (r.status_code, r.json()["code"]) == (400, "insufficient_funds")
        assert (await live.get("/api/admin/adjustments?status=pending", anna))["adjustments"][0][
            "id"
        ] == big["id"]
        r = await post(live, f"/api/admin/adjustments/{big['id']}/reject", anna, {"reason": "typo"})
        assert r.status_code == 200 and r.json()["status"] == "rejected"
        r = await post(live, f"/api/admin/adjustments/{big['id']}/approve", bruno, {})
        assert (r.status_code, r.json()["code"]) == (409, "already_rejected")
        [rej] = (await live.get("/api/admin/adjustments?status=rejected", anna))["adjustments"]
        assert rej["rejected_by"] == "anna" and rej["decision_reason"] == "typo"
        assert await balance(live, anna, player) == 10_000
        body = {"account": player, "amount_cents": -4_000, "house_account": "mint", "reason": "r"}
        small = (await post(live, "/api/admin/adjustments", anna, body)).json()
        assert (
            await post(live, f"/api/admin/adjustments/{small['id']}/approve", bruno, {})
        ).status_code == 200
        assert await balance(live, anna, player) == 6_000
        await ledger_ok(live)


async def test_one_approval_posts_at_once_when_the_setting_says_so(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(
        db_url, tmp_path, demo_credit=10_000, adjustment_approvals=1, **CHEAP
    ) as live:
        anna = await make_staff(live, "anna", "operator")
        player = (await live.signup("elio"))["account"]
        body = {"account": player, "amount_cents": 1, "house_account": "house", "reason": "r"}
        r = await post(live, "/api/admin/adjustments", anna, body)
        assert r.status_code == 200 and r.json()["status"] == "posted"
        assert await balance(live, anna, player) == 10_001
        assert (await live.get("/api/admin/me", anna))["adjustment_approvals"] == 1
        await ledger_ok(live)


GOOD: dict[str, Any] = {"amount_cents": 100, "house_account": "house", "reason": "why"}


@pytest.mark.parametrize(
    "change",
    [
        {"amount_cents": 0},
        {"amount_cents": 1.5},
        {"amount_cents": "100"},
        {"amount_cents": True},
        {"amount_cents": 2**60},
        {"house_account": "wallet:1"},
        {"house_account": "casino:1"},
        {"reason": ""},
        {"reason": "  "},
        {"reason": None},
        {"account": "1"},
        {"account": 0},
        {"extra": 1},
    ],
)
async def test_bad_adjustment_fields_are_malformed_and_change_nothing(
    change: dict[str, Any], db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        anna = await make_staff(live, "anna", "operator")
        player = (await live.signup("fabio"))["account"]
        r = await post(live, "/api/admin/adjustments", anna, {"account": player, **GOOD, **change})
        assert (r.status_code, r.json()["code"]) == (422, "malformed"), r.text
        assert (await live.get("/api/admin/adjustments", anna))["adjustments"] == []


async def test_unknown_ids_are_404_and_only_operators_move_money(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        anna = await make_staff(live, "anna", "operator")
        support = await make_staff(live, "sara", "support")
        r = await post(live, "/api/admin/adjustments", anna, {"account": 999, **GOOD})
        assert (r.status_code, r.json()["code"]) == (404, "not_found")
        for path in ("/api/admin/adjustments/999/approve", "/api/admin/adjustments/999/reject"):
            r = await post(live, path, anna, {"reason": "x"} if "reject" in path else {})
            assert (r.status_code, r.json()["code"]) == (404, "not_found")
        player = (await live.signup("gaia"))["account"]
        r = await post(live, "/api/admin/adjustments", support, {"account": player, **GOOD})
        assert (r.status_code, r.json()["code"]) == (403, "forbidden")
        r = await live.http.get(
            "/api/admin/adjustments?status=lost", headers={"Authorization": f"Bearer {anna}"}
        )
        assert (r.status_code, r.json()["code"]) == (422, "malformed")


async def test_the_ledger_check_knows_adjustments(database: Any) -> None:
    from mazziere.server.store import accounts, adjustments
    from mazziere.server.store.audit import Actor

    async with database.write() as db:
        a = await accounts.create_account(db, "hugo", "x", 1_000)
        op = await accounts.create_account(db, "ivo", "x", 0)
        adj = await adjustments.request(db, Actor(op.id, "ivo", "-"), a.id, 300, "house", "r", 1)
    async with database.session() as db:
        assert (await ledger.check(db)).ok
    async with database.write() as db:  # a posted adjustment that claims another amount
        await db.execute(update(Adjustment).values(amount=400))
    async with database.session() as db:
        problems = (await ledger.check(db)).problems
    assert problems == [
        f"adjustment {adj.id}: its transaction {adj.txn_id} does not move its amount"
    ]
    async with database.write() as db:
        await db.execute(update(Adjustment).values(amount=300, status="pending"))
    async with database.session() as db:
        problems = (await ledger.check(db)).problems
    assert any("is no posted adjustment's" in p for p in problems)
