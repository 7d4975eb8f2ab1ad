"""Five-card draw through the game contract (:mod:`mazziere.game`): the player (seat 0) against
a computer level (seat 1),
play money (chips), no ledger. On a time-out the server checks if it costs nothing, else folds
(platform.md "Time and presence"); in the draw it stands pat. The cards a seat throws away in
the draw are its own: the other seat learns only how many (:meth:`PokerTableGame.shown_action`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from mazziere import wire
from mazziere.errors import OptionError
from mazziere.fields import check_values
from mazziere.game import Step, TableGame, TableRules, bot_random, event_rows, seed_rng
from mazziere.poker import View
from mazziere.poker import actions as PA
from mazziere.poker import engine as poker
from mazziere.poker.bots import LEVELS, find_bot
from mazziere.poker.events import Event
from mazziere.poker.options import DEFAULT_ITEMS, Rules
from mazziere.poker.presets import find_preset
from mazziere.textevents import TextEvent

HUMAN, COMPUTER = 0, 1
DEFAULT_LEVEL = "normal"
"""The computer's level at a table that names none."""
DEFAULT_PRESET = "classic"
"""The rule set of a table that names none."""
T = TypeVar("T")


def poker_rules(config: dict[str, Any]) -> Rules:
    """A table's rules: its preset with its options over it (JSON lists become tuples), checked
    by :class:`~mazziere.poker.options.Rules` (an unknown option or a value out of its bounds
    is an OptionError). A table stored before presets named only its ``deck``."""
    rules = find_preset(str(config.get("preset", DEFAULT_PRESET)))
    options = config.get("options")
    if options is None:
        options = {"deck": config["deck"]} if "deck" in config else {}
    if not isinstance(options, dict):
        raise OptionError("options are an object of option names and values", "bad_options")
    check_values(Rules, options)
    return rules.with_options(**options) if options else rules


def playable(rules: Rules) -> Rules:
    """``rules`` if a game can start with them: both bankrolls pay the first ante (a player
    who cannot is out before the first deal, draw-poker.md "End of the game")."""
    if rules.bankroll < rules.ante:
        raise OptionError(
            f"bankroll {rules.bankroll} cannot pay the first ante of {rules.ante}",
            "bad_combination",
        )
    return rules


def check_or_fold(legal: Sequence[T], owed: int = 0) -> T:
    """The time-out decision (platform.md "Time and presence"): check if it is free, else fold;
    in the draw, stand pat. Free means ``wait`` (ASPETTA), or, owing nothing, ``replace``
    (SOSTITUISCI: go to the draw) or ``see`` (VEDI: the showdown). ``legal``: the legal
    actions (objects or their texts); the one chosen is returned as given."""
    by_text = {str(a): a for a in legal}
    for word in ("draw", "wait"):
        if word in by_text:
            return by_text[word]
    if owed == 0:
        for word in ("replace", "see"):
            if word in by_text:
                return by_text[word]
    return by_text.get("fold", legal[0])


