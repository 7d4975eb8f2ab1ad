"""Rounds anyone can verify (docs/verify.md): a hand's file, replayed from its revealed seed.

A hand's file holds what a player needs to check a hand without trusting the server: the
game, its setup (rules and seats), the players, the commitment published when the hand
started, the seed revealed when it ended, every recorded step (seat, actor, action and the
events the server recorded) and the result. :func:`verify` checks that the seed is the one
committed to (SHA-256 of its 32 bytes), deals again from it through the game's own engine
(:mod:`mazziere.game`), applies every recorded action in order, compares each step's events
and the result with the record, and lists every card dealt. Any difference is a
:class:`Problem` with a stable code and a sentence saying where and why.

Standard library only, and no I/O: ``mazziere verify HAND_FILE`` reads the file, the server
builds it from its records (``GET /api/hands/{id}/file``) and answers ``GET
/api/hands/{id}/verify`` with this same function.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mazziere.errors import MalformedAction, MazziereError
from mazziere.game import Step, TableGame, find_game
from mazziere.textevents import TextEvent

HAND_FORMAT = "mazziere-hand/1"
"""The ``format`` of a hand's file."""

DEALT_FIELDS: dict[str, tuple[str, ...]] = {
    "dealt": ("cards",),
    "drew": ("cards", "received"),
    "turned": ("card",),
    "dealer_card": ("card",),
}
"""Events that take cards from the deck, by tag, and the fields naming those cards: a deal, a
draw (UNO's ``cards``, poker's ``received``), a card turned onto the discard pile, a card
drawn to choose the dealer. The same tags serve UNO, UNO CASINO and poker."""

_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a hand does not verify: a stable ``code``, a sentence, and the step (0: the deal)
    where it shows, if any."""

    code: str
    message: str
    step: int | None = None


@dataclass(frozen=True, slots=True)
class DealtCards:
    """Cards that left the deck: at ``step`` (0: the deal), to ``seat`` (``None``: face up,
    for everyone), by an event ``how`` (its tag)."""

    step: int
    seat: int | None
    how: str
    cards: tuple[str, ...]


@dataclass
class Verification:
    """The outcome of :func:`verify`."""

    hand: int | None
    game: str
    commitment: str
    seed: str
    seed_hash: str | None
    """SHA-256 of the seed's 32 bytes (``None``: the seed is not 64 hex digits)."""
    steps: int = 0
    """Recorded steps replayed through the engine."""
    dealt: list[DealtCards] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def commitment_ok(self) -> bool:
        return self.seed_hash is not None and self.seed_hash == self.commitment.lower()

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "hand": self.hand,
            "game": self.game,
            "commitment": self.commitment,
            "seed": self.seed,
            "seed_sha256": self.seed_hash,
            "commitment_ok": self.commitment_ok,
            "steps": self.steps,
            "dealt": [
                {"step": d.step, "seat": d.seat, "how": d.how, "cards": list(d.cards)}
                for d in self.dealt
            ],
            "cards_dealt": sum(len(d.cards) for d in self.dealt),
            "problems": [
                {"code": p.code, "message": p.message, "step": p.step} for p in self.problems
            ],
            "result": self.result,
        }


