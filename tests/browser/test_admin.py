"""The back-office console (/admin) driven in Chromium against a real server: an admin made by
the command line logs in, finds a player and suspends them, closes a table, requests an
adjustment that a second operator (made so in the console) approves, downloads a report and
the audit log, sees the RTP alarm of a planted run of payouts; a player's token is told it is
not allowed; every page fits the window without sideways scrolling."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from mazziere.server.store import ledger

from ..server.rtp_rounds import assisted, casino_player, plant_rounds
from .harness import PASSWORD, LiveServer, Watch, new_context, shot, sign_up

WIDE: ViewportSize = {"width": 1366, "height": 850}
PHONE: ViewportSize = {"width": 390, "height": 844}


def call(live: LiveServer, method: str, path: str, body: Any = None, token: str = "") -> Any:
    """A REST call to the server; a refusal raises ``urllib.error.HTTPError``."""
    req = urllib.request.Request(
        live.base + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {token}"} if token else {}),
        },
    )
    with urllib.request.urlopen(req, timeout=15) as res:
        return json.loads(res.read() or b"null")


def player(live: LiveServer, name: str) -> dict[str, Any]:
    """A player's account ({token, username, account}), signed up or (a rerun) logged in."""
    try:
        return dict(call(live, "POST", "/api/signup", {"username": name, "password": PASSWORD}))
    except urllib.error.HTTPError as e:
        assert e.code == 409, e.read()
        return dict(call(live, "POST", "/api/login", {"username": name, "password": PASSWORD}))


