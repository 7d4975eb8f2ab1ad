"""UNO in the terminal: one human (seat 0) against bots, drawn with Rich.

The human sees only what seat 0 may see: its :class:`~mazziere.uno.View` and events passed
through ``Event.for_seat(0)``. Input is an action's text form (``R7``, ``W:G``, ``draw``,
``catch 2``...) or the number of a listed legal action; a wrong input prints the typed error's
message and asks again. Out-of-turn chances (catch, UNO call, jump-in) are offered before the
bots go on. The same seed gives the same game (engine seed as given, bots ``f"{seed}:bots"``).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.console import Console
from rich.text import Text

from mazziere.errors import MazziereError
from mazziere.terminal.uno_render import (
    describe,
    render_board,
    render_hand_result,
    render_match_result,
)
from mazziere.uno import Action, Rules, State, View, apply, new_game_with_events, view
from mazziere.uno import events as E
from mazziere.uno.bots import Bot

HUMAN = 0
LOG_LINES = 14

HELP = """\
Type the number of an action from the list, or its text form:
  R7, G D2, BS, YR ........ play a card (colour R/Y/G/B + 0-9, S skip, R reverse, D2 draw two)
  W:G, W4:R ............... play a Wild / Wild Draw Four and declare the colour
  R7,B7 ................... several cards at once (where the rules allow it)
  R7>2 .................... a 7 that swaps with seat 2, a 0 that makes seat 2 draw four
  draw, pass, accept, challenge, uno, catch 2, color G
  help: this text;  quit: leave the game"""


class Quit(Exception):
    """The human asked to leave (or the input ended)."""


@dataclass
class TerminalGame:
    """One match: the human at seat 0, ``bots[i - 1]`` (cycled) at the other seats."""

    rules: Rules
    players: int
    bots: Sequence[Bot]
    console: Console
    ask: Callable[[str], str]
    seed: str | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    _declined: object = field(default=None, init=False, repr=False)

    def seat_bot(self, seat: int) -> Bot:
        return self.bots[(seat - 1) % len(self.bots)]

    def names(self) -> list[str]:
        return ["You"] + [f"Seat {s} ({self.seat_bot(s).name})" for s in range(1, self.players)]

    def run(self) -> State:
        """Play the match to its end (or until the human quits); returns the last state."""
        state, events = new_game_with_events(self.rules, self.players, self.seed)
        rng = random.Random(f"{self.seed}:bots") if self.seed is not None else random.Random()
        self._show(events)
        try:
            while not state.is_over:
                state = self._step(state, rng)
        except Quit:
            self.console.print("[bold]You left the table.[/bold]")
        return state

    # ------------------------------------------------------------------ one step
    def _step(self, state: State, rng: random.Random) -> State:
        current = state.current
        if current != HUMAN:
            mine = view(state, HUMAN)
            key = (mine.legal, current, state.hand_no, len(state.discard), state.phase)
            if mine.legal and key != self._declined:
                action = self._ask_human(state, mine, out_of_turn=True)
                if action is not None:
                    return self._apply(state, HUMAN, action)
                self._declined = key
        for k in range(1, self.players):
            seat = (current + k) % self.players
            if seat == HUMAN:
                continue
            v = view(state, seat)
            if v.legal:
                action = self.seat_bot(seat).act(v, rng)
                if action is not None:
                    return self._apply(state, seat, action)
        if current == HUMAN:
            action = self._ask_human(state, view(state, HUMAN), out_of_turn=False)
            assert action is not None
            return self._apply(state, HUMAN, action)
        v = view(state, current)
        action = self.seat_bot(current).act(v, rng)
        if action is None:
            raise MazziereError(f"bot at seat {current} declined its own turn", "bot_declined")
        return self._apply(state, current, action)

    def _apply(self, state: State, seat: int, action: Action) -> State:
        new, events = apply(state, seat, action)
        self._show(events)
        return new

    def _show(self, events: list[E.Event]) -> None:
        for ev in events:
            seen = ev.for_seat(HUMAN)
            line = describe(seen, HUMAN, self.players)
            if line:
                self.log.append(line)
            if isinstance(seen, E.HandEnded):
                self.console.print(render_hand_result(seen, self.names(), self.rules.teams))
            elif isinstance(seen, E.MatchEnded):
                self.console.print(render_match_result(seen, self.names(), self.rules.teams))

    # ------------------------------------------------------------------ the human
    def _ask_human(self, state: State, v: View, out_of_turn: bool) -> Action | None:
        """Show the table and read one action (``None``: let play go on, out of turn only)."""
        self.console.print(render_board(v, self.names(), list(self.log)))
        self.console.print(_legal_list(v.legal, out_of_turn))
        prompt = "Out of turn (Enter: let play go on) > " if out_of_turn else "Your move > "
        while True:
            try:
                text = self.ask(prompt).strip()
            except EOFError:
                raise Quit from None
            low = text.lower()
            if low in ("quit", "exit", "q"):
                raise Quit
            if low in ("help", "h", "?"):
                self.console.print(HELP)
                self.console.print(_legal_list(v.legal, out_of_turn))
                continue
            if not text:
                if out_of_turn:
                    return None
                self.console.print("Type an action or its number; 'help' lists the forms.")
                continue
            try:
                action = self._parse(text, v.legal)
                apply(state, HUMAN, action)  # check only; the state is not changed
            except MazziereError as e:
                self.console.print(Text(f"{e.message} (type 'help' for the action forms)", "red"))
                continue
            return action

    @staticmethod
    def _parse(text: str, legal: tuple[Action, ...]) -> Action:
        if text.isdigit():
            i = int(text)
            if not 1 <= i <= len(legal):
                raise MazziereError(
                    f"there is no action number {i}; choose 1-{len(legal)}", "bad_choice"
                )
            return legal[i - 1]
        return Action.parse(text)


def _legal_list(legal: tuple[Action, ...], out_of_turn: bool) -> Text:
    title = "You may also act out of turn: " if out_of_turn else "Legal actions: "
    t = Text(title, style="bold")
    for i, a in enumerate(legal, 1):
        t.append(f" [{i}] ", style="dim")
        t.append(str(a))
    return t