def seed_hash(seed: str) -> str | None:
    """SHA-256 of the seed's 32 bytes, in hex, as the commitment is made
    (:func:`mazziere.game.commitment`); ``None`` if ``seed`` is not 64 hex digits.

    >>> seed_hash("00" * 32)
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    if not _HEX64.fullmatch(seed):
        return None
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def hand_file(
    *,
    hand: int,
    game: str,
    setup: Mapping[str, Any],
    players: list[Any],
    commitment: str,
    seed: str,
    steps: Iterable[tuple[int, int, str, str, list[Any]]],
    result: Mapping[str, Any] | None,
    started_at: str | None = None,
    ended_at: str | None = None,
) -> dict[str, Any]:
    """A hand's file (JSON-ready) from its record: ``steps`` are ``(seq, seat, actor, action,
    events)``, each event ``[text, only, hidden_from]`` as recorded (:meth:`Step.record`)."""
    return {
        "format": HAND_FORMAT,
        "hand": hand,
        "game": game,
        "setup": dict(setup),
        "players": list(players),
        "commitment": commitment,
        "seed": seed,
        "steps": [
            {
                "seq": seq,
                "seat": seat,
                "actor": actor,
                "action": action,
                "events": [list(e) for e in events],
            }
            for seq, seat, actor, action, events in steps
        ],
        "result": None if result is None else dict(result),
        "started_at": started_at,
        "ended_at": ended_at,
    }


def read_hand_file(text: str) -> dict[str, Any]:
    """A hand's file from its JSON text; a file that is not one raises ``MalformedAction``
    naming what is missing."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise MalformedAction(f"not a hand's file: not JSON ({e})", "bad_hand_file") from None
    if not isinstance(data, dict) or data.get("format") != HAND_FORMAT:
        raise MalformedAction(
            f"not a hand's file: its format is not {HAND_FORMAT}", "bad_hand_file"
        )
    for key, kind in (
        ("game", str),
        ("setup", dict),
        ("commitment", str),
        ("seed", str),
        ("steps", list),
    ):
        if not isinstance(data.get(key), kind):
            raise MalformedAction(f"a hand's file needs {key!r} ({kind.__name__})", "bad_hand_file")
    for i, st in enumerate(data["steps"]):
        if not (
            isinstance(st, dict)
            and isinstance(st.get("seat"), int)
            and isinstance(st.get("actor"), str)
            and isinstance(st.get("action"), str)
        ):
            raise MalformedAction(
                f"step {i + 1} of the file needs a seat, an actor and an action", "bad_hand_file"
            )
    return data


def _dealt(
    step: int, events: Iterable[tuple[TextEvent, int | None, int | None]]
) -> list[DealtCards]:
    """The cards that left the deck in these events (their full forms: not the copies blanked
    for the other seats)."""
    out: list[DealtCards] = []
    for e, _only, hidden_from in events:
        names = DEALT_FIELDS.get(e.tag)
        if names is None or hidden_from is not None:
            continue
        cards: list[str] = []
        for name in names:
            value = getattr(e, name, None)
            if value is None:
                continue
            cards.extend(str(c) for c in (value if isinstance(value, tuple) else (value,)))
        if cards:
            seat = getattr(e, "seat", None)
            out.append(DealtCards(step, seat, e.tag, tuple(cards)))
    return out


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def verify(record: Mapping[str, Any]) -> Verification:
    """Check a hand's file (:func:`hand_file`): the seed against the commitment, then the
    replay of every recorded step from that seed, its events and the result against the
    record. Stops at the first step the engine refuses or that differs from the record."""
    seed, commit = str(record.get("seed") or ""), str(record.get("commitment") or "")
    hand = record.get("hand")
    v = Verification(
        hand=int(hand) if isinstance(hand, int) else None,
        game=str(record.get("game") or ""),
        commitment=commit,
        seed=seed,
        seed_hash=seed_hash(seed),
    )
    if v.seed_hash is None:
        v.problems.append(
            Problem("bad_seed", "the seed is not 64 hexadecimal digits (256 bits)", 0)
        )
        return v
    if not v.commitment_ok:
        v.problems.append(
            Problem(
                "commitment_mismatch",
                f"the seed does not match the commitment: SHA-256 of the seed is "
                f"{v.seed_hash}, the commitment is {commit}",
                0,
            )
        )
    try:
        kind = find_game(v.game)
        game = kind.from_setup(dict(record.get("setup") or {}), seed)
    except (MazziereError, KeyError, TypeError, ValueError) as e:
        v.problems.append(Problem("bad_setup", f"the hand cannot be dealt from its setup: {e}", 0))
        return v
    v.dealt.extend(_dealt(0, [(e, None, None) for e in game.dealt_events()]))
    steps = list(record.get("steps") or [])
    for n, st in enumerate(steps, start=1):
        seq = st.get("seq", n)
        if seq != n:
            v.problems.append(
                Problem("steps_out_of_order", f"step {n} is numbered {seq}: a step is missing", n)
            )
            return v
        step = _replay_step(game, st, n, v)
        if step is None:
            return v
        v.steps = n
        v.dealt.extend(_dealt(n, step.events))
        recorded = st.get("events")
        if recorded is not None:
            replayed = [list(e) for e in step.record()[1]]
            if [list(e) for e in recorded] != replayed:
                v.problems.append(_events_differ(n, recorded, replayed))
                return v
    _check_result(game, record, v)
    return v


