"""Golden replays: recorded UNO games in ``tests/fixtures/uno/*.json``, played back exactly.

A fixture holds the rules (a preset name and the options changed from it), the number of
players, the seed (a string), the actions as ``[seat, text]`` pairs, the text of every event
(``str(event)``, private cards included), the final result (or, for a game cut short, a summary
of the position reached) and the situations the game was chosen to cover. ``make_goldens.py``
beside the fixtures searches seeds for those situations and writes the files; this module is
shared by that script and ``test_golden.py``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mazziere.uno import (
    Action,
    Challenge,
    ChooseColor,
    EndHand,
    Phase,
    Play,
    Rules,
    State,
    Timeout,
    apply,
    find_preset,
    new_game_with_events,
)
from mazziere.uno import events as E

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "uno"


def rules_of(preset: str, options: dict[str, Any]) -> Rules:
    """A preset with some options changed (JSON lists become the tuples options use)."""
    return find_preset(preset).with_options(**options)


@dataclass
class Playback:
    """A game played back: the final state, every event's text, the situations seen."""

    state: State
    events: list[str]
    tags: set[str] = field(default_factory=set)


def _start_tags(state: State, events: list[E.Event]) -> set[str]:
    """First-card handling (uno.md "A hand" 2) seen in the start events."""
    tags: set[str] = set()
    for e in events:
        if isinstance(e, E.Returned):
            tags.add(f"first_card_returned_{e.reason}")
        elif isinstance(e, E.Skipped):
            tags.add("first_card_skip")
        elif isinstance(e, E.Reversed):
            tags.add("first_card_reverse")
        elif isinstance(e, E.Drew) and e.reason == "draw2":
            tags.add("first_card_draw2")
    if state.phase is Phase.COLOR:
        tags.add("first_card_wild")
    if state.phase is Phase.PENDING:
        tags.add("first_card_draw2")
    return tags


def _step_tags(before: State, seat: int, action: Action, events: list[E.Event]) -> set[str]:
    """Situations one action produced."""
    tags: set[str] = set()
    if isinstance(action, Play) and before.phase is Phase.PENDING and seat == before.current:
        top = "wild4" if action.cards[-1].is_wild else "draw2"
        on = "wild4" if before.stack_w4 and before.discard[-1].is_wild else "draw2"
        tags.update(("stack", f"stack_{top}_on_{on}"))
    if isinstance(action, Challenge) and seat != before.current:
        tags.add("challenge_by_other")
    if isinstance(action, ChooseColor):
        tags.add("first_card_color_chosen")
    for e in events:
        if isinstance(e, E.Challenged):
            tags.add("challenge_guilty" if e.guilty else "challenge_innocent")
        elif isinstance(e, E.Caught):
            tags.add("catch")
        elif isinstance(e, E.UnoCalled):
            tags.add("uno_called")
        elif isinstance(e, E.UnoMissed):
            tags.add("uno_missed")
        elif isinstance(e, E.Reshuffled):
            tags.add("reshuffle")
        elif isinstance(e, E.Swapped):
            tags.add("seven_swap")
        elif isinstance(e, E.Rotated):
            tags.add("zero_rotate")
        elif isinstance(e, E.AutoPlayed):
            tags.add("timeout_autoplay")
        elif isinstance(e, E.Eliminated):
            tags.add("elimination")
        elif isinstance(e, E.Drew) and e.reason == "zero":
            tags.add("zero_gives_four")
        elif isinstance(e, E.Played):
            if e.jump_in:
                tags.add("jump_in")
            if len(e.cards) > 1:
                burn = before.rules.burn and len(e.cards) == 2 and e.cards[0] == e.cards[1]
                tags.add("burn" if burn else "multi_play")
        elif isinstance(e, E.HandEnded):
            tags.add(f"hand_ended_{e.reason}")
        elif isinstance(e, E.MatchEnded):
            tags.add(f"match_ended_{e.reason}")
    if isinstance(action, (Timeout, EndHand)):
        tags.add(str(action))
    return tags


def play_back(rules: Rules, players: int, seed: str, actions: list[tuple[int, str]]) -> Playback:
    """Replay (rules, seed, actions) one action at a time, noting the situations met."""
    state, start = new_game_with_events(rules, players, seed)
    out = Playback(state, [str(e) for e in start], _start_tags(state, start))
    for seat, text in actions:
        action = Action.parse(text)
        before = state
        state, events = apply(state, seat, action)
        out.events.extend(str(e) for e in events)
        out.tags |= _step_tags(before, seat, action, events)
    out.state = state
    return out


def outcome(state: State) -> dict[str, Any]:
    """The match result, or for a game cut short a summary of the position reached."""
    if state.result is not None:
        return {"result": asdict(state.result)}
    return {
        "position": {
            "hand_no": state.hand_no,
            "phase": state.phase.value,
            "current": state.current,
            "direction": state.direction,
            "top": str(state.discard[-1]),
            "color": None if state.color is None else state.color.letter,
            "pending": state.pending,
            "hand_counts": [len(h) for h in state.hands],
            "draw_pile": len(state.draw_pile),
            "scores": list(state.scores),
        }
    }


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def to_json(obj: Any) -> Any:
    """Tuples as lists, as JSON reads them back (for comparing with a loaded fixture)."""
    return json.loads(json.dumps(obj))
