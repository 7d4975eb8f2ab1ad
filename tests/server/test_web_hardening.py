"""Pages, static files, API answers and errors carry a Content-Security-Policy
(``default-src 'self'``, no inline script, ``frame-ancestors 'none'``), ``nosniff``, a
Referrer-Policy and a Permissions-Policy that turns off the browser features a card game does
not use; Strict-Transport-Security only when the server is told it is reached over HTTPS;
``/docs`` and ``/openapi.json`` are off unless turned on; ``/metrics`` answers loopback callers
or a token, unless made public."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from typer.testing import CliRunner

from mazziere.cli import app as cli
from mazziere.server.app import create_app
from mazziere.server.context import Server, Settings

from .live import live_server


async def test_pages_and_static_files_carry_security_headers(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        for path in ("/", "/index.html", "/js/main.js", "/css/app.css", "/api/tables", "/health"):
            r = await live.http.get(path)
            assert r.status_code == 200, path
            csp = r.headers["content-security-policy"]
            assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
            assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["referrer-policy"] == "no-referrer"
        r = await live.http.get("/no-such-page")
        assert r.headers["x-content-type-options"] == "nosniff"


TURNED_OFF = ("camera", "microphone", "geolocation", "payment", "usb")
"""Browser features no card table needs: the Permissions-Policy must turn each one off."""


def _permissions_policy_is_strict(r: httpx.Response) -> None:
    policy = r.headers.get("permissions-policy", "")
    for feature in TURNED_OFF:
        assert f"{feature}=()" in policy, (r.request.url.path, r.status_code, policy)


async def test_every_response_carries_a_permissions_policy(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        for path in ("/", "/index.html", "/js/main.js", "/css/app.css", "/api/tables", "/health"):
            r = await live.http.get(path)
            assert r.status_code == 200, path
            _permissions_policy_is_strict(r)
        errors = [
            await live.http.get("/no-such-page"),  # 404 from the static files
            await live.http.get("/api/me"),  # 401, not logged in
            await live.http.post("/api/login", json={"username": "x", "password": "wrong 1"}),
            await live.http.post("/api/login", json={"username": 7}),  # 422, malformed
        ]
        assert [r.status_code for r in errors] == [404, 401, 401, 422]
        for r in errors:
            _permissions_policy_is_strict(r)
    # an unexpected exception: the 500 answer carries the headers too
    app = create_app(srv=Server(Settings(data_dir=tmp_path, database_url=db_url)))

    async def broken(_: Request) -> Response:
        raise RuntimeError("a bug")

    app.router.routes.insert(0, Route("/broken", broken))
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://mazziere") as http:
        r = await http.get("/broken")
        assert r.status_code == 500
        _permissions_policy_is_strict(r)
        assert r.headers["x-content-type-options"] == "nosniff"


async def test_strict_transport_security_only_when_behind_tls(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        for path in ("/", "/api/tables", "/no-such-page"):
            assert "strict-transport-security" not in (await live.http.get(path)).headers
    async with live_server(db_url, tmp_path / "tls", behind_tls=True) as live:
        for path in ("/", "/api/tables", "/no-such-page"):
            hsts = (await live.http.get(path)).headers["strict-transport-security"]
            assert "max-age=31536000" in hsts and "includeSubDomains" in hsts


async def test_serve_sends_strict_transport_security_only_with_behind_tls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[Any] = []  # the application each `mazziere serve` would run
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: served.append(self.config.app))
    for flag in ([], ["--behind-tls"]):
        result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), *flag])
        assert result.exit_code == 0, result.output
    hsts = []
    for app in served:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as http:
            r = await http.get("http://mazziere/index.html")
            hsts.append(r.headers.get("strict-transport-security"))
    assert hsts[0] is None and hsts[1] is not None


async def test_index_has_no_inline_script(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        html = (await live.http.get("/")).text
        for line in html.splitlines():
            if "<script" in line:
                assert "src=" in line, line
        assert " on" + "click=" not in html and "javascript:" not in html


async def test_api_docs_are_off_unless_turned_on(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        for path in ("/docs", "/openapi.json", "/redoc"):
            assert (await live.http.get(path)).status_code == 404, path
    async with live_server(db_url, tmp_path / "docs-on", api_docs=True) as live:
        assert (await live.http.get("/docs")).status_code == 200
        assert (await live.http.get("/openapi.json")).json()["info"]["title"] == "mazziere"


async def test_metrics_are_limited_to_loopback_or_a_token(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:  # this client is on the loopback
        assert (await live.http.get("/metrics")).status_code == 200
    # a remote caller: the same application seen from another address
    settings = Settings(
        data_dir=tmp_path, database_url=db_url, metrics_token="s3cret-metrics", settle_heap=False
    )
    app = create_app(srv=Server(settings))
    remote = httpx.ASGITransport(app=app, client=("203.0.113.7", 40000))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=remote, base_url="http://mazziere") as http,
    ):
        r = await http.get("/metrics")
        assert r.status_code == 403 and r.json()["code"] == "forbidden"
        r = await http.get("/metrics", headers={"Authorization": "Bearer wrong"})
        assert r.status_code == 403
        r = await http.get("/metrics", headers={"Authorization": "Bearer s3cret-metrics"})
        assert r.status_code == 200 and "mazziere_players_connected" in r.text
    public = create_app(
        srv=Server(
            Settings(data_dir=tmp_path, database_url=db_url, metrics_public=True, settle_heap=False)
        )
    )
    remote = httpx.ASGITransport(app=public, client=("203.0.113.7", 40000))
    async with (
        public.router.lifespan_context(public),
        httpx.AsyncClient(transport=remote, base_url="http://mazziere") as http,
    ):
        assert (await http.get("/metrics")).status_code == 200
