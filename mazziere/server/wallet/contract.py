"""The transfer wallet's HTTP contract, written once for our client and the reference wallet
service (docs/wallet.md): the endpoints, the headers, the canonical string both sides sign
with HMAC-SHA256 and the answers' error codes.

A request's canonical string is its method, path, request id, timestamp, nonce and the
SHA-256 of its body, one a line; an answer's is its status code, the path it answers, the
request id, its own timestamp and nonce and the SHA-256 of its body:

>>> request_string("POST", "/v1/debit", "r1", "1700000000", "n1", b"{}")
'POST\\n/v1/debit\\nr1\\n1700000000\\nn1\\n44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'
>>> h = sign(b"k", request_string("POST", "/v1/debit", "r1", "1700000000", "n1", b"{}"))
>>> verify(b"k", request_string("POST", "/v1/debit", "r1", "1700000000", "n1", b"{}"), h)
True
>>> verify(b"k", request_string("POST", "/v1/credit", "r1", "1700000000", "n1", b"{}"), h)
False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

DEBIT = "/v1/debit"
"""Take ``amount`` cents from the player's wallet (a casino session's opening or top-up)."""
CREDIT = "/v1/credit"
"""Give ``amount`` cents back to the player's wallet (a casino session's close)."""
CANCEL = "/v1/cancel"
"""Undo the debit whose request id is ``refers_to`` (applied or not, it never applies after)."""
BALANCE = "/v1/balance"
"""The player's balance (the wallet page), moving nothing."""
CURRENCY = "EUR"
"""The currency of every amount (integer cents)."""
MOVES = (DEBIT, CREDIT, CANCEL)
"""The calls that move money: idempotent by request id."""
PATHS = (*MOVES, BALANCE)

REQUEST_ID = "X-Request-Id"
TIMESTAMP = "X-Timestamp"
"""Unix seconds, an integer, when the message was signed."""
NONCE = "X-Nonce"
"""A fresh random value per message: a message seen twice is a replay."""
SIGNATURE = "X-Signature"
"""Lower-case hex HMAC-SHA256 of the canonical string with the shared secret."""

WALLET_SECRET_ENV = "MAZZIERE_WALLET_SECRET"
"""The environment variable holding the shared secret when no file is named."""

MAX_SKEW_SECONDS = 60
"""A message signed further than this from the receiver's clock is refused as stale."""

# error codes of a signed answer
INSUFFICIENT_FUNDS = "insufficient_funds"
CANCELLED = "cancelled"
"""A debit whose request id was cancelled before it arrived: it never applies."""
REQUEST_ID_REUSED = "request_id_reused"
"""The same request id with another body (a different movement): refused, nothing moves."""
BAD_SIGNATURE = "bad_signature"
STALE = "stale_timestamp"
REPLAYED = "replayed"
MALFORMED = "malformed"
UNAVAILABLE = "unavailable"
"""The wallet could not serve the call now (nothing moved); retry with the same id."""

NOT_APPLIED = frozenset(
    {INSUFFICIENT_FUNDS, CANCELLED, REQUEST_ID_REUSED, BAD_SIGNATURE, STALE, REPLAYED, MALFORMED}
)
"""Signed refusals that say the call moved nothing and never will under this request id."""


def digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def request_string(
    method: str, path: str, request_id: str, timestamp: str, nonce: str, body: bytes
) -> str:
    """The canonical string a request is signed over."""
    return "\n".join((method.upper(), path, request_id, timestamp, nonce, digest(body)))


def answer_string(
    status: int, path: str, request_id: str, timestamp: str, nonce: str, body: bytes
) -> str:
    """The canonical string an answer is signed over (its request's path and id bind it to
    that request: an answer to another call does not verify)."""
    return "\n".join((str(status), path, request_id, timestamp, nonce, digest(body)))


def sign(secret: bytes, canonical: str) -> str:
    return hmac.new(secret, canonical.encode(), hashlib.sha256).hexdigest()


def verify(secret: bytes, canonical: str, signature: str) -> bool:
    """Whether ``signature`` is ``canonical``'s (compared in constant time)."""
    return hmac.compare_digest(sign(secret, canonical), signature)


def fresh(timestamp: str, now: float, skew: float = MAX_SKEW_SECONDS) -> bool:
    """Whether ``timestamp`` (unix seconds) is within ``skew`` of ``now``.

    >>> fresh("1000", 1030.0), fresh("1000", 1061.0), fresh("x", 1000.0)
    (True, False, False)
    """
    try:
        return abs(now - int(timestamp)) <= skew
    except ValueError:
        return False


def _signed(secret: bytes, canonical: str, request_id: str, ts: str, nonce: str) -> dict[str, str]:
    return {REQUEST_ID: request_id, TIMESTAMP: ts, NONCE: nonce, SIGNATURE: sign(secret, canonical)}


def request_headers(
    secret: bytes, method: str, path: str, request_id: str, body: bytes, now: float
) -> dict[str, str]:
    """The signing headers of a request made at ``now``, with a fresh nonce."""
    ts, nonce = str(int(now)), secrets.token_hex(16)
    canonical = request_string(method, path, request_id, ts, nonce, body)
    return _signed(secret, canonical, request_id, ts, nonce)


def answer_headers(
    secret: bytes, status: int, path: str, request_id: str, body: bytes, now: float
) -> dict[str, str]:
    """The signing headers of an answer given at ``now``, with a fresh nonce (an answer
    repeated to a retry is signed anew)."""
    ts, nonce = str(int(now)), secrets.token_hex(16)
    canonical = answer_string(status, path, request_id, ts, nonce, body)
    return _signed(secret, canonical, request_id, ts, nonce)


def read_secret(path: str | None, env_value: str | None) -> bytes:
    """The shared secret: the first line of the file at ``path``, else ``env_value`` (the
    ``MAZZIERE_WALLET_SECRET`` variable), so that it never shows in a process list."""
    text = None
    if path:
        with open(path, encoding="utf-8") as f:
            text = f.readline().strip()
    elif env_value:
        text = env_value.strip()
    if not text:
        raise ValueError("the transfer wallet needs a shared secret (a file or the environment)")
    return text.encode()
