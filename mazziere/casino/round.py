"""A UNO CASINO round: one player against the bank for a stake (docs/rules/casino.md, seed 000).

Built on the UNO engine with the ``casino`` preset: seat 0 is the player ("punta", 4 cards,
moves first), seat 1 the bank ("banco", 5 cards). The player acts through the same
``legal_actions`` / ``apply`` / ``view`` API as UNO; after each player action the bank's
fixed strategy plays automatically until the player must decide again or the round is over.

The payout multiplier starts at x3; every card the player draws by choice or for lack of a
playable card lowers it one step, every card the bank draws for lack of a playable card raises
it one step (never above x3); +2/+4 cards move nothing. At x1 the player may not draw: with
nothing to play the bank wins. With the draw pile out, the side that cannot play loses for
the player: the bank wins. A winning player is paid ``stake * multiplier`` (stake included).

>>> r, _ = new_round(CasinoRules(), 100, rng=SplitMixRng(1))
>>> while r.result is None:
...     r, _ = play_default(r)
>>> r.result.payout in (0, 100, 200, 300)
True

``turns`` counts every action applied in the round, the player's and the bank's.

A table paces the bank's reply: ``bank_moves=0`` stops a deal or a player's move
before the bank plays (the end-of-round checks still run); :func:`bank_action` then names the
bank's next move by its strategy and :func:`play_bank` plays it, one move at a time. The moves,
the strategy stream and the result are exactly those of the round played all at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mazziere.cards.uno import WILD_FACE, Card, Color
from mazziere.casino import rulebook as R
from mazziere.casino.events import MultiplierChanged, RoundEnded
from mazziere.casino.readings import Readings
from mazziere.casino.rules import MAX_MULTIPLIER, CasinoRules, validate_stake
from mazziere.casino.strategy import (
    BankMemory,
    bank_decision,
    player_decision,
    random_decision,
)
from mazziere.errors import GameOver, IllegalAction, NotYourTurn
from mazziere.rng import Rng, SplitMixRng, make_rng
from mazziere.uno import State
from mazziere.uno import actions as A
from mazziere.uno import engine as uno
from mazziere.uno.events import Drew, Event, Played
from mazziere.uno.state import Phase

PLAYER = 0
BANK = 1


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended. ``payout`` is the total returned to the player in cents."""

    winner: str
    multiplier: int
    stake: int
    payout: int
    reason: str
    turns: int


@dataclass(frozen=True, slots=True)
class CasinoRound:
    """A round in progress or finished. Holds hidden parts: only :func:`view` goes out."""

    rules: CasinoRules
    uno: State
    stake: int
    multiplier: int
    strategy_rng: Rng
    memory: BankMemory
    turns: int
    result: RoundResult | None
    run: int = 0
    """Cards the player has laid since the bank last moved (the ``played`` reading of the
    Skip/Reverse weight)."""
    lowest: int = MAX_MULTIPLIER
    """The lowest multiplier the round has reached (the ``x1_ban`` reading ``for_good``)."""

    @property
    def is_over(self) -> bool:
        return self.result is not None


@dataclass(frozen=True, slots=True)
class CasinoView:
    """What the player sees: own hand, the bank's card count, the pile, the multiplier."""

    hand: tuple[Card, ...]
    bank_cards: int
    top: Card
    color: Color | None
    draw_pile_count: int
    multiplier: int
    draws_left: int
    stake: int
    phase: Phase
    drawn: Card | None
    my_turn: bool
    memory: BankMemory
    legal: tuple[A.Action, ...]
    result: RoundResult | None


def new_round(
    rules: CasinoRules,
    stake: object,
    rng: Rng | int | str | bytes | None = None,
    credit: int | None = None,
    *,
    bank_moves: int | None = None,
) -> tuple[CasinoRound, list[Event]]:
    """Deal a round for a validated stake (raises ``StakeError`` before anything happens).

    The source first spawns the strategies' tie-break stream, then deals the UNO hand. The
    bank then makes at most ``bank_moves`` moves (``None``: until the player decides)."""
    amount = validate_stake(stake, rules, credit)
    src = make_rng(rng).copy()
    strategy = src.spawn()
    state, events = uno.new_game_with_events(rules.uno, 2, src)
    r = CasinoRound(
        rules=rules,
        uno=state,
        stake=amount,
        multiplier=rules.start_multiplier,
        strategy_rng=strategy,
        memory=BankMemory(),
        turns=0,
        result=None,
        lowest=rules.start_multiplier,
    )
    return _advance(r, events, bank_moves)