def _replay_step(game: TableGame, st: Mapping[str, Any], n: int, v: Verification) -> Step | None:
    """Apply one recorded step to ``game`` as the table did (a time-out is the server's
    action); ``None`` and a problem if the engine refuses it."""
    seat, actor, action = st["seat"], st["actor"], st["action"]
    if actor not in ("player", "bot", "server"):
        v.problems.append(Problem("bad_actor", f"step {n}: unknown actor {actor!r}", n))
        return None
    try:
        return game.apply(seat, action, actor)
    except MazziereError as e:
        v.problems.append(
            Problem(
                "step_refused",
                f"step {n}: the engine refuses {action!r} by seat {seat} ({actor}): "
                f"{e.message} [{e.code}]",
                n,
            )
        )
    except (IndexError, KeyError, TypeError, ValueError) as e:
        v.problems.append(
            Problem(
                "step_refused", f"step {n}: the engine refuses {action!r} by seat {seat}: {e}", n
            )
        )
    return None


def _events_differ(n: int, recorded: list[Any], replayed: list[list[Any]]) -> Problem:
    for i, (a, b) in enumerate(zip(recorded, replayed, strict=False)):
        if list(a) != b:
            return Problem(
                "events_differ",
                f"step {n}: event {i + 1} is recorded as {a[0]!r}, the seed and the actions "
                f"give {b[0]!r}",
                n,
            )
    return Problem(
        "events_differ",
        f"step {n}: {len(recorded)} events recorded, the seed and the actions give {len(replayed)}",
        n,
    )


def _check_result(game: TableGame, record: Mapping[str, Any], v: Verification) -> None:
    """The result of the replay is the recorded one: the game's own, or, for a player who
    left a game whose table forfeits it, the forfeit's."""
    recorded = record.get("result")
    if game.is_over:
        v.result = game.result()
        if recorded is not None and _canonical(recorded) != _canonical(v.result):
            v.problems.append(
                Problem(
                    "result_differs",
                    f"the recorded result {_canonical(recorded)} is not the replay's "
                    f"{_canonical(v.result)}",
                )
            )
        return
    seats = range(len(record.get("players") or ()))
    if isinstance(recorded, dict) and any(
        _canonical(recorded) == _canonical(game.forfeit(s)) for s in seats
    ):
        v.result = dict(recorded)  # a player left a game whose table forfeits it
        return
    v.problems.append(
        Problem(
            "not_over",
            f"after the {v.steps} recorded steps the game is not over, yet the record "
            f"gives the result {_canonical(recorded)}",
        )
    )


def report_lines(v: Verification, players: list[Any] | None = None) -> list[str]:
    """The verification in words, one line each: the commitment, every card dealt (by step
    and seat), the result and any problem (``mazziere verify``)."""

    def who(seat: int | None) -> str:
        if seat is None:
            return "face up"
        p = players[seat] if players and 0 <= seat < len(players) else None
        name = (p.get("name") or p.get("bot")) if isinstance(p, dict) else None
        return f"seat {seat}" + (f" ({name})" if name else "")

    lines = [
        f"hand {v.hand} ({v.game})" if v.hand is not None else f"hand ({v.game})",
        f"commitment        {v.commitment}",
        f"seed              {v.seed}",
        f"SHA-256 of seed   {v.seed_hash or '(not 64 hex digits)'}",
        "commitment: " + ("matches the seed" if v.commitment_ok else "DOES NOT match the seed"),
        "cards dealt:",
    ]
    for d in v.dealt:
        where = "deal" if d.step == 0 else f"step {d.step}"
        lines.append(f"  {where:<9} {who(d.seat):<24} {d.how:<12} {' '.join(d.cards)}")
    lines.append(f"steps replayed: {v.steps}; cards dealt: {sum(len(d.cards) for d in v.dealt)}")
    if v.result is not None:
        lines.append(f"result: {_canonical(v.result)}")
    for p in v.problems:
        lines.append(f"PROBLEM [{p.code}]: {p.message}")
    lines.append("verified: OK" if v.ok else f"verified: FAILED ({len(v.problems)} problem(s))")
    return lines
