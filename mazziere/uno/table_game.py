"""UNO through the game contract (:mod:`mazziere.game`): any preset and options, humans and
bots, timers (seed 004)."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from mazziere import wire
from mazziere.cards.uno import Card
from mazziere.fields import check_values
from mazziere.game import Step, TableGame, TableRules, bot_random, event_rows, seed_rng
from mazziere.textevents import TextEvent
from mazziere.uno import (
    Action,
    Phase,
    Rules,
    State,
    apply,
    find_preset,
    new_game,
    new_game_with_events,
    view,
)
from mazziere.uno import actions as A
from mazziere.uno.autoplay import choose_autoplay
from mazziere.uno.bots import find_bot
from mazziere.uno.events import Event
from mazziere.uno.scoring import VP_SINGLE
from mazziere.uno.view import View

DEFAULT_PRESET = "classic"
"""The preset of a table that names none."""
DEFAULT_SEATS = 4
"""The seats of a table that gives no number."""
DEFAULT_BOTS = "greedy"
"""The computer players that fill empty seats when a table names none."""


def rules_from(preset: str, options: dict[str, Any]) -> Rules:
    """A preset plus option overrides (JSON lists become tuples); errors are OptionErrors."""
    rules = find_preset(preset)
    check_values(Rules, options)
    fixed: dict[str, Any] = {}
    for k, v in options.items():
        fixed[k] = (
            tuple(tuple(x) if isinstance(x, list) else x for x in v) if isinstance(v, list) else v
        )
    return rules.with_options(**fixed) if fixed else rules


def view_json(v: View) -> dict[str, Any]:
    def c(card: Card | None) -> str | None:
        return None if card is None else str(card)

    return {
        "seat": v.seat,
        "players": v.players,
        "hand_no": v.hand_no,
        "dealer": v.dealer,
        "phase": v.phase.value,
        "current": v.current,
        "direction": v.direction,
        "hand": [str(x) for x in v.hand],
        "hand_counts": list(v.hand_counts),
        "top": str(v.top),
        "color": None if v.color is None else v.color.letter,
        "draw_pile_count": v.draw_pile_count,
        "discard_count": v.discard_count,
        "pending": v.pending,
        "challengeable": v.challengeable,
        "drawn": c(v.drawn),
        "uno_seat": v.uno_seat,
        "uno_called": v.uno_called,
        "in_hand": list(v.in_hand),
        "scores": list(v.scores),
        "hands_won": list(v.hands_won),
        "result": None
        if v.result is None
        else {
            "winner": v.result.winner,
            "ranking": list(v.result.ranking),
            "scores": list(v.result.scores),
            "match_points": list(v.result.match_points),
            "victory_points": list(v.result.victory_points),
            "reason": v.result.reason,
        },
        "multi_play": v.rules.multi_play or v.rules.burn,
    }


UNO_ACTIONS: tuple[type, ...] = tuple(
    c
    for c in vars(A).values()
    if isinstance(c, type) and issubclass(c, A.Action) and c is not A.Action
)
UNO_EVENTS: tuple[type[TextEvent], ...] = tuple(
    e for e in Event.registry.values() if e.__module__ == "mazziere.uno.events"
)


class UnoTableGame(TableGame):
    """A UNO match at a table: seats are players, bots sit where the table put them."""

    game = "uno"
    action_types = UNO_ACTIONS
    event_types = UNO_EVENTS
    event_base = Event
    server_actions = A.SERVER_ONLY
    timeout_action = A.Timeout

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return Action.parse(text)

    def __init__(
        self, preset: str, options: dict[str, Any], players: int, bots: dict[int, str], seed: str
    ) -> None:
        self.preset, self.options, self.players = preset, dict(options), players
        self.bots = dict(bots)
        self.seed = seed
        self.rules = rules_from(preset, options)
        self.state: State = new_game(self.rules, players, seed_rng(seed))
        self.seq = 0
        for b in self.bots.values():
            find_bot(b)

    @property
    def setup(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "options": self.options,
            "players": self.players,
            "bots": {str(k): v for k, v in self.bots.items()},
        }

    def dealt_events(self) -> list[TextEvent]:
        """The match's start (dealer choice, deal, first card), dealt again from the seed."""
        return list(new_game_with_events(self.rules, self.players, seed_rng(self.seed))[1])

    @classmethod
    def from_setup(cls, setup: dict[str, Any], seed: str) -> UnoTableGame:
        bots = {int(k): v for k, v in setup.get("bots", {}).items()}
        return cls(setup["preset"], setup.get("options", {}), setup["players"], bots, seed)

    @classmethod
    def new(
        cls,
        config: dict[str, Any],
        seats: int,
        bots: dict[int, str],
        seed: str,
        stake: int | None = None,
        credit: int | None = None,
    ) -> UnoTableGame:
        preset = str(config.get("preset", DEFAULT_PRESET))
        return cls(preset, dict(config.get("options", {})), seats, bots, seed)

    @staticmethod
    def table_rules(config: dict[str, Any]) -> TableRules:
        """Empty seats get the table's bots at the start; once the match runs every seat is
        taken; a leaver's seat goes to the autoplay bot (or, in two-player online UNO, the
        leaver abandons: :meth:`leave_action`)."""
        return TableRules(fill_bots=str(config.get("bots", DEFAULT_BOTS)), seat_after_start=False)

    def leave_action(self, seat: int) -> Action | None:
        return A.LEAVE if self.rules.abandonment and self.players == 2 else None

    def standings(self, seats: int) -> list[dict[str, Any]]:
        """Each seat's place (its side's, playing in pairs), whether its side won, and its
        victory points: the match's own (seed 004: 12/6/2/0 at four-player tables, 10/6/4/0
        in pairs), else at a four-player table without pairs the same 12/6/2/0 by final
        place; 0 elsewhere (two or three players, pairs without the option)."""
        r = self.state.result
        if r is None:
            return super().standings(seats)
        teams = self.rules.teams
        place = {side: i + 1 for i, side in enumerate(r.ranking)}
        vp = list(r.victory_points)
        if not vp:
            vp = [0] * self.players
            if self.players == 4 and not teams:
                for s in range(4):
                    vp[s] = VP_SINGLE[place[s] - 1] if s in place else 0
        out = []
        for s in range(self.players):
            side = s % 2 if teams else s
            out.append({"rank": place.get(side), "won": side == r.winner, "points": vp[s]})
        return [{**o, "chips": None} for o in out]

    def substitute(self, seat: int, bot: str) -> None:
        find_bot(bot)
        self.bots = {**self.bots, seat: bot}  # a new dict: a copy of the game keeps its own

    @staticmethod
    def table_config(body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        preset = str(body.get("preset", DEFAULT_PRESET))
        options = dict(body.get("options") or {})
        rules = rules_from(preset, options)
        seats = int(body.get("seats", DEFAULT_SEATS))
        rules.check_players(seats)
        bots = str(body.get("bots", DEFAULT_BOTS))
        find_bot(bots)
        return {"preset": preset, "options": options, "bots": bots}, seats

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def result(self) -> dict[str, Any]:
        r = self.state.result
        if r is None:
            return {}
        return {
            "winner": r.winner,
            "ranking": list(r.ranking),
            "scores": list(r.scores),
            "match_points": list(r.match_points),
            "victory_points": list(r.victory_points),
            "reason": r.reason,
        }

    def deciders(self) -> list[int]:
        return [] if self.state.is_over else [self.state.current]

    def legal_actions(self, seat: int) -> list[Action]:
        return list(view(self.state, seat).legal)

    def view(self, seat: int | None) -> dict[str, Any]:
        return view_json(view(self.state, seat))

    def seat_view(self, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        v = view(self.state, seat)  # the view carries the legal actions: computed once
        return view_json(v), [wire.action(a) for a in v.legal]

    def _apply(self, seat: int, action: Action, actor: str) -> Step:
        state, events = apply(self.state, seat, action)
        self.state = state
        self.seq += 1
        return Step(seat, action, actor, event_rows(events))

    def timeout(self, seat: int) -> Step:
        """The engine's ``timeout`` (seed 004 auto-play), naming the moves it made."""
        played = () if self._time_out_ends_match() else autoplay_moves(self.state, seat)
        return replace(self.apply(seat, A.TIMEOUT, "server"), played=played)

    def _time_out_ends_match(self) -> bool:
        """Two-player online UNO: a time-out abandons the match (004), playing nothing."""
        return self.rules.abandonment and self.players == 2

    def bot_move(self, seat: int) -> Action | None:
        name = self.bots.get(seat)
        if name is None or self.state.is_over:
            return None
        v = view(self.state, seat)
        if not v.legal:
            return None
        return find_bot(name).act(v, bot_random(self.seed, self.seq * 16 + seat))


def autoplay_moves(state: State, seat: int) -> tuple[Action, ...]:
    """The moves seed 004's auto-play makes for ``seat`` when its time runs out, as actions:
    one decision at a time with :func:`~mazziere.uno.autoplay.choose_autoplay` (the engine's
    own choice), until a card is played, a drawn card kept or played, or a pending draw taken
    (``draw`` then ``pass``; ``uno`` then ``R3``...). Names them for the table's log; the
    engine's ``timeout`` action makes them (a test checks both agree)."""
    moves: list[Action] = []
    for _ in range(4):
        v = view(state, seat)
        if v.phase is Phase.OVER or v.current != seat:
            break
        legal = [a for a in v.legal if not isinstance(a, A.Catch)]
        if not legal:
            break
        action = choose_autoplay(legal, v.hand, v.phase)
        moves.append(action)
        state, _ = apply(state, seat, action)
        if v.phase is Phase.PLAY and not isinstance(action, (A.Draw, A.CallUno)):
            break
        if v.phase in (Phase.DRAWN, Phase.PENDING):
            break
    return tuple(moves)


UNO_OPTION_NAMES = tuple(f.name for f in fields(Rules))
