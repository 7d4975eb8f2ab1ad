"""Uniformly random UNO games on the pure engine: the reference the compiled kernel
(:mod:`mazziere.sim.uno_kernel`) is proven equal to, seed for seed.

One game is one ``single_hand`` match of the Mattel preset (:data:`KERNEL_RULES`). The deal comes
from ``SplitMixRng(game_seed)`` passed to ``new_game_with_events``; the choices from a separate
``SplitMixRng(action_seed)``: each step lists ``all_legal_actions`` (the current seat's actions
first, then every other seat's, catches and UNO calls included), takes
``acts[chooser.randbelow(len(acts))]`` and applies it, until the match is over.

A :class:`GameRecord` sums the game up; its ``trace_hash`` folds every step's (seat, index,
number of legal actions, action code) with FNV-1a, so two paths that agree on it chose the same
action out of the same list at every step.

>>> r = play_random_game_engine(2, game_seed=1, action_seed=2)
>>> r.steps > 0 and r.winner in (0, 1) and sum(r.cards) > 0
True
"""

from __future__ import annotations

from typing import NamedTuple

from mazziere.cards.uno import WILD_FACE
from mazziere.errors import OptionError
from mazziere.rng import SplitMixRng
from mazziere.uno import actions as A
from mazziere.uno.engine import all_legal_actions, apply, new_game_with_events
from mazziere.uno.options import Rules
from mazziere.uno.presets import find_preset
from mazziere.uno.state import State

KERNEL_RULES: Rules = find_preset("mattel").with_options(match="single_hand")
"""The only rules the kernel plays: Mattel, one hand = one game (like RLCard's ``UnoGame``)."""

# Action codes (shared with the kernel): plays of coloured faces are the face 0-51, a Wild
# 52 + colour, a +4 56 + colour; then the words; catch 65 + target; choose colour 75 + colour.
CODE_PLAY_WILD = 52
CODE_PLAY_WILD4 = 56
CODE_DRAW = 60
CODE_PASS = 61
CODE_ACCEPT = 62
CODE_CHALLENGE = 63
CODE_CALL_UNO = 64
CODE_CATCH = 65
CODE_CHOOSE_COLOR = 75

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
_MASK64 = (1 << 64) - 1

NO_WINNER = -1


class GameRecord(NamedTuple):
    """How one random game went; equal records mean the two paths played the same game."""

    steps: int
    """Actions applied (one legal-action listing plus one apply each)."""
    hand_winner: int
    """The seat that went out in the last hand, or -1 (blocked hand)."""
    winner: int
    """The match winner (single hand: the one out, else fewest points, cards, drew last)."""
    hands: int
    """Hands dealt (2 when a blocked hand was tied and a tie-break hand was played)."""
    total_turns: int
    """The engine's turn counter at the end."""
    scores: tuple[int, ...]
    """Match points per seat (winner scoring)."""
    cards: tuple[int, ...]
    """Cards left in each hand at the end."""
    points: tuple[int, ...]
    """Card points left in each hand at the end."""
    trace_hash: int
    """FNV-1a over every step's (seat, index, number of actions, action code)."""


def check_kernel_rules(rules: Rules, players: int) -> None:
    """Refuse what the kernel does not implement: any rules but :data:`KERNEL_RULES`."""
    if rules != KERNEL_RULES:
        changed = sorted(k for k, v in rules.as_dict().items() if KERNEL_RULES.as_dict()[k] != v)
        raise OptionError(
            "the compiled UNO kernel plays only find_preset('mattel').with_options("
            f"match='single_hand'); these rules differ in: {', '.join(changed)}",
            "kernel_rules_unsupported",
        )
    KERNEL_RULES.check_players(players)


def action_code(action: A.Action) -> int:
    """The kernel's number for an action of the kernel's rules (see the codes above)."""
    if isinstance(action, A.Play):
        face = int(action.cards[0])
        if face < WILD_FACE:
            return face
        assert action.color is not None
        base = CODE_PLAY_WILD if face == WILD_FACE else CODE_PLAY_WILD4
        return base + int(action.color)
    if isinstance(action, A.Draw):
        return CODE_DRAW
    if isinstance(action, A.Pass):
        return CODE_PASS
    if isinstance(action, A.Accept):
        return CODE_ACCEPT
    if isinstance(action, A.Challenge):
        return CODE_CHALLENGE
    if isinstance(action, A.CallUno):
        return CODE_CALL_UNO
    if isinstance(action, A.Catch):
        return CODE_CATCH + action.target
    if isinstance(action, A.ChooseColor):
        return CODE_CHOOSE_COLOR + int(action.color)
    raise ValueError(f"{action!r} never occurs under the kernel's rules")


def step_key(seat: int, index: int, count: int, code: int) -> int:
    """One step packed into the integer the trace hash folds in."""
    return seat | (index << 8) | (count << 16) | (code << 24)


def fnv_fold(h: int, key: int) -> int:
    """One FNV-1a step over a 64-bit word."""
    return ((h ^ key) * FNV_PRIME) & _MASK64


def play_random_game_engine(players: int, game_seed: int, action_seed: int) -> GameRecord:
    """Play one random game on the pure engine (see the module docstring)."""
    check_kernel_rules(KERNEL_RULES, players)
    state, _ = new_game_with_events(KERNEL_RULES, players, SplitMixRng(game_seed))
    return play_random_from_state_engine(state, action_seed)


def play_random_from_state_engine(state: State, action_seed: int) -> GameRecord:
    """Continue a game from ``state`` with random legal actions until the match is over."""
    chooser = SplitMixRng(action_seed)
    h = FNV_OFFSET
    steps = 0
    while not state.is_over:
        acts = all_legal_actions(state)
        i = chooser.randbelow(len(acts))
        seat, action = acts[i]
        h = fnv_fold(h, step_key(seat, i, len(acts), action_code(action)))
        state, _ = apply(state, seat, action)
        steps += 1
    result = state.result
    assert result is not None
    return GameRecord(
        steps=steps,
        hand_winner=result.winner if result.reason == "out" else NO_WINNER,
        winner=result.winner,
        hands=state.hand_no + 1,
        total_turns=state.total_turns,
        scores=tuple(result.scores),
        cards=tuple(len(hand) for hand in state.hands),
        points=tuple(sum(c.points for c in hand) for hand in state.hands),
        trace_hash=h,
    )
