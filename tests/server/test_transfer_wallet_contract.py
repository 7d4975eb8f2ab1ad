"""The transfer wallet's HTTP contract (docs/wallet.md "Contract"), between our signed client
and the reference wallet over a real socket: a retried request id returns its first answer
and moves nothing twice, another body under the same id is refused, replayed and stale
messages are refused, an answer that does not verify is not believed, and a cancel that
comes before its debit stops it for good."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from mazziere.server.wallet import contract as C
from mazziere.server.wallet.client import (
    WalletClient,
    WalletRefused,
    WalletUnavailable,
    body_bytes,
)

from .transfer_wallet import OPENING, SECRET, reference_wallet


def _debit(amount: int = 700) -> dict[str, object]:
    return {"player": "7", "amount": amount, "currency": "EUR", "session": None, "table": 1}


async def test_a_request_id_sent_again_gets_its_first_answer(tmp_path: Path) -> None:
    async with reference_wallet(tmp_path) as w:
        client = WalletClient(w.url, SECRET, 2.0)
        first = await client.call(C.DEBIT, "r-1", _debit())
        again = await client.call(C.DEBIT, "r-1", _debit())
        assert first == again and first["balance"] == OPENING - 700
        assert w.wallet.balance_of("7") == OPENING - 700 and w.wallet.calls["r-1"] == 2
        with pytest.raises(WalletRefused) as refused:  # the same id, another movement
            await client.call(C.DEBIT, "r-1", _debit(800))
        assert refused.value.code == C.REQUEST_ID_REUSED
        assert w.wallet.balance_of("7") == OPENING - 700
        await client.aclose()


async def test_a_replayed_or_stale_or_forged_request_is_refused(tmp_path: Path) -> None:
    async with reference_wallet(tmp_path) as w:
        raw = body_bytes(_debit())
        signed = C.request_headers(SECRET, "POST", C.DEBIT, "r-2", raw, time.time())
        async with httpx.AsyncClient(base_url=w.url) as http:
            ok = await http.post(C.DEBIT, content=raw, headers=signed)
            assert ok.status_code == 200
            replay = await http.post(C.DEBIT, content=raw, headers=signed)
            assert (replay.status_code, replay.json()["code"]) == (409, C.REPLAYED)
            forged = await http.post(C.DEBIT, content=body_bytes(_debit(1)), headers=signed)
            assert (forged.status_code, forged.json()["code"]) == (401, C.BAD_SIGNATURE)
        assert w.wallet.balance_of("7") == OPENING - 700
        late = WalletClient(w.url, SECRET, 2.0, now=lambda: time.time() - 600)
        with pytest.raises(WalletUnavailable):  # refused as stale; its answer is not fresh
            await late.call(C.DEBIT, "r-3", _debit())
        assert w.wallet.balance_of("7") == OPENING - 700
        await late.aclose()


async def test_an_answer_that_does_not_verify_is_not_believed(tmp_path: Path) -> None:
    async with reference_wallet(tmp_path) as w:
        stranger = WalletClient(w.url, b"not the shared secret", 2.0)
        with pytest.raises(WalletUnavailable):
            await stranger.call(C.DEBIT, "r-4", _debit())
        await stranger.aclose()
        client = WalletClient(w.url, SECRET, 2.0)
        w.wallet.faults.answer_twice = True  # the first answer is lost (unsigned 502)
        with pytest.raises(WalletUnavailable):
            await client.call(C.CREDIT, "r-5", {**_debit(300), "session": 1})
        assert w.wallet.balance_of("7") == OPENING + 300  # it applied, unknown to the caller
        answer = await client.call(C.CREDIT, "r-5", {**_debit(300), "session": 1})
        assert answer["balance"] == OPENING + 300  # the retry: the first answer, once moved
        await client.aclose()


async def test_a_cancel_before_its_debit_stops_the_debit_for_good(tmp_path: Path) -> None:
    async with reference_wallet(tmp_path) as w:
        client = WalletClient(w.url, SECRET, 2.0)
        cancel = {"player": "7", "refers_to": "r-6", "amount": 700}
        undone = await client.call(C.CANCEL, "c-6", cancel)
        assert undone["refunded"] == 0
        with pytest.raises(WalletRefused) as late:
            await client.call(C.DEBIT, "r-6", _debit())
        assert late.value.code == C.CANCELLED
        await client.call(C.DEBIT, "r-7", _debit())
        assert (await client.call(C.CANCEL, "c-7", {**cancel, "refers_to": "r-7"}))[
            "refunded"
        ] == 700
        assert (await client.call(C.CANCEL, "c-7", {**cancel, "refers_to": "r-7"}))[
            "refunded"
        ] == 700  # the same cancel again: its first answer, no second refund
        assert w.wallet.balance_of("7") == OPENING
        balance = await client.call(C.BALANCE, "b-1", {"player": "7"})
        assert balance["balance"] == OPENING
        await client.aclose()


def test_the_transfer_wallet_needs_its_url_and_its_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mazziere.server.settings import Settings, SettingsError

    monkeypatch.delenv(C.WALLET_SECRET_ENV, raising=False)
    with pytest.raises(SettingsError, match="--wallet-url"):
        Settings(data_dir=tmp_path, wallet="transfer").check()
    with pytest.raises(SettingsError, match=C.WALLET_SECRET_ENV):
        Settings(data_dir=tmp_path, wallet="transfer", wallet_url="http://127.0.0.1:1").check()
    secret = tmp_path / "secret"
    secret.write_text("s3cret\n")
    Settings(
        data_dir=tmp_path,
        wallet="transfer",
        wallet_url="http://127.0.0.1:1",
        wallet_secret_file=str(secret),
    ).check()
    monkeypatch.setenv(C.WALLET_SECRET_ENV, "s3cret")
    Settings(data_dir=tmp_path, wallet="transfer", wallet_url="http://127.0.0.1:1").check()
    assert C.read_secret(str(secret), None) == b"s3cret"
    with pytest.raises(SettingsError, match="builtin or transfer"):
        Settings(data_dir=tmp_path, wallet="elsewhere").check()
