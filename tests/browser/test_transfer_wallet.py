"""The operator's transfer wallet in Chromium (docs/wallet.md): a server set to
``--wallet transfer`` against the reference wallet; the wallet page shows the balance the
operator's wallet holds, and the console's money page lists a credit owed to it while it
fails, until it is back and the credit is confirmed."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import BrowserContext, Page, expect

from mazziere.server.store import transfers
from mazziere.server.wallet.demo import DemoWallet

from ..server.transfer_wallet import OPENING, SECRET
from .harness import LiveServer, run_server, shot, sign_up
from .test_admin import boss, call, console, fits, ledger_ok, player  # noqa: F401 (fixtures)


@pytest.fixture(scope="module")
def wallet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DemoWallet, str]]:
    """The reference wallet on a free port, in a thread of its own."""
    demo = DemoWallet(tmp_path_factory.mktemp("wallet") / "wallet.sqlite3", SECRET, OPENING)
    server = uvicorn.Server(
        uvicorn.Config(demo.app(), host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    )
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(),), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the wallet did not start"
        time.sleep(0.02)
    yield demo, f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    server.should_exit = True
    thread.join(15)
    loop.close()
    demo.close()


@pytest.fixture(scope="module")
def live(
    tmp_path_factory: pytest.TempPathFactory, wallet: tuple[DemoWallet, str]
) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("server")
    secret = Path(data / "wallet.secret")
    secret.write_bytes(SECRET + b"\n")
    with run_server(
        data,
        wallet="transfer",
        wallet_url=wallet[1],
        wallet_secret_file=str(secret),
        wallet_timeout_seconds=1.0,
        wallet_retry_seconds=0.05,
        wallet_retry_max_seconds=0.3,
        wallet_poll_seconds=0.1,
    ) as s:
        yield s


def settled(live: LiveServer) -> bool:
    async def outbox() -> bool:
        async with live.server.db.session() as db:
            return not await transfers.outbox(db)

    return live.call(outbox())


def refused_once(live: LiveServer) -> bool:
    async def tried() -> bool:
        async with live.server.db.session() as db:
            return any(r["last_error"] for r in await transfers.outbox(db))

    return live.call(tried())


def test_the_wallet_page_shows_the_operators_balance(
    page: Page, live: LiveServer, wallet: tuple[DemoWallet, str]
) -> None:
    sign_up(page, live, "sofia")
    page.goto(f"{live.base}/#/wallet")
    expect(page.get_by_test_id("wallet-balance")).to_have_text("€1,000.00")
    expect(page.locator(".page-wallet .hint")).to_contain_text("operator's wallet")
    expect(page.get_by_test_id("balance")).to_have_text("€1,000.00")
    shot(page, "wallet-transfer-1366x860")


def test_the_console_lists_a_credit_owed_to_the_operators_wallet(
    console: tuple[BrowserContext, Page],  # noqa: F811 (the fixture)
    live: LiveServer,
    wallet: tuple[DemoWallet, str],
) -> None:
    _, page = console
    demo, _ = wallet
    teo = player(live, "teo")
    table = call(live, "POST", "/api/tables", {"game": "casino"}, teo["token"])["id"]
    call(live, "POST", f"/api/tables/{table}/join", {}, teo["token"])
    call(live, "POST", f"/api/tables/{table}/topup", {"amount": 3_000}, teo["token"])
    assert demo.balance_of(str(teo["account"])) == OPENING - 3_000
    demo.faults.fail_share = 1.0
    try:
        call(live, "POST", f"/api/tables/{table}/leave", {}, teo["token"])
        deadline = time.monotonic() + 15
        while not refused_once(live):  # the page shows the wallet's last answer
            assert time.monotonic() < deadline, "the credit was not tried"
            time.sleep(0.05)
        page.goto(f"{live.base}/admin/#/money")
        rows = page.get_by_test_id("wallet-outbox-rows")
        expect(rows).to_contain_text("€30.00")
        expect(rows).to_contain_text("credit")
        expect(rows).to_contain_text("unavailable")
        fits(page)
        page.get_by_test_id("wallet-outbox").scroll_into_view_if_needed()
        shot(page, "admin-money-wallet-outbox-1366x850")
    finally:
        demo.faults.fail_share = 0.0
    deadline = time.monotonic() + 15
    while not settled(live):
        assert time.monotonic() < deadline, "the credit was not confirmed"
        time.sleep(0.05)
    assert demo.balance_of(str(teo["account"])) == OPENING
    page.reload()
    expect(page.get_by_test_id("wallet-outbox-none")).to_be_visible()
    ledger_ok(live)
