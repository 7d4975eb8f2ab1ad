"""The contract every game implements, and the registry of games by name
(docs/architecture.md).

A game is driven through one interface: a new game from (its table configuration, the seats and
their bots, a seed), who must decide now, the legal actions of a seat, apply, the view of a
seat, what a seat may see of a step (:meth:`TableGame.seen`: the one rule the live updates
and the hand history both follow), the result, and the action taken on a time-out.
:class:`TableRules` says, as data, how a table hosts the game (fixed computer seats, joining
after the start, what leaving does, whether money moves through a session credit), so that the
server drives every game through this module alone and knows no game by name. Adding a game
means one module with a :class:`TableGame` subclass and one line in :data:`REGISTRY`.

Standard library only: the rules packages stay installable without third-party packages.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal, Self

from mazziere import wire
from mazziere.errors import MazziereError, NotYourTurn, OptionError
from mazziere.rng import ShakeRng
from mazziere.textevents import TextEvent

REGISTRY: dict[str, str] = {
    "uno": "mazziere.uno.table_game:UnoTableGame",
    "casino": "mazziere.casino.table_game:CasinoTableGame",
    "poker": "mazziere.poker.table_game:PokerTableGame",
}
"""Every game a table can host: its name and where its :class:`TableGame` lives (imported on
first use, so the registry imports no game and no game imports the registry's users)."""


def game_names() -> list[str]:
    return list(REGISTRY)


def find_game(name: str) -> type[TableGame]:
    """The session class of the game called ``name``; an unknown name is an OptionError."""
    target = REGISTRY.get(name)
    if target is None:
        raise OptionError(
            f"unknown game {name!r}: {', '.join(REGISTRY)}",
            "unknown_game",
        )
    module, _, attr = target.partition(":")
    cls: type[TableGame] = getattr(importlib.import_module(module), attr)
    return cls


TABLE_NAME_MAX = 80
"""The longest table name, in characters."""
DECISION_SECONDS = 30.0
"""A table's time per decision when it names none, in seconds."""
DECISION_SECONDS_MAX = 3600.0
"""The longest time per decision a table may set (more than zero, at most this), in seconds."""
BOT_DELAY = 0.7
"""Seconds a computer player thinks before each of its moves at a table that names none
(every client and spectator sees one paced timeline); 0 plays at once, as
simulations, benchmarks and tests that need speed ask."""
BOT_DELAY_MAX = 5.0
"""The longest thinking time a table may set for its computer players, in seconds."""


# ------------------------------------------------------------------------------ randomness
def new_seed() -> str:
    """A fresh 256-bit hand seed from the OS's cryptographic source (hex)."""
    return os.urandom(32).hex()


def seed_rng(seed_hex: str) -> ShakeRng:
    return ShakeRng(bytes.fromhex(seed_hex))


def commitment(seed_hex: str) -> str:
    """SHA-256 of the seed: published when the hand starts, the seed revealed after."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def bot_random(seed_hex: str, seq: int) -> random.Random:
    """A bot's source for one decision, derived from the hand seed (replays decide alike)."""
    return random.Random(f"{seed_hex}:{seq}")


# ------------------------------------------------------------------------------ steps
Visibility = tuple[TextEvent, int | None, int | None]


def event_rows(events: Iterable[TextEvent]) -> list[Visibility]:
    """Each event once for everybody, or, if it has private fields, in full for its owner and
    blanked for everybody else (see :class:`Step`)."""
    rows: list[Visibility] = []
    for e in events:
        owner = getattr(e, e.owner_field) if e.private_fields and e.owner_field else None
        if owner is None:
            rows.append((e, None, None))
        else:
            rows.append((e, owner, None))
            rows.append((e.for_seat(None), None, owner))
    return rows


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action: who, what (the game's action object), by whom (player, bot,
    server), and its events as ``(event, only, hidden_from)``: ``only`` is the one seat that
    may see that event (``None``: anyone but ``hidden_from``), so a drawn card goes to its owner
    and a count to the rest. Objects all the way: text is made where text is the product (the
    hand's record, :meth:`record`; the terminal; positions)."""

    seat: int
    action: Any
    actor: str
    events: list[Visibility]
    played: tuple[Any, ...] | None = None
    """For a server action that decides for the seat (a time-out): the moves it made, as the
    game's action objects (empty: it made none, as when the time-out itself ends the game);
    ``None``: the action is itself the move."""

    @property
    def text(self) -> str:
        """The action's text, as the hand's record keeps it."""
        return str(self.action)

    @property
    def moves(self) -> tuple[Any, ...]:
        """The game moves this step made, as action objects (what a log names)."""
        return (self.action,) if self.played is None else self.played

    def record(self) -> tuple[str, list[tuple[str, int | None, int | None]]]:
        """The step's text forms for the hand's record: the action and each event row."""
        return str(self.action), [(str(e), only, hidden) for e, only, hidden in self.events]


@dataclass(frozen=True, slots=True)
class SeenStep:
    """One step as one seat may see it (:meth:`TableGame.seen`), in a live update or in the
    hand history alike."""

    seat: int
    actor: str
    action: Any | None
    """The action (object); ``None`` when it names what this seat may not see (the cards a
    poker player throws away): the step's events say what the seat may know of it (how many)."""
    moves: tuple[Any, ...] | None
    """A time-out's moves (:attr:`Step.played`) that this seat may see; ``None``: the action is
    itself the move."""
    events: tuple[TextEvent, ...]
    """The step's events that this seat may see (:meth:`TableGame.visible`)."""


# ------------------------------------------------------------------------------ tables
@dataclass(frozen=True)
class TableRules:
    """How a table hosts a game: what the server does around the rules (platform.md)."""

    fixed_bots: dict[int, str] = field(default_factory=dict)
    """Seats always played by the computer (draw poker: seat 1 is the opponent)."""
    fill_bots: str | None = None
    """At the start, empty seats are given to this bot (UNO); ``None``: no filling."""
    seat_after_start: bool = True
    """A newcomer may take a free seat while a game is in progress."""
    starts_with: Literal["start", "stake"] = "start"
    """``start``: a seated player starts the game; ``stake``: each round starts with a stake
    from the session credit (UNO CASINO)."""
    session_money: bool = False
    """Money moves wallet -> table session credit -> stakes and payouts -> back to the wallet on
    leaving; a disconnected session with no pending decision closes after a while (seed 000)."""
    on_leave: Literal["substitute", "forfeit", "finish"] = "substitute"
    """A player leaving a game in progress: ``substitute`` (a computer player takes the seat,
    unless the game has its own leave action), ``forfeit`` (the game ends, see
    :meth:`TableGame.forfeit`), ``finish`` (the player's default strategy completes it)."""
    substitute_bot: str = "autoplay"


class TableGame(ABC):
    """A game in progress at a table: the contract the server drives every game through."""

    game: str = ""
    action_types: ClassVar[tuple[type, ...]] = ()
    """Every action class of the game (their structured forms: :mod:`mazziere.wire`)."""
    event_types: ClassVar[tuple[type[TextEvent], ...]] = ()
    """Every event class the game emits."""
    event_base: ClassVar[type[TextEvent]] = TextEvent
    """The game's event base, whose registry reads its events' text forms."""
    server_actions: ClassVar[tuple[type, ...]] = ()
    """Action classes only the server applies (a time-out, the end of a timed hand): refused
    with ``server_only`` whoever else sends them (:meth:`apply`)."""
    timeout_action: ClassVar[type | None] = None
    """The class of the action the server records for a time-out (:meth:`timeout`), when the
    game records one (``None``: the time-out is recorded as the move it made)."""

    @classmethod
    @abstractmethod
    def parse_action(cls, text: str) -> Any:
        """An action of this game from its text form (typed error if malformed)."""

    def __copy__(self) -> Self:
        """A shallow copy, as :func:`copy.copy` makes by default (the server copies the game
        before every change and keeps the copy only once the change committed), without the
        pickle protocol's detour, which is slow for a copy made at every change."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    @classmethod
    def wire_schema(cls) -> dict[str, Any]:
        """JSON Schemas of this game's actions and events, for the protocol schema."""
        return wire.json_schema(list(cls.action_types), list(cls.event_types))

    @classmethod
    def recorded_step(
        cls,
        seat: int,
        action: str,
        actor: str,
        events: Iterable[tuple[str, int | None, int | None]],
    ) -> Step:
        """A step read back from the hand's record (:meth:`Step.record`)."""
        parse = cls.event_base.parse
        return Step(
            seat,
            cls.parse_action(action),
            actor,
            [(parse(text), only, hidden) for text, only, hidden in events],
        )

    def legal_wire(self, seat: int) -> list[dict[str, Any]]:
        """The legal actions of ``seat`` in their structured forms."""
        return [wire.action(a) for a in self.legal_actions(seat)]

    # --- making games
    @staticmethod
    @abstractmethod
    def table_config(body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """Validate a create-table request: (the table's config, number of seats)."""

    @staticmethod
    @abstractmethod
    def table_rules(config: dict[str, Any]) -> TableRules:
        """How a table with ``config`` hosts this game."""

    @classmethod
    @abstractmethod
    def new(
        cls,
        config: dict[str, Any],
        seats: int,
        bots: dict[int, str],
        seed: str,
        stake: int | None = None,
        credit: int | None = None,
    ) -> Self:
        """A new game for a table's ``config``, its number of seats and its computer seats,
        dealt from ``seed`` (and, for a staked game, the stake and the credit behind it);
        a refused stake or option raises a typed error."""

    @classmethod
    @abstractmethod
    def from_setup(cls, setup: dict[str, Any], seed: str) -> Self:
        """Rebuild the game as it was dealt (then replay its actions)."""

    @property
    @abstractmethod
    def setup(self) -> dict[str, Any]:
        """Everything besides the seed and the actions needed to rebuild this game."""

    def dealt_events(self) -> list[TextEvent]:
        """The events of the deal, before any action (what the seed dealt: each seat's cards,
        the first card turned), in full; a game whose deal is itself a step has none. Read by
        the verification of a hand (:mod:`mazziere.verify`), never on a table's hot path."""
        return []

    # --- playing
    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """The outcome (empty while the game runs); ``payout`` is money won, for staked
        games."""

    @abstractmethod
    def deciders(self) -> list[int]:
        """Seats with a pending decision (a timer runs for each human one)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Any]:
        """The legal actions of ``seat`` now, in a stable order (the game's action objects)."""

    def legal(self, seat: int) -> list[str]:
        """The legal actions of ``seat`` now, as text (what a client sends back)."""
        return [str(a) for a in self.legal_actions(seat)]

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (JSON-ready); ``None`` for a spectator."""

    def apply(self, seat: int, action: Any, actor: str) -> Step:
        """Apply an action: the game's action object (a bot's, the server's), or its text as a
        client sends it, read here. Raises a typed MazziereError, changing nothing, if refused;
        an action of :attr:`server_actions` is refused for any actor but the server."""
        act = self.parse_action(action) if isinstance(action, str) else action
        if actor != "server" and isinstance(act, self.server_actions):
            raise NotYourTurn("only the server sends time-outs", "server_only")
        return self._apply(seat, act, actor)

    @abstractmethod
    def _apply(self, seat: int, action: Any, actor: str) -> Step:
        """Apply the game's action object for ``actor`` (:meth:`apply` read and vetted it)."""

    @abstractmethod
    def timeout(self, seat: int) -> Step:
        """The server acts for ``seat`` whose decision time ran out; the step names the moves
        it made (:attr:`Step.moves`)."""

    @abstractmethod
    def bot_move(self, seat: int) -> Any | None:
        """What a bot at ``seat`` does now, as the game's action object (``None``: nothing
        now)."""

    def seat_view(self, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The view and the legal actions (structured, :mod:`mazziere.wire`) of ``seat``,
        together (an update needs both; a game whose view already lists them computes them
        once)."""
        return self.view(seat), self.legal_wire(seat)

    def leave_action(self, seat: int) -> Any | None:
        """The game's own action for a player leaving mid-game, if it has one (two-player
        online UNO: the leaver abandons the match)."""
        return None

    def standings(self, seats: int) -> list[dict[str, Any]]:
        """Each of the ``seats`` seats' outcome of the game as it stands (at its end, the
        final one), for the match results a server records: ``rank`` (1 = first; ``None``
        where the game ranks only its winner), ``won``, ``points`` (the game's victory points,
        0 where it awards none) and ``chips`` (won, or lost if negative, over the game;
        ``None`` where it plays for none). By default the winner of :meth:`result` won."""
        winner = self.result().get("winner")
        return [
            {"rank": None, "won": seat == winner, "points": 0, "chips": None}
            for seat in range(seats)
        ]

    def substitute(self, seat: int, bot: str) -> None:
        """From now on the computer player ``bot`` plays ``seat`` (a player left a game whose
        table substitutes leavers, :attr:`TableRules.on_leave`): :meth:`bot_move` answers
        for it. A game whose tables never substitute has no substitutes."""
        raise NotImplementedError(f"{self.game} tables do not substitute a leaving player")

    def forfeit(self, seat: int) -> dict[str, Any]:
        """The result recorded when ``seat`` leaves a game whose table forfeits it."""
        return {"winner": None, "reason": "left", "left": seat}

    def visible(self, step: Step, seat: int | None) -> list[TextEvent]:
        """The events of ``step`` that ``seat`` may see."""
        return [
            e
            for e, only, hidden_from in step.events
            if (only is None and (hidden_from is None or hidden_from != seat)) or only == seat
        ]

    # --- what a seat may see of a step
    @classmethod
    def shown_action(cls, seat: int, action: Any, viewer: int | None) -> Any | None:
        """``seat``'s action as ``viewer`` (``None``: a spectator) may see it while the hand's
        seed is secret: the action itself, or ``None`` when it names cards only ``seat`` may
        see. Every action of a game is public unless its game says otherwise."""
        return action

    def seen(self, step: Step, viewer: int | None, revealed: bool = False) -> SeenStep:
        """What ``viewer`` may see of ``step``: the one rule behind the live updates (events,
        the table's time-out notes) and the hand history (platform.md "Hand history").
        ``revealed``: the hand is over and its seed published, from which anyone can rebuild
        every card, so its actions show in full; its events stay as the viewer saw them."""

        def shown(action: Any) -> Any | None:
            return action if revealed else self.shown_action(step.seat, action, viewer)

        moves = None
        if step.played is not None:
            moves = tuple(m for m in map(shown, step.played) if m is not None)
        return SeenStep(
            step.seat, step.actor, shown(step.action), moves, tuple(self.visible(step, viewer))
        )

    def replay_step(
        self, seq: int, step: Step, viewer: int, view: dict[str, Any] | None, revealed: bool
    ) -> dict[str, Any]:
        """One step of a hand's replay as ``viewer`` saw it (:meth:`seen`), structured, with
        ``view``, the viewer's view after it (``None``: it could not be rebuilt)."""
        seen = self.seen(step, viewer, revealed)
        return {
            "seq": seq,
            "seat": step.seat,
            "action": None if seen.action is None else str(seen.action),
            "act": None if seen.action is None else wire.action(seen.action),
            "moves": None if seen.moves is None else [wire.action(m) for m in seen.moves],
            "actor": step.actor,
            "events": [wire.event(e) for e in seen.events],
            "view": view,
        }


def replay(
    game: TableGame, steps: Iterable[tuple[int, Step]], viewer: int, revealed: bool
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A recorded hand as ``viewer`` saw it: its view as dealt, then each step (numbered, as
    recorded) with the viewer's view after it (:meth:`TableGame.replay_step`). ``game`` is the
    hand as dealt (:meth:`TableGame.from_setup`); each step is applied to it again, and a
    recorded time-out (:attr:`TableGame.timeout_action`) is acted again to name the moves it
    made.
    ``revealed``: the hand is over and its seed published (:meth:`TableGame.seen`)."""
    initial = game.view(viewer)
    out: list[dict[str, Any]] = []
    for seq, step in steps:
        view: dict[str, Any] | None
        try:
            timed_out = game.timeout_action
            if step.actor == "server" and timed_out and isinstance(step.action, timed_out):
                step = replace(step, played=game.timeout(step.seat).played or ())
            else:
                game.apply(step.seat, step.action, step.actor)
            view = game.view(viewer)
        except MazziereError:  # cannot happen for a recorded hand; show the log anyway
            view = None
        out.append(game.replay_step(seq, step, viewer, view, revealed))
    return initial, out
