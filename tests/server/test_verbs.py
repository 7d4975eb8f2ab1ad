"""docs/architecture.md "The table actor": what a client may ask of a table is written once, in
the table of verbs, and a verb called by name (a REST route, another process) reaches the
actor exactly as the socket's message does."""

from __future__ import annotations

import asyncio
import typing
from typing import Any

import pytest

from mazziere.server import protocol as P
from mazziere.server.table.errors import TableError
from mazziere.server.table.verbs import VERBS, message_of, run_op, run_verb, verb_of


class Recorder:
    """A table that writes down how it was called."""

    id = 7
    state_no = 3

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def seat_of(self, account: int) -> int | None:
        return 0

    async def join(self, account: int, username: str) -> int:
        self.calls.append(("join", account, username))
        return 2

    async def leave(self, account: int) -> None:
        self.calls.append(("leave", account))

    async def watch(self, account: int, username: str) -> None:
        self.calls.append(("watch", account, username))

    async def start(self, account: int) -> None:
        self.calls.append(("start", account))

    async def act(self, account: int, state_no: int, action: str) -> None:
        self.calls.append(("act", account, state_no, action))

    async def stake(self, account: int, state_no: int, amount: int) -> None:
        self.calls.append(("stake", account, state_no, amount))

    async def top_up(self, account: int, amount: int, key: str | None = None) -> int:
        self.calls.append(("top_up", account, amount, key))
        return 900

    async def update_for(self, seat: int, *, full: bool = False) -> P.TableUpdate:
        raise AssertionError("a table verb never builds an update itself")

    def on_disconnect(self, account: int) -> None:
        self.calls.append(("on_disconnect", account))


def test_every_table_message_has_one_verb_named_after_its_type() -> None:
    messages = set(typing.get_args(P.TableMessage))
    assert {v.message for v in VERBS.values()} == messages
    for name, verb in VERBS.items():
        assert verb.message.__struct_config__.tag == name


def test_only_play_restarts_the_inactivity_clock() -> None:
    assert {n for n, v in VERBS.items() if not v.play} == {"join", "watch", "leave"}


@pytest.mark.parametrize(
    ("message", "called", "result"),
    [
        (P.Join(table=7), ("join", 5, "ada"), 2),
        (P.Watch(table=7), ("watch", 5, "ada"), None),
        (P.Leave(table=7), ("leave", 5), None),
        (P.Start(table=7), ("start", 5), None),
        (P.Act(table=7, state_no=3, action="R7"), ("act", 5, 3, "R7"), None),
        (P.Stake(table=7, state_no=3, amount=100), ("stake", 5, 3, 100), None),
        (P.TopUp(table=7, amount=500, key="k1"), ("top_up", 5, 500, "topup:5:k1"), 900),
        (P.TopUp(table=7, amount=500), ("top_up", 5, 500, None), 900),
    ],
)
def test_a_message_calls_the_actor_verb_it_names(
    message: P.TableMessage, called: tuple[Any, ...], result: Any
) -> None:
    table = Recorder()
    assert asyncio.run(run_verb(table, 5, "ada", message)) == result
    assert table.calls == [called]
    assert verb_of(message).name == msgspec_type(message)


def msgspec_type(message: P.TableMessage) -> str:
    return str(type(message).__struct_config__.tag)


def test_a_verb_called_by_name_is_the_message_it_makes() -> None:
    by_name, by_message = Recorder(), Recorder()
    asyncio.run(run_op(by_name, "topup", 5, "ada", [500, "k1"]))
    asyncio.run(run_verb(by_message, 5, "ada", P.TopUp(table=7, amount=500, key="k1")))
    assert by_name.calls == by_message.calls == [("top_up", 5, 500, "topup:5:k1")]
    assert message_of("join", 7, []) == P.Join(table=7)


def test_an_unknown_verb_is_refused_as_malformed() -> None:
    with pytest.raises(TableError) as e:
        message_of("deal", 7, [])
    assert e.value.code == "malformed"
