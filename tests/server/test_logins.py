"""Issue 9 item 6: failed logins are throttled per account and per address (429 with
Retry-After, on the ``limits`` library); an unknown user costs an Argon2 verification like a
known one; passwords of at least 10 characters, not common, not guessable (422 with a reason);
a wrong password is 401; concurrent sign-ups of one name give one account and 409 for the rest."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from mazziere.server.store.models import Account

from .live import Live, live_server


async def _login(live: Live, name: str, password: str) -> Any:
    return await live.http.post("/api/login", json={"username": name, "password": password})


async def test_failed_logins_are_throttled_per_account(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, login_limit_account="3 per minute") as live:
        await live.signup("paola")
        for _ in range(3):
            r = await _login(live, "paola", "wrong password 1")
            assert r.status_code == 401 and r.json()["code"] == "bad_credentials"
        r = await _login(live, "paola", "correct horse")  # even the right one, for now
        assert r.status_code == 429 and r.json()["code"] == "too_many_attempts"
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        await live.signup("quinto")  # another account from the same address is not blocked
        assert (await _login(live, "quinto", "correct horse")).status_code == 200


async def test_failed_logins_are_throttled_per_address(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, login_limit_address="4 per minute") as live:
        for i in range(4):  # spraying names from one address
            r = await _login(live, f"nobody{i}", "whatever it is")
            assert r.status_code == 401
        r = await _login(live, "nobody9", "whatever it is")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1


async def test_unknown_user_is_verified_against_a_dummy_hash(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with live_server(db_url, tmp_path) as live:
        await live.signup("rosa")
        seen: list[str] = []

        class Spy:
            def __init__(self, inner: Any) -> None:
                self.inner = inner

            def verify(self, digest: str, password: str) -> bool:
                seen.append(digest)
                return bool(self.inner.verify(digest, password))

        monkeypatch.setattr(live.server.verifier, "hasher", Spy(live.server.verifier.hasher))
        assert (await _login(live, "nobody", "some password 1")).status_code == 401
        assert (await _login(live, "rosa", "some password 1")).status_code == 401
        assert len(seen) == 2 and seen[0] == live.server.verifier.dummy
        assert seen[1] != seen[0] and seen[1].startswith("$argon2")
        # same parameters: the dummy costs what a real hash costs
        assert seen[0].split("$")[3] == seen[1].split("$")[3]


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("short1!", "password_length"),
        ("qwertyuiop", "password_common"),
        ("password123", "password_common"),
        ("1234567890", "password_common"),
        ("aaaaaaaaaaaa", "password_weak"),
        ("sofia-sofia-1", "password_has_username"),
        ("x" * 257, "malformed"),
    ],
)
async def test_password_policy_refusal_is_422_with_a_reason(
    db_url: str, tmp_path: Path, password: str, code: str
) -> None:
    async with live_server(db_url, tmp_path) as live:
        r = await live.http.post("/api/signup", json={"username": "sofia", "password": password})
        assert r.status_code == 422 and r.json()["code"] == code, r.text
        assert r.json()["message"]
        async with live.server.db.session() as db:
            assert await db.scalar(select(func.count(Account.id))) == 0


async def test_wrong_password_is_401(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path) as live:
        await live.signup("tina")
        r = await _login(live, "tina", "not the password")
        assert r.status_code == 401 and r.json()["code"] == "bad_credentials"


async def test_concurrent_signups_of_one_name_give_one_account(db_url: str, tmp_path: Path) -> None:
    async with live_server(db_url, tmp_path, argon2_time_cost=1, argon2_memory_kib=8192) as live:
        rs = await asyncio.gather(
            *(
                live.http.post(
                    "/api/signup", json={"username": "ugo", "password": f"racing horse {i}"}
                )
                for i in range(8)
            )
        )
        codes = sorted(r.status_code for r in rs)
        assert codes == [200] + [409] * 7, [(r.status_code, r.text) for r in rs]
        assert all(r.json()["code"] == "username_taken" for r in rs if r.status_code == 409)
        async with live.server.db.session() as db:
            assert await db.scalar(select(func.count(Account.id))) == 1