class PokerTableGame(TableGame):
    """A game of draw poker against the computer, to the end of the bankrolls or the pledges."""

    game = "poker"
    action_types = tuple(
        c
        for c in vars(PA).values()
        if isinstance(c, type) and issubclass(c, PA.Action) and c is not PA.Action
    )
    event_types = tuple(Event.registry.values())
    event_base = Event

    @classmethod
    def parse_action(cls, text: str) -> PA.Action:
        return PA.Action.parse(text)

    def __init__(self, config: dict[str, Any], seed: str) -> None:
        self.config = dict(config)
        self.level = str(config.get("level", DEFAULT_LEVEL))
        self.seed = seed
        self.rules = poker_rules(config)
        self.state = poker.new_game(self.rules, seed_rng(seed))
        self.seq = 0
        self._legal: tuple[object, int, tuple[PA.Action, ...]] | None = None

    @staticmethod
    def table_config(body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """The computer's ``level``, a ``preset`` and ``options`` over it (ante, bankroll,
        deck...), checked by the rules before any table exists."""
        level = str(body.get("level") or DEFAULT_LEVEL)
        if level not in LEVELS:
            raise OptionError(f"unknown level {level!r}: {', '.join(LEVELS)}", "unknown_level")
        config = {
            "level": level,
            "preset": str(body.get("preset") or DEFAULT_PRESET),
            "options": dict(body.get("options") or {}),
        }
        playable(poker_rules(config))
        return config, 2

    def dealt_events(self) -> list[TextEvent]:
        """The game's start (antes, pledges, deal 1), dealt again from the seed."""
        return list(poker.new_game_with_events(self.rules, seed_rng(self.seed))[1])

    @classmethod
    def from_setup(cls, setup: dict[str, Any], seed: str) -> PokerTableGame:
        return cls(setup["config"], seed)

    @classmethod
    def new(
        cls,
        config: dict[str, Any],
        seats: int,
        bots: dict[int, str],
        seed: str,
        stake: int | None = None,
        credit: int | None = None,
    ) -> PokerTableGame:
        return cls(config, seed)

    @staticmethod
    def table_rules(config: dict[str, Any]) -> TableRules:
        """Seat 1 is always the computer at the table's level; a player who leaves forfeits
        the game to it (draw-poker.md)."""
        return TableRules(
            fixed_bots={COMPUTER: str(config.get("level", DEFAULT_LEVEL))}, on_leave="forfeit"
        )

    def forfeit(self, seat: int) -> dict[str, Any]:
        return {"winner": COMPUTER, "reason": "left", "bankrolls": list(self.state.bankrolls)}

    def standings(self, seats: int) -> list[dict[str, Any]]:
        """The winner first, the other second, and the chips each side won or lost: its
        bankroll now less the bankroll both sides started with."""
        winner = self.state.result.winner if self.state.result is not None else None
        start = self.rules.bankroll
        return [
            {
                "rank": None if winner is None else (1 if s == winner else 2),
                "won": s == winner,
                "points": 0,
                "chips": self.state.bankrolls[s] - start,
            }
            for s in range(2)
        ]

    @classmethod
    def shown_action(cls, seat: int, action: Any, viewer: int | None) -> Any | None:
        """A draw names the cards thrown away: only the seat that drew sees them; anyone else
        learns how many from the step's ``drew`` event (draw-poker.md "The draw" 2)."""
        names_cards = isinstance(action, PA.Draw) and bool(action.cards)
        return action if viewer == seat or not names_cards else None

    @property
    def setup(self) -> dict[str, Any]:
        return {"config": self.config}

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def result(self) -> dict[str, Any]:
        r = self.state.result
        if r is None:
            return {}
        return {"winner": r.winner, "reason": r.reason, "bankrolls": list(self.state.bankrolls)}

    def deciders(self) -> list[int]:
        return [] if self.state.is_over else [self.state.current]

    def _legal_actions(self, seat: int) -> tuple[PA.Action, ...]:
        """The engine's legal actions of ``seat``, listed once per state (an update, the
        timer and the bot all ask; a draw round lists every subset, a bet every amount)."""
        got = self._legal
        if got is not None and got[0] is self.state and got[1] == seat:
            return got[2]
        acts = poker.legal_actions(self.state, seat)
        self._legal = (self.state, seat, acts)
        return acts

    def legal_actions(self, seat: int) -> list[PA.Action]:
        return list(self._legal_actions(seat))

    def legal_wire(self, seat: int) -> list[dict[str, Any]]:
        """The legal actions' structured forms (:meth:`_legal_of`)."""
        return _legal_of(poker.view(self.state, seat))

    def seat_view(self, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The view and the legal actions from one engine view (an update needs both)."""
        v = poker.view(self.state, seat)
        return self._view_json(v), _legal_of(v)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self._view_json(poker.view(self.state, seat))

    def _view_json(self, v: View) -> dict[str, Any]:
        """The view's structured form. Each of the computer's items has its ``name``, and
        ``code`` when it is one of the default items (:data:`DEFAULT_ITEMS`: ``hat``,
        ``scarf``...), for a client to name it in its own language (``None``: a name the
        table's creator chose, shown as written)."""
        items = self.rules.items
        return {
            "seat": v.seat,
            "deck": self.rules.deck,
            "level": self.level,
            "ante": self.rules.ante,
            "max_raises": self.rules.max_raises,
            "max_replace": self.rules.max_replace,
            "deal_no": v.deal_no,
            "first": v.first,
            "phase": v.phase.value,
            "current": v.current,
            "hand": [str(c) for c in v.hand],
            "opponent_cards": 5,
            "deck_count": v.deck_count,
            "pot": v.pot,
            "bankrolls": list(v.bankrolls),
            "committed": list(v.committed),
            "owed": v.owed,
            "raises": v.raises,
            "drawn": list(v.drawn),
            "items": [
                _item(items, i, self.rules.item_value, str(st)) for i, st in enumerate(v.items)
            ],
            "history": [{"seat": m.seat, "word": m.word, "amount": m.amount} for m in v.history],
            "words": list(v.words),
            "italian": {w: PA.ITALIAN.get(w, w.upper()) for w in v.words},
            "bet_range": list(v.bet_range) if v.bet_range else None,
            "result": None
            if v.result is None
            else {"winner": v.result.winner, "reason": v.result.reason},
        }

    def _apply(self, seat: int, action: PA.Action, actor: str) -> Step:
        self.state, events = poker.apply(self.state, seat, action)
        self.seq += 1
        return Step(seat, action, actor, event_rows(events))

    def timeout(self, seat: int) -> Step:
        owed = poker.view(self.state, seat).owed
        return self.apply(seat, check_or_fold(self._legal_actions(seat), owed), "server")

    def bot_move(self, seat: int) -> PA.Action | None:
        if seat != COMPUTER or self.state.is_over or self.state.current != COMPUTER:
            return None
        v = poker.view(self.state, COMPUTER)
        return find_bot(self.level).act(v, bot_random(self.seed, self.seq))


_BETS: dict[tuple[tuple[str, ...], tuple[int, int] | None], list[dict[str, Any]]] = {}
"""The structured legal actions of a betting turn, by its words and bet range (they are all it
depends on): a betting turn lists every amount, and each update of a poker table would list
them again."""


def _legal_of(v: View) -> list[dict[str, Any]]:
    """``v``'s legal actions in their structured forms, in the engine's order
    (:attr:`mazziere.poker.View.legal`). A betting turn's list is built once per words and
    bet range and shared (callers must not change it); a draw lists the subsets of the hand.
    """
    if "draw" in v.words:
        return [wire.action(a) for a in v.legal]
    return wire.cached(_BETS, (v.words, v.bet_range), lambda: [wire.action(a) for a in v.legal])


def _item(names: tuple[str, ...], i: int, value: int, status: str) -> dict[str, Any]:
    """The computer's item ``i`` (:meth:`PokerTableGame._view_json`)."""
    name = names[i] if i < len(names) else f"item {i + 1}"
    return {
        "name": name,
        "code": name if name in DEFAULT_ITEMS else None,
        "value": value,
        "status": status,
    }