def staff_by_cli(live: LiveServer, name: str, role: str = "admin") -> None:
    """A back-office account made as the first admin is: ``mazziere admin create-user``."""
    command = ["mazziere", "admin", "create-user", name, "--role", role, "--password-stdin"]
    done = subprocess.run(
        [sys.executable, "-m", *command, "--database-url", live.server.settings.url()],
        input=PASSWORD + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 or "taken" in done.stderr, done.stderr


def ledger_ok(live: LiveServer) -> None:
    async def check() -> ledger.LedgerReport:
        async with live.server.db.session() as db:
            return await ledger.check(db)

    report = live.call(check())
    assert report.ok, report.problems


def fits(page: Page) -> None:
    """The page, drawn (nothing left loading), does not scroll sideways."""
    page.locator("#app .loading").first.wait_for(state="detached")
    width, inner = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner, f"{page.url}: {width}px wide in a {inner}px window"


@pytest.fixture(scope="module")
def boss(live: LiveServer) -> str:
    staff_by_cli(live, "boss")
    return "boss"


@pytest.fixture
def console(
    browser: Browser, live: LiveServer, watch: Watch, boss: str
) -> Iterator[tuple[BrowserContext, Page]]:
    """The console logged in as the admin made by the command line, in a 1366x850 window."""
    ctx = new_context(browser, live, watch, viewport=WIDE)
    page = ctx.new_page()
    log_in(page, live, boss)
    yield ctx, page
    ctx.close()


def log_in(page: Page, live: LiveServer, name: str) -> None:
    page.goto(f"{live.base}/admin")
    page.get_by_test_id("auth-username").fill(name)
    page.get_by_test_id("auth-password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.get_by_test_id("role").wait_for()


def test_logged_out_the_console_shows_its_login_form(page: Page, live: LiveServer) -> None:
    page.set_viewport_size(WIDE)
    page.goto(f"{live.base}/admin")
    expect(page.get_by_test_id("auth-username")).to_be_visible()
    expect(page.locator(".admin-nav")).to_have_count(0)
    fits(page)
    shot(page, "admin-login-1366x850")


def test_a_player_token_is_not_allowed_and_sees_no_data(page: Page, live: LiveServer) -> None:
    page.set_viewport_size(WIDE)
    sign_up(page, live, "pia")  # the player client's session is the console's too
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/admin/" in r.url else None)
    page.goto(f"{live.base}/admin")
    expect(page.get_by_test_id("not-allowed")).to_be_visible()
    expect(page.get_by_test_id("not-allowed")).to_contain_text("pia")
    expect(page.locator(".admin-nav")).to_have_count(0)
    assert all(u.endswith("/api/admin/me") for u in asked), asked
    fits(page)
    shot(page, "admin-not-allowed-1366x850")
    page.get_by_role("button", name="Log in with another account").click()
    expect(page.get_by_test_id("auth-username")).to_be_visible()


def test_an_ended_login_brings_the_login_form_back(
    console: tuple[BrowserContext, Page], live: LiveServer
) -> None:
    _, page = console
    token = page.evaluate("() => JSON.parse(localStorage.getItem('mazziere.session')).token")
    call(live, "POST", "/api/logout", {}, token)  # ended elsewhere (idle limit, another tab)
    page.get_by_test_id("nav-tables").click()
    expect(page.get_by_test_id("auth-username")).to_be_visible()
    expect(page.locator(".toast")).to_contain_text("session ended")
    expect(page.locator(".admin-nav")).to_have_count(0)


def test_an_admin_finds_a_player_and_suspends_them(
    console: tuple[BrowserContext, Page], live: LiveServer
) -> None:
    _, page = console
    name = f"lucio{uuid.uuid4().hex[:4]}"  # a rerun suspends another player
    lucio = player(live, name)
    # lucio is in a casino round: €20 brought to the table, €5 staked
    body = {"game": "casino", "name": "lucio's casino", "bot_delay": 0}
    tid = call(live, "POST", "/api/tables", body, lucio["token"])["id"]
    call(live, "POST", f"/api/tables/{tid}/join", {}, lucio["token"])
    call(live, "POST", f"/api/tables/{tid}/topup", {"amount": 2000}, lucio["token"])
    call(live, "PUT", "/api/me/limits", {"limits": {"loss_day": 5000}}, lucio["token"])
    actor = live.server.tables[tid]
    live.call(actor.stake(lucio["account"], actor.state_no, 500))
    page.get_by_test_id("nav-players").click()
    page.get_by_test_id("player-search").fill("luc")
    page.get_by_test_id("player-search-go").click()
    page.get_by_test_id(f"player-{lucio['account']}").click()
    expect(page.get_by_test_id("account-name")).to_have_text(name)
    expect(page.get_by_test_id("player-status")).to_have_text("active")
    expect(page.get_by_test_id("ledger")).to_be_visible()
    expect(page.get_by_test_id("open-sessions")).to_contain_text("€15.00")
    expect(page.get_by_test_id("limits")).to_contain_text("daily loss limit€50.00")
    expect(page.get_by_test_id("limits-answer")).to_contain_text("every 60 minutes")
    fits(page)
    page.get_by_test_id("suspend").click()
    page.get_by_test_id("reason-confirm").click()  # no reason: refused in the dialog
    expect(page.get_by_test_id("reason-error")).not_to_be_empty()
    page.get_by_test_id("reason").fill("Chargeback under review")
    page.get_by_test_id("reason-confirm").click()
    expect(page.get_by_test_id("player-status")).to_have_text("suspended")
    expect(page.get_by_test_id("reinstate")).to_be_visible()
    # the round was played out and the session's credit went back to the wallet
    expect(page.get_by_test_id("open-sessions")).to_have_count(0)
    expect(page.get_by_test_id("ledger")).to_contain_text("Session closed")
    shot(page, "admin-account-suspended-1366x850")
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(live, "POST", "/api/login", {"username": name, "password": PASSWORD})
    assert json.loads(refused.value.read())["code"] == "suspended"
    ledger_ok(live)


def test_an_admin_watches_a_table_replays_its_hand_and_closes_it(
    console: tuple[BrowserContext, Page], live: LiveServer
) -> None:
    ctx, page = console
    owner = player(live, "tina")
    body = {"game": "uno", "name": "stuck table", "seats": 2, "bot_delay": 0}
    tid = call(live, "POST", "/api/tables", body, owner["token"])["id"]
    call(live, "POST", f"/api/tables/{tid}/join", {}, owner["token"])
    call(live, "POST", f"/api/tables/{tid}/start", {}, owner["token"])
    page.get_by_test_id("nav-tables").click()
    row = page.locator(f"[data-table='{tid}']")
    expect(row).to_contain_text("tina")
    fits(page)
    shot(page, "admin-tables-1366x850")
    with ctx.expect_page() as opened:
        page.get_by_test_id(f"watch-{tid}").click()
    spectator = opened.value
    expect(spectator.get_by_test_id("watching-banner")).to_be_visible()
    spectator.close()

    # the hand in play, every card of it, from the player's page
    page.goto(f"{live.base}/admin/#/players/{owner['account']}")
    page.get_by_test_id("player-hands").get_by_role("link").first.click()
    expect(page.get_by_test_id("seed-check")).to_have_text(
        "The seed’s SHA-256 is the commitment published at the start."
    )
    expect(page.locator(".deal .seat-hands li").first).to_contain_text("tina")
    assert page.locator(".deal .mini").count() >= 14  # both hands of seven, face up
    fits(page)
    shot(page, "admin-hand-1366x850")

    page.get_by_test_id("nav-tables").click()
    page.get_by_test_id(f"close-{tid}").click()
    page.get_by_test_id("reason").fill("Stuck after a restart")
    page.get_by_test_id("reason-confirm").click()
    expect(row.filter(has_not_text="closed")).to_have_count(0)
    open_ids = [t["id"] for t in call(live, "GET", "/api/tables", token=owner["token"])]
    assert tid not in open_ids
    ledger_ok(live)


def test_an_adjustment_posts_once_a_second_operator_approves_it(
    browser: Browser, console: tuple[BrowserContext, Page], live: LiveServer, watch: Watch
) -> None:
    _, page = console
    rita = player(live, "rita")
    why = f"Goodwill {uuid.uuid4().hex[:6]}: a round lost to a dropped connection"
    before = call(live, "GET", "/api/me", token=rita["token"])["balance"]
    page.goto(f"{live.base}/admin/#/players/{rita['account']}")
    page.get_by_test_id("adjust").click()
    expect(page.get_by_test_id("adj-account")).to_have_value(str(rita["account"]))
    page.get_by_test_id("adj-amount").fill("12.345")  # three decimals: refused, nothing sent
    page.get_by_test_id("adj-reason").fill(why)
    page.get_by_test_id("adj-submit").click()
    expect(page.get_by_test_id("adj-error")).to_contain_text("at most two decimals")
    page.get_by_test_id("adj-amount").fill("12,5")
    page.get_by_test_id("adj-submit").click()
    pending = page.get_by_test_id("adjustments").locator("tr", has_text=why)
    expect(pending).to_contain_text("+€12.50")
    fits(page)
    shot(page, "admin-money-pending-1366x850")
    # the requester's own approval is refused: nothing moves
    pending.get_by_role("button", name="Approve").click()
    expect(page.locator(".toast-error")).to_be_visible()
    assert call(live, "GET", "/api/me", token=rita["token"])["balance"] == before

    # a second operator: a player the admin gives the role in the console
    otto = player(live, "otto")
    page.goto(f"{live.base}/admin/#/players/{otto['account']}")
    page.get_by_test_id("role-select").select_option("operator")
    page.get_by_test_id("role-change").click()
    page.get_by_test_id("reason").fill("Second pair of eyes on adjustments")
    page.get_by_test_id("reason-confirm").click()
    expect(page.locator(".account-title")).to_contain_text("operator")
    other = new_context(browser, live, watch, viewport=WIDE)
    try:
        second = other.new_page()
        log_in(second, live, "otto")
        second.get_by_test_id("nav-money").click()
        row = second.get_by_test_id("adjustments").locator("tr", has_text=why)
        row.get_by_role("button", name="Approve").click()
        expect(row).to_have_count(0)
        second.get_by_test_id("adj-tab-posted").click()
        expect(second.get_by_test_id("adjustments")).to_contain_text("+€12.50")
    finally:
        other.close()
    assert call(live, "GET", "/api/me", token=rita["token"])["balance"] == before + 1250
    ledger_ok(live)


def test_a_daily_report_downloads_as_csv(
    console: tuple[BrowserContext, Page], live: LiveServer
) -> None:
    _, page = console
    page.get_by_test_id("nav-reports").click()
    page.get_by_test_id("report-none").or_(page.get_by_test_id("report")).wait_for()
    fits(page)
    shot(page, "admin-reports-1366x850")
    with page.expect_download() as got:
        page.get_by_test_id("report-csv").click()
    download = got.value
    assert re.fullmatch(
        r"mazziere-report-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv", download.suggested_filename
    )
    path = download.path()
    assert path is not None
    head = path.read_text(encoding="utf-8").splitlines()[0]
    assert "day" in head and "game" in head, head


def test_the_audit_log_lists_and_exports_as_csv(
    console: tuple[BrowserContext, Page], live: LiveServer
) -> None:
    _, page = console
    page.get_by_test_id("nav-audit").click()
    expect(page.get_by_test_id("audit")).to_contain_text("login")
    fits(page)
    shot(page, "admin-audit-1366x850")
    with page.expect_download() as got:
        page.get_by_test_id("audit-csv").click()
    path = got.value.path()
    assert path is not None
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("id,at,actor"), lines[0]
    assert any(",login," in line for line in lines[1:])


def test_the_rtp_monitor_raises_an_alert_on_a_planted_run_of_payouts(
    console: tuple[BrowserContext, Page], live: LiveServer
) -> None:
    _, page = console
    # 600 rounds of a player who wins x3 in 45% of them: a return near 135%
    account, table = live.call(casino_player(live.server.db, f"robo{uuid.uuid4().hex[:6]}"))
    live.call(plant_rounds(live.server.db, account, table, assisted(600)))
    page.get_by_test_id("nav-rtp").click()
    casino = page.get_by_test_id("rtp-casino")
    expect(casino.get_by_test_id("rtp-alert")).to_be_visible()
    expect(casino.locator("tr.out-of-band").first).to_contain_text("above the band")
    expect(page.get_by_test_id("rtp-players-casino")).to_contain_text("robo")
    fits(page)
    shot(page, "admin-rtp-1366x850")
    ledger_ok(live)


def test_an_operator_switches_a_game_off_and_on_again(
    console: tuple[BrowserContext, Page], live: LiveServer
) -> None:
    _, page = console

    def offered() -> list[str]:
        """The games the lobby offers."""
        return [g["name"] for g in call(live, "GET", "/api/catalog")["games"]]

    page.get_by_test_id("nav-games").click()
    state = page.get_by_test_id("game-state-poker")
    expect(state).to_have_text("on")
    page.get_by_test_id("game-toggle-poker").click()
    page.get_by_test_id("reason").fill("Maintenance of the poker bots")
    page.get_by_test_id("reason-confirm").click()
    expect(state).to_have_text("off")
    assert "poker" not in offered()
    fits(page)
    shot(page, "admin-games-1366x850")
    page.get_by_test_id("game-toggle-poker").click()
    page.get_by_test_id("reason").fill("Back after maintenance")
    page.get_by_test_id("reason-confirm").click()
    expect(state).to_have_text("on")
    assert "poker" in offered()


def test_a_support_account_sees_only_what_its_role_may_do(
    browser: Browser, live: LiveServer, watch: Watch
) -> None:
    staff_by_cli(live, "sonia", "support")
    someone = player(live, "gino")
    ctx = new_context(browser, live, watch, viewport=WIDE)
    try:
        page = ctx.new_page()
        log_in(page, live, "sonia")
        expect(page.get_by_test_id("role")).to_have_text("support")
        expect(page.get_by_test_id("nav-players")).to_be_visible()
        expect(page.get_by_test_id("nav-audit")).to_have_count(0)  # auditors and admins only
        page.goto(f"{live.base}/admin/#/players/{someone['account']}")
        expect(page.get_by_test_id("suspend")).to_be_visible()
        expect(page.get_by_test_id("adjust")).to_have_count(0)
        expect(page.get_by_test_id("role-select")).to_have_count(0)
        page.goto(f"{live.base}/admin/#/audit")  # a link from someone with more rights
        expect(page.get_by_test_id("not-for-role")).to_be_visible()
        page.goto(f"{live.base}/admin/#/money")
        expect(page.get_by_test_id("adj-form")).to_have_count(0)
    finally:
        ctx.close()


PAGES = ["players", "tables", "hands", "money", "games", "reports", "rtp", "audit"]


def test_every_page_fits_a_phone_and_a_laptop_without_sideways_scrolling(
    browser: Browser, live: LiveServer, watch: Watch, boss: str
) -> None:
    someone = player(live, "fabio")
    for size, viewport in (("1366x850", WIDE), ("390x844", PHONE)):
        ctx = new_context(browser, live, watch, viewport=viewport)
        try:
            page = ctx.new_page()
            log_in(page, live, boss)
            for name in [*PAGES, f"players/{someone['account']}"]:
                page.goto(f"{live.base}/admin/#/{name}")
                page.locator(f"#app[data-path='/{name}']").wait_for()
                fits(page)
            if size == "390x844":
                shot(page, "admin-account-390x844")
            else:  # the same page in Italian
                page.locator("[data-lang=it]").click()
                expect(page.get_by_test_id("nav-players")).to_have_text("Giocatori")
                fits(page)
                shot(page, "admin-account-it-1366x850")
        finally:
            ctx.close()
