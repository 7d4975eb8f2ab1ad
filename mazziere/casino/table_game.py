"""UNO CASINO through the game contract (:mod:`mazziere.game`): one round per hand for a stake
from the session credit; on a time-out the player's default strategy decides (seed 000).

The bank (seat 1) is a computer player of the table: the player's move plays that
move only; while the bank is to move it is the seat to decide, :meth:`CasinoTableGame.bot_move`
names its move by its published strategy and applying it (actor ``bot``) plays that one move,
each its own recorded step, so the table paces the bank's reply like any computer player. A
hand recorded before (its setup has no ``paced_bank``) replays the old way: the bank's whole
reply inside the player's step."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mazziere import wire
from mazziere.casino import (
    BANK,
    PLAYER,
    CasinoRules,
    apply,
    bank_action,
    default_action,
    legal_actions,
    new_round,
    play_bank,
    play_default,
    view,
)
from mazziere.casino.events import MultiplierChanged, RoundEnded
from mazziere.casino.round import CasinoRound, CasinoView
from mazziere.errors import GameOver, IllegalAction, NotYourTurn
from mazziere.game import Step, TableGame, TableRules, event_rows, seed_rng
from mazziere.textevents import TextEvent
from mazziere.uno import Action
from mazziere.uno import actions as A
from mazziere.uno.events import Event
from mazziere.uno.table_game import UNO_ACTIONS, UNO_EVENTS

DEFAULTS = CasinoRules()
"""A table that names no stake limits or decision time gets these."""


def rules_from(config: dict[str, Any]) -> CasinoRules:
    return CasinoRules(
        min_stake=int(config.get("min_stake", DEFAULTS.min_stake)),
        max_stake=int(config.get("max_stake", DEFAULTS.max_stake)),
        decision_time_limit=float(config.get("decision_seconds", DEFAULTS.decision_time_limit)),
    )


class CasinoTableGame(TableGame):
    """One casino round for a validated stake."""

    game = "casino"
    action_types = UNO_ACTIONS
    event_types = (*UNO_EVENTS, MultiplierChanged, RoundEnded)
    event_base = Event
    server_actions = A.SERVER_ONLY
    timeout_action = A.Timeout

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return Action.parse(text)

    def __init__(
        self,
        config: dict[str, Any],
        stake: int,
        seed: str,
        credit: int | None,
        paced_bank: bool = True,
    ) -> None:
        self.config = dict(config)
        self.rules = rules_from(config)
        self.stake = stake
        self.paced_bank = paced_bank
        """The bank moves as its own steps (``False``: a hand recorded before, whose player
        steps hold the bank's whole reply)."""
        self._bank_moves = 0 if paced_bank else None
        self.round: CasinoRound
        self.round, self.start_events = new_round(
            self.rules, stake, seed_rng(seed), credit, bank_moves=self._bank_moves
        )

    @property
    def setup(self) -> dict[str, Any]:
        out: dict[str, Any] = {"config": self.config, "stake": self.stake}
        if self.paced_bank:
            out["paced_bank"] = True
        return out

    def dealt_events(self) -> list[TextEvent]:
        """The round's deal (and, for a hand recorded before the bank was paced, the bank's
        first moves), as dealt from the seed."""
        return list(self.start_events)

    @classmethod
    def from_setup(cls, setup: dict[str, Any], seed: str) -> CasinoTableGame:
        paced = bool(setup.get("paced_bank", False))
        return cls(setup["config"], int(setup["stake"]), seed, None, paced_bank=paced)

    @classmethod
    def new(
        cls,
        config: dict[str, Any],
        seats: int,
        bots: dict[int, str],
        seed: str,
        stake: int | None = None,
        credit: int | None = None,
    ) -> CasinoTableGame:
        """A round for ``stake`` cents; a stake the rules refuse (or above ``credit``) raises
        :class:`~mazziere.casino.StakeError` before anything moves."""
        return cls(config, 0 if stake is None else stake, seed, credit)

    @staticmethod
    def table_rules(config: dict[str, Any]) -> TableRules:
        """A round starts with a stake from the session credit; leaving completes a round in
        progress by the default strategy and closes the session (seed 000)."""
        return TableRules(
            fixed_bots={BANK: "bank"}, starts_with="stake", session_money=True, on_leave="finish"
        )

    @staticmethod
    def table_config(body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        cfg = {
            "min_stake": int(body.get("min_stake", DEFAULTS.min_stake)),
            "max_stake": int(body.get("max_stake", DEFAULTS.max_stake)),
        }
        rules_from(cfg)
        return cfg, 2  # the player (seat 0) and the bank (seat 1, played by the server)

    @property
    def is_over(self) -> bool:
        return self.round.result is not None

    def result(self) -> dict[str, Any]:
        r = self.round.result
        if r is None:
            return {}
        return {
            "winner": r.winner,
            "multiplier": r.multiplier,
            "stake": r.stake,
            "payout": r.payout,
            "reason": r.reason,
            "turns": r.turns,
        }

    def deciders(self) -> list[int]:
        if self.is_over:
            return []
        return [BANK] if self._bank_to_move() else [PLAYER]

    def _bank_to_move(self) -> bool:
        return self.paced_bank and self.round.result is None and self.round.uno.current == BANK

    def legal_actions(self, seat: int) -> list[Action]:
        return list(legal_actions(self.round)) if seat == PLAYER else []

    def seat_view(self, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The view and the player's legal actions from one engine view (it lists them)."""
        v = view(self.round)
        legal = [wire.action(a) for a in v.legal] if seat == PLAYER else []
        return self._view_json(v, seat), legal

    def view(self, seat: int | None) -> dict[str, Any]:
        return self._view_json(view(self.round), seat)

    def _view_json(self, v: CasinoView, seat: int | None) -> dict[str, Any]:
        """The player's view (seat 0) never shows the bank's hand, only its count; the bank's
        own view (seat 1) shows its hand and not the player's."""
        own = v.hand if seat == PLAYER else self.round.uno.hands[BANK] if seat == BANK else ()
        return {
            "seat": seat,
            "hand": [str(c) for c in own],
            "bank_cards": v.bank_cards,
            "player_cards": len(v.hand),
            "top": str(v.top),
            "color": None if v.color is None else v.color.letter,
            "draw_pile_count": v.draw_pile_count,
            "multiplier": v.multiplier,
            "draws_left": v.draws_left,
            "stake": v.stake,
            "phase": v.phase.value,
            "drawn": None if v.drawn is None or seat != 0 else str(v.drawn),
            "my_turn": v.my_turn and seat == 0,
            "current": None if v.result is not None else self.round.uno.current,
            "result": self.result() or None,
        }

    def _step(self, action: Action, actor: str, events: list[Event], seat: int = PLAYER) -> Step:
        # the bank's cards are the bank's (seat 1): nobody else sees them
        return Step(seat, action, actor, event_rows(events))

    def _apply(self, seat: int, action: Action, actor: str) -> Step:
        if seat == BANK and self.paced_bank:
            return self._apply_bank(action, actor)
        if seat != PLAYER:
            raise NotYourTurn("only the player acts at a casino table")
        self.round, events = apply(self.round, action, bank_moves=self._bank_moves)
        return self._step(action, actor, events)

    def _apply_bank(self, action: Action, actor: str) -> Step:
        """The bank's next move: only the one its published strategy makes now."""
        if self.round.result is not None:
            raise GameOver("the round is over")
        move = bank_action(self.round)
        if move is None:
            raise NotYourTurn("the player is to move")
        if action != move:
            raise IllegalAction(
                f"the bank plays by its published strategy: {move}, not {action}",
                "not_bank_strategy",
            )
        self.round, events = play_bank(self.round)
        return self._step(action, actor, events, BANK)

    def timeout(self, seat: int) -> Step:
        """The player's default strategy decides (000), naming the move it made."""
        if seat != PLAYER or self._bank_to_move():
            raise NotYourTurn("only the player's time runs out at a casino table")
        if self.round.result is not None:
            raise GameOver("the round is over")
        move = default_action(self.round)
        self.round, events = play_default(self.round, bank_moves=self._bank_moves)
        return replace(self._step(A.TIMEOUT, "server", events), played=(move,))

    def bot_move(self, seat: int) -> Action | None:
        """The bank's next move by its strategy (on a copy of the round's strategy stream)."""
        if seat != BANK or not self._bank_to_move():
            return None
        return bank_action(self.round)