def legal_actions(r: CasinoRound) -> tuple[A.Action, ...]:
    """The player's legal actions now (none while the round is over)."""
    if r.result is not None or r.uno.current != PLAYER:
        return ()
    acts = uno.legal_actions(r.uno, PLAYER)
    if not may_draw(r):
        acts = tuple(a for a in acts if not isinstance(a, A.Draw))
    return acts


def apply(
    r: CasinoRound, action: A.Action | str, *, bank_moves: int | None = None
) -> tuple[CasinoRound, list[Event]]:
    """Apply the player's action, then let the bank play until the player's next decision
    (at most ``bank_moves`` bank moves; ``0``: the bank's reply waits for :func:`play_bank`).

    ``timeout`` applies the player's default strategy (000: on expiry the system decides)."""
    if r.result is not None:
        raise GameOver("the round is over")
    if isinstance(action, str):
        action = A.Action.parse(action)
    if isinstance(action, A.Timeout):
        return play_default(r, bank_moves=bank_moves)
    if r.uno.current != PLAYER:
        raise NotYourTurn("the bank is playing")
    if isinstance(action, A.Draw) and not may_draw(r):
        raise IllegalAction(
            "at x1 the player may not draw (000 'PAGAMENTI'); play a card if you can",
            "draw_banned_at_x1",
        )
    state, events = uno.apply(r.uno, PLAYER, action)
    return _after_move(r, state, events, PLAYER, r.strategy_rng, bank_moves)


def default_action(r: CasinoRound) -> A.Action:
    """What the player's default strategy would do now (for display; see play_default)."""
    return _default(r, r.strategy_rng.copy())


def play_default(
    r: CasinoRound, *, bank_moves: int | None = None
) -> tuple[CasinoRound, list[Event]]:
    """Decide by the player's default strategy and apply it (time-outs, recovery, RTP); the
    bank then replies as after :func:`apply`."""
    if r.result is not None:
        raise GameOver("the round is over")
    if r.uno.current != PLAYER:
        raise NotYourTurn("the bank is playing")
    rng = r.strategy_rng.copy()
    action = _default(r, rng)
    state, events = uno.apply(r.uno, PLAYER, action)
    return _after_move(r, state, events, PLAYER, rng, bank_moves)


def bank_action(r: CasinoRound) -> A.Action | None:
    """The bank's next move by its published strategy (``None``: the bank is not to move),
    decided on a copy of the round's strategy stream: :func:`play_bank` makes this move."""
    if r.result is not None or r.uno.current != BANK:
        return None
    return _bank_decision(r.uno, r.strategy_rng.copy())


def play_bank(r: CasinoRound) -> tuple[CasinoRound, list[Event]]:
    """The bank's next move (:func:`bank_action`), then the end-of-round checks; the bank's
    following move, if it moves again, waits for the next call."""
    if r.result is not None:
        raise GameOver("the round is over")
    if r.uno.current != BANK:
        raise NotYourTurn("the player is to move")
    return _advance(r, [], 1)


def _default(r: CasinoRound, rng: Rng) -> A.Action:
    s = r.uno
    assert s.color is not None
    return player_decision(
        s.hands[PLAYER],
        s.discard[-1],
        int(s.color),
        len(s.hands[BANK]),
        s.phase,
        legal_actions(r),
        r.memory,
        rng,
        r.run,
        r.rules.readings,
    )


def view(r: CasinoRound) -> CasinoView:
    s = r.uno
    return CasinoView(
        hand=s.hands[PLAYER],
        bank_cards=len(s.hands[BANK]),
        top=s.discard[-1],
        color=s.color,
        draw_pile_count=len(s.draw_pile),
        multiplier=r.multiplier,
        draws_left=max(0, r.multiplier - 1),
        stake=r.stake,
        phase=s.phase,
        drawn=s.drawn if s.current == PLAYER else None,
        my_turn=r.result is None and s.current == PLAYER,
        memory=r.memory,
        legal=legal_actions(r),
        result=r.result,
    )


