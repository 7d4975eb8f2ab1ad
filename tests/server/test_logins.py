"""Logins are throttled per account and per address (429 with Retry-After, on the ``limits``
library): every attempt takes a slot before its password is verified, so a burst of parallel
attempts is verified no more than the limit allows; an unknown user costs an Argon2
verification like a known one; passwords of at least 10 characters, not common, not guessable
(422 with a reason); a wrong password is 401; concurrent sign-ups of one name give one account
and 409 for the rest."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from mazziere.server.store.models import Account

from .live import Live, live_server

CHEAP = {"argon2_time_cost": 1, "argon2_memory_kib": 8192}
"""Quick hashes: a burst of logins is verified in well under a second."""


async def _login(live: Live, name: str, password: str) -> Any:
    return await live.http.post("/api/login", json={"username": name, "password": password})


async def _burst(live: Live, logins: list[tuple[str, str]]) -> Counter[int]:
    """Send every login at once; the answers counted by HTTP status."""
    answers = await asyncio.gather(*(_login(live, name, pw) for name, pw in logins))
    return Counter(r.status_code for r in answers)


class Spy:
    """The server's password hasher, noting every digest it verifies."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen: list[str] = []

    def verify(self, digest: str, password: str) -> bool:
        self.seen.append(digest)
        return bool(self.inner.verify(digest, password))


def spy_on_verifications(live: Live, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The digests the server verifies from now on."""
    spy = Spy(live.server.verifier.hasher)
    monkeypatch.setattr(live.server.verifier, "hasher", spy)
    return spy.seen


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


async def test_parallel_wrong_passwords_for_one_account_are_verified_at_most_the_limit(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        await live.signup("vanna")
        limit = live.server.throttle.per_account.amount
        seen = spy_on_verifications(live, monkeypatch)
        codes = await _burst(live, [("vanna", f"wrong password {i}") for i in range(30)])
        assert codes == Counter({401: limit, 429: 30 - limit}), codes
        assert len(seen) == limit
        r = await _login(live, "vanna", "correct horse")  # still throttled
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        assert len(seen) == limit


async def test_parallel_wrong_logins_from_one_address_are_verified_at_most_the_limit(
    db_url: str, tmp_path: Path
) -> None:
    async with live_server(db_url, tmp_path, **CHEAP) as live:
        limit = live.server.throttle.per_address.amount
        codes = await _burst(live, [(f"nobody{i}", "whatever it is") for i in range(limit + 10)])
        assert codes == Counter({401: limit, 429: 10}), codes


async def test_right_password_after_a_burst_is_refused_until_the_window_has_passed(
    db_url: str, tmp_path: Path
) -> None:
    window = 5  # seconds: the burst's slots expire while the test waits
    async with live_server(
        db_url,
        tmp_path,
        login_limit_account=f"5 per {window} seconds",
        login_limit_address="1000 per minute",  # the account's window alone is at work
        **CHEAP,
    ) as live:
        await live.signup("wilma")
        codes = await _burst(live, [("wilma", f"wrong password {i}") for i in range(30)])
        assert codes == Counter({401: 5, 429: 25}), codes
        r = await _login(live, "wilma", "correct horse")
        assert r.status_code == 429 and r.json()["code"] == "too_many_attempts"
        wait = int(r.headers["Retry-After"])
        assert 1 <= wait <= window
        await asyncio.sleep(wait)
        assert (await _login(live, "wilma", "correct horse")).status_code == 200
        # the right password gave the account its slots back
        codes = await _burst(live, [("wilma", f"wrong again {i}") for i in range(5)])
        assert codes == Counter({401: 5}), codes


async def test_unknown_user_is_verified_against_a_dummy_hash(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with live_server(db_url, tmp_path) as live:
        await live.signup("rosa")
        seen = spy_on_verifications(live, monkeypatch)
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
