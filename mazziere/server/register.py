"""The external exclusion register (docs/operators.md "External exclusion register"): asked at
every login and sign-up when ``Settings.exclusion_register_url`` is set.

The contract: ``GET <url>?username=<name>&account=<id>`` (no ``account`` at sign-up, before
the account exists), answered ``200`` with the JSON ``{"excluded": true|false, "until":
"<ISO 8601 date-time>"|null}``. Any other answer (another status, a body that is not that
object, ``excluded`` not a boolean, ``until`` not a date), a network error or no answer within
``Settings.exclusion_register_timeout`` is *unavailable*: the player may log in but not play
for money until a later login gets a clear answer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx

from mazziere.server.store.exclusion import CLEAR, EXCLUDED, UNAVAILABLE


@dataclass(frozen=True)
class Answer:
    """What the register said: ``clear``, ``excluded`` (until ``until`` if it named an end)
    or ``unavailable`` (``detail`` says why)."""

    answer: str
    until: datetime | None = None
    detail: str = ""


def read(status: int, body: Any) -> Answer:
    """The answer of a reply with ``status`` and the decoded JSON ``body``.

    >>> read(200, {"excluded": False, "until": None}).answer
    'clear'
    >>> read(200, {"excluded": True, "until": "2027-01-31T00:00:00Z"}).until.year
    2027
    >>> read(200, {"excluded": "no"}).answer
    'unavailable'
    """
    if status != 200:
        return Answer(UNAVAILABLE, detail=f"the register answered HTTP {status}")
    if not isinstance(body, dict) or not isinstance(body.get("excluded"), bool):
        return Answer(UNAVAILABLE, detail='the register\'s answer has no boolean "excluded"')
    until_text = body.get("until")
    until = None
    if until_text is not None:
        try:
            if not isinstance(until_text, str):
                raise ValueError(until_text)
            until = datetime.fromisoformat(until_text.replace("Z", "+00:00"))
        except ValueError:
            return Answer(UNAVAILABLE, detail='the register\'s "until" is not a date-time')
        if until.tzinfo is None:
            until = until.replace(tzinfo=UTC)
    return Answer(EXCLUDED if body["excluded"] else CLEAR, until)


async def ask(url: str, timeout: float, username: str, account: int | None) -> Answer:
    """Ask the register about a player; never raises (a failure is ``unavailable``)."""
    params = {"username": username}
    if account is not None:
        params["account"] = str(account)
    try:
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=False) as http:
            r = await http.get(url, params=params, headers={"Accept": "application/json"})
            try:
                body = r.json()
            except ValueError:
                body = None
    except httpx.TimeoutException:
        return Answer(UNAVAILABLE, detail=f"the register did not answer within {timeout:g} s")
    except httpx.HTTPError as e:
        return Answer(UNAVAILABLE, detail=f"the register could not be reached: {type(e).__name__}")
    return read(r.status_code, body)