def settle(r: CasinoRound) -> int:
    """Cents returned to the player: stake x multiplier on a win, nothing on a loss."""
    if r.result is None:
        raise IllegalAction("the round is not over", "round_not_over")
    return r.result.payout


# ------------------------------------------------------------------------------ internals
_DRAW_REASON = {"choice": R.DRAW_CHOICE, "no_play": R.DRAW_NO_PLAY}


def _multiplier_after(m: int, new: list[Event], events: list[Event], rd: tuple[int, ...]) -> int:
    """The multiplier after the draws among ``new`` (:func:`rulebook.multiplier_after_draw`,
    card by card, under the readings ``rd``), each step reported in ``events``."""
    for e in new:
        if not isinstance(e, Drew):
            continue
        reason = _DRAW_REASON.get(e.reason, R.DRAW_PENALTY)
        for nth in range(e.count):
            after = R.multiplier_after_draw(m, e.seat == PLAYER, reason, nth, rd)
            if after != m:
                m = after
                events.append(
                    MultiplierChanged(m, "player_drew" if e.seat == PLAYER else "bank_drew")
                )
    return m


def _after_move(
    r: CasinoRound,
    state: State,
    events: list[Event],
    seat: int,
    rng: Rng,
    bank_moves: int | None = None,
) -> tuple[CasinoRound, list[Event]]:
    m = _multiplier_after(r.multiplier, list(events), events, r.rules.readings.codes())
    laid = sum(1 for e in events if isinstance(e, Played) and e.seat == PLAYER)
    r = _with(
        r,
        uno=state,
        multiplier=m,
        turns=r.turns + 1,
        strategy_rng=rng,
        run=r.run + laid,
        lowest=min(r.lowest, m),
    )
    return _advance(r, events, bank_moves)


def may_draw(r: CasinoRound) -> bool:
    """Whether the player may draw now (:func:`rulebook.player_may_draw`)."""
    return R.player_may_draw(r.multiplier, r.lowest, r.rules.readings.codes())


def _with(r: CasinoRound, **changes: Any) -> CasinoRound:
    """``dataclasses.replace(r, **changes)`` without its per-call introspection (the bank's
    loop makes one per card it plays)."""
    get = changes.get
    return CasinoRound(
        rules=get("rules", r.rules),
        uno=get("uno", r.uno),
        stake=get("stake", r.stake),
        multiplier=get("multiplier", r.multiplier),
        strategy_rng=get("strategy_rng", r.strategy_rng),
        memory=get("memory", r.memory),
        turns=get("turns", r.turns),
        result=get("result", r.result),
        run=get("run", r.run),
        lowest=get("lowest", r.lowest),
    )


def _bank_memory(before: State, after: State, action: A.Action, memory: BankMemory) -> BankMemory:
    """What the player remembers of the bank's latest turn (a play, or a draw it kept)."""
    if isinstance(action, A.Play):
        card = action.cards[-1]
        return BankMemory(
            last_card=card,
            played_wild=card == WILD_FACE,
            chosen_color=action.color if card >= WILD_FACE else None,
        )
    if isinstance(action, A.Draw) and not (after.current == BANK and after.phase is Phase.DRAWN):
        return BankMemory(
            last_card=memory.last_card, drew_without_playing=True, passed_color=before.color
        )
    return memory  # a drawn card about to be played: the turn goes on


def _bank_decision(s: State, rng: Rng) -> A.Action:
    assert s.color is not None
    legal = uno.legal_actions(s, BANK)
    return bank_decision(s.hands[BANK], s.discard[-1], int(s.color), s.phase, legal, rng)


