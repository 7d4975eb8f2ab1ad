"""Issue 9 item 7: pages, static files and API answers carry a Content-Security-Policy
(``default-src 'self'``, no inline script, ``frame-ancestors 'none'``), ``nosniff`` and a
Referrer-Policy; ``/docs`` and ``/openapi.json`` are off unless turned on; ``/metrics`` answers
loopback callers or a token, unless made public."""

from __future__ import annotations

from pathlib import Path

import httpx

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
