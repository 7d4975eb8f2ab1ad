"""The one table of table verbs: everything a client may ask of a table (join, watch, leave,
start, action, stake, topup), by name, with the message that carries it and how the table's
actor is called for it. The hub dispatches a socket's message through it
(:func:`run_verb`), and the lobby's REST routes and the processes of a cluster call a verb by
its name with its arguments (:func:`run_op`), so each verb is written once.

A verb's name is its message's ``type`` on the socket (:mod:`mazziere.server.protocol`). The
actor is seen through :class:`~mazziere.server.ports.Table`: this module does not load it.

>>> sorted(VERBS)
['action', 'join', 'leave', 'stake', 'start', 'topup', 'watch']
>>> message_of("topup", 7, [500, "k1"])
TopUp(table=7, amount=500, key='k1', v=1)
>>> [name for name, verb in VERBS.items() if verb.play]
['start', 'action', 'stake', 'topup']
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mazziere.server import protocol as P
from mazziere.server.ports import Table
from mazziere.server.store import audit
from mazziere.server.table.errors import TableError


@dataclass(frozen=True, slots=True)
class Verb:
    """One thing a client may ask of a table."""

    message: type[P.TableMessage | P.CloseTable]
    """The message that carries it; the message's ``type`` is the verb's name."""
    run: Callable[[Table, int, str, Any], Awaitable[Any]]
    """Calls the actor: ``(actor, account, username, message)``, returning the verb's result
    (a join's seat, a top-up's credit, else ``None``)."""
    play: bool
    """A game action: once it succeeded, the player's inactivity clock starts again (joining,
    watching and leaving are not play)."""

    @property
    def name(self) -> str:
        return str(self.message.__struct_config__.tag)

    @property
    def fields(self) -> tuple[str, ...]:
        """The message's fields after ``table``, in order: a call by name's arguments."""
        return tuple(f for f in self.message.__struct_fields__ if f not in ("v", "table"))


def topup_key(account: int, key: str | None) -> str | None:
    """The idempotency key a top-up is recorded with: the client's own key, scoped to its
    account, so that two accounts sending the same key each move their money.

    >>> topup_key(5, "k1"), topup_key(5, None)
    ('topup:5:k1', None)
    """
    return None if key is None else f"topup:{account}:{key}"


async def _join(t: Table, account: int, username: str, m: P.Join) -> int:
    return await t.join(account, username)


async def _watch(t: Table, account: int, username: str, m: P.Watch) -> None:
    await t.watch(account, username)


async def _leave(t: Table, account: int, username: str, m: P.Leave) -> None:
    await t.leave(account)


async def _start(t: Table, account: int, username: str, m: P.Start) -> None:
    await t.start(account)


async def _act(t: Table, account: int, username: str, m: P.Act) -> None:
    await t.act(account, m.state_no, m.action)


async def _stake(t: Table, account: int, username: str, m: P.Stake) -> None:
    await t.stake(account, m.state_no, m.amount)


async def _top_up(t: Table, account: int, username: str, m: P.TopUp) -> int:
    return await t.top_up(account, m.amount, topup_key(account, m.key))


VERBS: dict[str, Verb] = {
    v.name: v
    for v in (
        Verb(P.Join, _join, play=False),
        Verb(P.Watch, _watch, play=False),
        Verb(P.Leave, _leave, play=False),
        Verb(P.Start, _start, play=True),
        Verb(P.Act, _act, play=True),
        Verb(P.Stake, _stake, play=True),
        Verb(P.TopUp, _top_up, play=True),
    )
}
"""Every table verb by name."""


async def _close(t: Table, account: int, username: str, m: P.CloseTable) -> int:
    return await t.close(m.reason, audit.Actor(account, username, m.address), m.note)


OPERATOR_VERBS: dict[str, Verb] = {v.name: v for v in (Verb(P.CloseTable, _close, play=False),)}
"""What the back office asks of a table (``close``), by name: called where the table lives
(:func:`run_op`, a cluster's calls), never from a socket, whose messages are client messages
only (:data:`mazziere.server.protocol.ClientMessage`); the route checks the permission."""

_BY_MESSAGE: dict[type[Any], Verb] = {
    v.message: v for v in (*VERBS.values(), *OPERATOR_VERBS.values())
}


def verb_of(message: P.TableMessage | P.CloseTable) -> Verb:
    """The verb ``message`` carries."""
    return _BY_MESSAGE[type(message)]


async def run_verb(
    actor: Table, account: int, username: str, message: P.TableMessage | P.CloseTable
) -> Any:
    """Carry out ``message`` at ``actor`` for ``account`` (named ``username``): the verb's
    result. A refusal raises the actor's typed error, and nothing changed."""
    return await verb_of(message).run(actor, account, username, message)


def message_of(op: str, table: int, args: Sequence[Any]) -> P.TableMessage | P.CloseTable:
    """The message of the verb named ``op`` at ``table``, with ``args`` as its fields after
    ``table``, in order (:attr:`Verb.fields`); an unknown name is refused (``malformed``)."""
    verb = VERBS.get(op) or OPERATOR_VERBS.get(op)
    if verb is None:
        raise TableError(f"no table operation {op!r}", "malformed")
    return verb.message(table=table, **dict(zip(verb.fields, args, strict=True)))


async def run_op(actor: Table, op: str, account: int, username: str, args: Sequence[Any]) -> Any:
    """A verb called by name with its arguments (a REST route here, or another process of a
    cluster for the table this one owns): :func:`run_verb` on the message they make."""
    return await run_verb(actor, account, username, message_of(op, actor.id, args))