def _advance(
    r: CasinoRound, events: list[Event], most: int | None = None
) -> tuple[CasinoRound, list[Event]]:
    """Let the bank play; stop at the player's decision, the end of the round, or after
    ``most`` bank moves (``None``: no limit), the end-of-round checks made in every case."""
    rng = r.strategy_rng.copy()
    played = 0
    while True:
        s = r.uno
        if s.is_over:
            assert s.result is not None
            if s.result.winner == PLAYER:
                return _finish(r, "player", "player_out", events)
            return _finish(r, "bank", "bank_out", events)
        legal = uno.legal_actions(s, s.current)
        can_play = any(isinstance(a, A.Play) for a in legal)
        if not can_play and not s.draw_pile:
            return _pile_out(_with(r, strategy_rng=rng), events)
        if s.current == PLAYER:
            if not can_play and not may_draw(r):
                return _finish(_with(r, strategy_rng=rng), "bank", "no_draw_at_x1", events)
            return _with(r, strategy_rng=rng), events
        if most is not None and played >= most:
            return _with(r, strategy_rng=rng), events
        played += 1
        assert s.color is not None
        action = bank_decision(s.hands[BANK], s.discard[-1], int(s.color), s.phase, legal, rng)
        state, ev = uno.apply(s, BANK, action)
        events.extend(ev)
        m = _multiplier_after(r.multiplier, ev, events, r.rules.readings.codes())
        r = _with(
            r,
            uno=state,
            multiplier=m,
            turns=r.turns + 1,
            memory=_bank_memory(s, state, action, r.memory),
            strategy_rng=rng,
            run=0,
            lowest=min(r.lowest, m),
        )


def pile_out_end(r: CasinoRound) -> tuple[str, int]:
    """The draw pile is out and the side to move cannot play: the winner and payout the
    ``pile_out`` reading gives (:func:`rulebook.pile_out_payout`): the bank wins, the player
    wins (``player``), or the stake is returned (winner ``none``)."""
    player_n, bank_n = len(r.uno.hands[PLAYER]), len(r.uno.hands[BANK])
    paid = R.pile_out_payout(r.multiplier, player_n, bank_n, r.rules.readings.codes())
    if paid == 0:
        return "bank", 0
    fewer = r.rules.readings.pile_out == "fewer" and player_n < bank_n
    return ("player" if fewer else "none"), paid * r.stake


def _pile_out(r: CasinoRound, events: list[Event]) -> tuple[CasinoRound, list[Event]]:
    winner, payout = pile_out_end(r)
    return _finish(r, winner, "pile_out", events, payout)


def _finish(
    r: CasinoRound, winner: str, reason: str, events: list[Event], payout: int | None = None
) -> tuple[CasinoRound, list[Event]]:
    if payout is None:
        payout = r.stake * r.multiplier if winner == "player" else 0
    result = RoundResult(winner, r.multiplier, r.stake, payout, reason, r.turns)
    events.append(RoundEnded(winner, r.multiplier, r.stake, payout, reason, r.turns))
    return _with(r, result=result), events


def outcome(result: RoundResult) -> tuple[int, int, int]:
    """A finished round as the RTP engines count it: (paid, multiple, turns): ``(1, k)``
    when the round paid ``k`` times the stake (a win at the multiplier, or a refund ``k=1``),
    ``(0, multiplier)`` when the bank won."""
    if result.payout > 0:
        return (1, result.payout // result.stake, result.turns)
    return (0, result.multiplier, result.turns)


def simulate_round(seed: int, readings: Readings | None = None) -> tuple[int, int, int]:
    """One round with both default strategies on ``SplitMixRng(seed)``: (paid, multiple,
    turns) (:func:`outcome`). The compiled kernel must give the same triple for every seed."""
    rules = _rules_of(readings)
    r, _ = new_round(rules, rules.min_stake, rng=SplitMixRng(seed))
    while r.result is None:
        r, _ = play_default(r)
    return outcome(r.result)


def _rules_of(readings: Readings | None) -> CasinoRules:
    return CasinoRules() if readings is None else CasinoRules(readings=readings)


def choice_rng(seed: int) -> SplitMixRng:
    """The source of a player's own choices in the round on ``SplitMixRng(seed)`` (the random
    and search strategies): the third output of that stream, after the strategies' tie-break
    stream and the hand's source that :func:`new_round` takes (the kernel's ``_CHOICE_RNG``)."""
    g = SplitMixRng(seed)
    g.next64()
    g.next64()
    return SplitMixRng(g.next64())


def simulate_round_random(seed: int) -> tuple[int, int, int]:
    """:func:`simulate_round` with a careless player (:func:`strategy.random_decision` on
    :func:`choice_rng`); the bank plays its published strategy."""
    r, _ = new_round(CasinoRules(), CasinoRules().min_stake, rng=SplitMixRng(seed))
    choice = choice_rng(seed)
    while r.result is None:
        r, _ = apply(r, random_decision(legal_actions(r), choice))
    return outcome(r.result)
