"""The signed HTTP client of the operator's transfer wallet (docs/wallet.md): every request
signed with the shared secret, every answer's signature, request id and timestamp verified
before it is believed. An answer that does not verify counts as no answer at all."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import httpx

from mazziere.errors import MazziereError
from mazziere.server.wallet import contract as C


class WalletUnavailable(MazziereError):
    """No answer we can believe (a time-out, a lost connection, a server error, an answer that
    does not verify): whether the call moved money is not known until a retry with the same
    request id, or a cancel, settles it."""

    default_code = "wallet_unavailable"


class WalletRefused(MazziereError):
    """A signed answer saying the call moved nothing and never will under its request id
    (:data:`~mazziere.server.wallet.contract.NOT_APPLIED`); its code is the wallet's."""

    default_code = "wallet_refused"


def body_bytes(body: dict[str, Any]) -> bytes:
    """A request's body as sent (and signed): compact JSON with sorted keys."""
    return json.dumps(body, separators=(",", ":"), sort_keys=True).encode()


class WalletClient:
    """Calls to one transfer wallet at ``url``, each with a timeout of ``timeout`` seconds."""

    def __init__(
        self,
        url: str,
        secret: bytes,
        timeout: float,
        now: Callable[[], float] = time.time,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.secret = secret
        self.now = now
        self.http = httpx.AsyncClient(base_url=url, timeout=timeout, transport=transport)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def call(self, path: str, request_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """One attempt: the wallet's ``ok`` answer; :class:`WalletRefused` for a signed
        refusal, :class:`WalletUnavailable` for anything else."""
        raw = body_bytes(body)
        signed = C.request_headers(self.secret, "POST", path, request_id, raw, self.now())
        try:
            r = await self.http.post(
                path, content=raw, headers={**signed, "content-type": "application/json"}
            )
        except httpx.HTTPError as e:
            raise WalletUnavailable(f"the wallet did not answer ({type(e).__name__})") from None
        if not self._verified(r, path, request_id):
            raise WalletUnavailable("the wallet's answer does not verify: not believed")
        try:
            data = r.json()
        except ValueError:
            raise WalletUnavailable("the wallet's answer is not JSON") from None
        if not isinstance(data, dict):
            raise WalletUnavailable("the wallet's answer is not an object")
        if r.status_code == 200 and data.get("status") == "ok":
            return data
        code = str(data.get("code", ""))
        message = str(data.get("message", code))
        if code in C.NOT_APPLIED:
            raise WalletRefused(f"the wallet refused: {message}", code)
        raise WalletUnavailable(f"the wallet could not serve the call ({r.status_code} {code})")

    def _verified(self, r: httpx.Response, path: str, request_id: str) -> bool:
        h = r.headers
        rid, ts = h.get(C.REQUEST_ID, ""), h.get(C.TIMESTAMP, "")
        nonce, sig = h.get(C.NONCE, ""), h.get(C.SIGNATURE, "")
        if rid != request_id or not C.fresh(ts, self.now()):
            return False
        canonical = C.answer_string(r.status_code, path, request_id, ts, nonce, r.content)
        return C.verify(self.secret, canonical, sig)

    async def persist(
        self, path: str, request_id: str, body: dict[str, Any], tries: int, pause: float
    ) -> dict[str, Any]:
        """:meth:`call` up to ``tries`` times with the same request id while there is no
        answer, ``pause`` seconds after the first try, doubling; a refusal ends at once."""
        for n in range(tries):
            try:
                return await self.call(path, request_id, body)
            except WalletUnavailable:
                if n == tries - 1:
                    raise
                await asyncio.sleep(pause * 2**n)
        raise WalletUnavailable("no try made")  # pragma: no cover - tries >= 1
