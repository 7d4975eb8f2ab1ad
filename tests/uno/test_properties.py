"""Property tests over thousands of random UNO games (docs/architecture.md "Views", "Habits").

Every preset and several house-rule mixes are played at every seat count they allow, picking
uniformly among ``all_legal_actions`` with a seeded ``random.Random`` (about 2,100 games and a
million steps in all, most of them single hands, a few dozen full matches, and random rule mixes
drawn by hypothesis). After every step:

* the 108 cards are all accounted for (hands + draw pile + discard + removed == FULL_DECK);
* some seat has a legal action until the game is over, and the current seat has one;
* no view holds another seat's cards or the draw pile order (its ``hand`` is the seat's own,
  counts are counts, every card it shows is the seat's own or the discard top, its repr names
  no hidden field), and no event shown to a seat or a spectator reveals another seat's drawn or
  dealt cards (``HandEnded.hands`` reveals all hands at the end of a hand, by design);
* actions that are not legal raise a typed error with a snake_case ``code`` and change
  nothing (cards not held, cards not playable, words in the wrong phase, seats not on turn,
  malformed text, seats out of range, objects that are not actions).

The first game of each case looks at every view and tries two illegal actions at every step;
the others, to afford thousands of games, look at one view per step (seats and a spectator in
turn) and try one illegal action (see :func:`play_checked_game`). At the end of every game,
replaying (rules, seed, action texts) gives the same final state and the same event texts.
Failures name the rules, seat count, seed and step; ``play_checked_game`` with those arguments
replays the game. ``MAZZIERE_TALLY=path`` appends each worker's games/deep games/steps/probes.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from itertools import chain
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mazziere.cards.uno import FULL_DECK, Card, Color, card
from mazziere.errors import GameOver, IllegalAction, MalformedAction, MazziereError
from mazziere.uno import (
    PRESETS,
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    EndHand,
    Leave,
    Pass,
    Phase,
    Play,
    Rules,
    State,
    Timeout,
    View,
    all_legal_actions,
    apply,
    find_preset,
    format_position,
    new_game_with_events,
    replay,
    view,
)
from mazziere.uno import events as E

SORTED_DECK = sorted(FULL_DECK)
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
FORBIDDEN_VIEW_FIELDS = re.compile(r"\b(draw_pile|rng|match_rng|w4_legal|hands|deck)=")
PRIVATE_CARD_EVENTS = (E.Drew, E.Dealt)
"""Events whose cards only their owner may see."""
PUBLIC_CARD_EVENTS = (E.Played, E.Turned, E.Returned, E.DealerCard, E.HandEnded)
"""Events whose cards everyone sees (``HandEnded`` reveals the hands at the end, by design)."""
SCALARS = {int, bool, str, float, type(None), Color, Phase}
VIEW_FIELDS = tuple(f.name for f in fields(View))
NOT_COUNTED = ("rules", "legal", "hand", "log")
"""View fields that may name cards other than the seat's own and the top card: the rules, its
legal plays, its hand, and the hand's public log (cards seen played; checked on its own)."""
LISTED_ACTIONS = {Play, Draw, Pass, Accept, Challenge, CallUno, Catch, ChooseColor}
"""Actions ``legal_actions`` may list (``timeout``, ``end_hand``, ``leave`` never are)."""


# ------------------------------------------------------------------------------ configurations
@dataclass(frozen=True)
class Config:
    """Rules to play and the seat counts to play them at."""

    name: str
    rules: Rules
    players: tuple[int, ...]
    """Seat counts; one single-hand test case each (a count may repeat)."""
    single_hand_games: int
    """Random single-hand games per seat count (each a few hundred to a few thousand steps)."""
    match_options: dict[str, Any]
    """Options that shorten the full matches (a lower target, fewer hands)."""


HOUSE = find_preset("house")
ONLINE = find_preset("online")
CLASSIC = find_preset("classic")
ALL_SEATS = tuple(range(2, 11))

CONFIGS: tuple[Config, ...] = (
    Config("classic", CLASSIC, ALL_SEATS, 10, {"target": 200}),
    Config("mattel", find_preset("mattel"), ALL_SEATS, 7, {"target": 200}),
    Config("online", ONLINE, (2, 3, 4), 12, {"fixed_hands": 2}),
    Config("house", HOUSE, ALL_SEATS, 18, {"target": 150}),
    Config("casino", find_preset("casino"), (2, 2, 2), 200, {}),
    Config(
        "kitchen_sink",
        HOUSE.with_options(
            stacking="all",
            stack_wild4_rule_applies=True,
            burn=True,
            seven_swap=True,
            zero_rotate=True,
            jump_in=True,
            go_out_on_action=False,
            reverse_skip_same=True,
            challenge_by="any",
        ),
        ALL_SEATS,
        18,
        {"target": 120},
    ),
    Config(
        "strict_sink",
        find_preset("mattel").with_options(
            multi_play=True,
            burn=True,
            stacking="all",
            stack_wild4_rule_applies=True,
            wild4_bluff=False,
            wild4_rule="any_playable",
            voluntary_draw=False,
            jump_in=True,
            seven_swap=True,
            zero_gives_four=True,
            scoring="penalty",
            match="fixed_hands",
            fixed_hands=2,
        ),
        ALL_SEATS,
        80,
        {"fixed_hands": 4},
    ),
    Config(
        "elimination",
        HOUSE.with_options(elimination=True),
        ALL_SEATS,
        0,  # elimination needs target_points: full matches only
        {"target": 150},
    ),
    Config(
        "teams_victory_points",
        ONLINE.with_options(teams=True, victory_points=True),
        (4,),
        20,
        {"fixed_hands": 2},
    ),
    Config(
        "zero_gives_four_groups",
        CLASSIC.with_options(zero_gives_four=True, zero_groups=((0, 1, 2), (2, 3))),
        tuple(range(4, 11)),
        8,
        {"target": 150},
    ),
    Config(
        "auto_uno_removed_reverse",
        CLASSIC.with_options(
            uno_call="auto",
            drawn_card="must_play",
            draw2_skips=False,
            stacking="draw2_draw4",
            two_player_reverse="removed",
        ),
        (2, 2, 3, 5, 8),
        8,
        {"target": 150},
    ),
    Config(
        "auto_uno_normal_reverse",
        CLASSIC.with_options(
            uno_call="auto",
            drawn_card="must_play",
            draw2_skips=False,
            stacking="draw2_draw4",
            two_player_reverse="normal",
        ),
        (2, 2, 4, 6, 10),
        8,
        {"target": 150},
    ),
)
BY_NAME = {c.name: c for c in CONFIGS}

SINGLE_HAND_CASES = [
    pytest.param(c.name, n, k, id=f"{c.name}-{n}p-{k}")
    for c in CONFIGS
    if c.single_hand_games
    for k, n in enumerate(c.players)
]
MATCH_CASES = [pytest.param(c.name, id=c.name) for c in CONFIGS]


# ------------------------------------------------------------------------------ invariants
def describe(rules: Rules) -> str:
    """The options that differ from ``Rules()``, for failure messages."""
    default = Rules()
    changed = {k: v for k, v in rules.as_dict().items() if getattr(default, k) != v}
    return f"Rules().with_options(**{changed!r})"


def check_cards_conserved(state: State, where: str) -> None:
    """uno.md "Cards": the 108 cards are always all somewhere."""
    cards = sorted(chain(state.draw_pile, state.discard, state.removed, *state.hands))
    assert cards == SORTED_DECK, f"{where}: cards not conserved"
    assert state.discard, f"{where}: empty discard pile"


def check_legal_exists(state: State, legal: tuple[tuple[int, Action], ...], where: str) -> None:
    """Some seat may act until the game ends; the current seat always may."""
    if state.is_over:
        assert legal == (), f"{where}: legal actions after the end: {legal}"
        assert state.result is not None, f"{where}: over without a result"
        return
    assert legal, f"{where}: no seat has a legal action but the game is not over"
    assert state.in_hand[state.current], f"{where}: current seat {state.current} not in hand"
    assert legal[0][0] == state.current, f"{where}: the current seat has no legal action"


def cards_in(obj: Any) -> list[Card]:
    """Every :class:`Card` inside a value (tuples, lists, dataclasses such as actions)."""
    out: list[Card] = []
    stack = [obj]
    while stack:
        x = stack.pop()
        t = type(x)
        if t is Card:
            out.append(x)
        elif t is tuple or t is list:
            stack.extend(x)
        elif t in SCALARS:
            continue
        elif hasattr(t, "__dataclass_fields__") and t is not Rules:
            stack.extend(getattr(x, name) for name in t.__dataclass_fields__)
    return out


def check_views(
    state: State,
    legal: tuple[tuple[int, Action], ...],
    where: str,
    serialise: bool,
    seats: tuple[int | None, ...] | None = None,
) -> None:
    """docs/architecture.md "Views": a view holds its own hand and public facts only. ``seats``: the
    seats to look at (``None``: every seat and a spectator)."""
    n = state.players
    top = state.discard[-1]
    by_seat: dict[int, tuple[Action, ...]] = {}
    for seat in (*range(n), None) if seats is None else seats:
        v = view(state, seat)
        w = f"{where} view({seat})"
        own = state.hands[seat] if seat is not None else ()
        assert isinstance(v, View), w
        assert v.seat == seat, w
        assert v.hand == own, f"{w}: hand is not the seat's own hand"
        assert v.hand_counts == tuple(len(h) for h in state.hands), w
        assert all(type(k) is int for k in v.hand_counts), f"{w}: hand_counts are not counts"
        assert type(v.draw_pile_count) is int and v.draw_pile_count == len(state.draw_pile), w
        assert v.top == top, w
        if v.drawn is not None:
            assert seat == state.current and v.drawn in own, f"{w}: drawn card of another seat"
        shown = [getattr(v, name) for name in VIEW_FIELDS if name not in NOT_COUNTED]
        visible = set(cards_in(shown))
        assert visible <= {*own, top}, f"{w}: shows cards {visible - {*own, top}} not its own"
        assert v.log == state.public_log(), f"{w}: the log is not the hand's public log"
        for e in v.log:  # the same for every seat: no seat's private cards, nor its reasons
            if isinstance(e, PRIVATE_CARD_EVENTS):
                assert e.cards == (), f"{w}: the log shows {e}"
                assert getattr(e, "reason", "") not in ("choice", "no_play"), f"{w}: {e}"
        for a in v.legal:
            assert type(a) in LISTED_ACTIONS, f"{w}: unexpected legal action {a!r}"
            if type(a) is Play and (len(a.cards) > 1 or a.cards[0] not in own):
                held = list(own)
                for c in a.cards:
                    assert c in held, f"{w}: legal play {a} uses a card not held"
                    held.remove(c)
        if seat is not None:
            by_seat[seat] = v.legal
            mine = tuple(a for s, a in legal if s == seat)
            assert v.legal == mine, f"{w}: view.legal disagrees with all_legal_actions"
        else:
            assert v.legal == () and v.drawn is None, w
        if serialise:
            text = repr(replace(v, log=()))  # the log: checked above, event by event
            assert not FORBIDDEN_VIEW_FIELDS.search(text), f"{w}: hidden field in {text[:200]}"
            assert "Rng(" not in text, f"{w}: a random source in the view"
    if seats is None:
        order = [(state.current + k) % n for k in range(n)]
        expected = tuple((s, a) for s in order for a in by_seat[s])
        assert legal == expected, f"{where}: all_legal_actions is not in the documented order"


def check_events(events: list[E.Event], players: int, where: str, deep: bool = True) -> None:
    """``for_seat`` hides other seats' cards from everyone else, spectators included; every
    other event is public. ``deep``: also every seat, and the text parses back."""
    everyone = (*range(players), None)
    for e in events:
        if deep:
            text = str(e)
            assert E.Event.parse(text) == e, f"{where}: event text does not round-trip: {text}"
        if isinstance(e, PRIVATE_CARD_EVENTS):
            assert e.count == len(e.cards), f"{where}: {e}"
            blank = replace(e, cards=())
            if isinstance(e, E.Drew) and e.reason in ("choice", "no_play"):
                blank = replace(blank, reason=E.TURN_DRAW)  # which it was is the drawer's
            seats = everyone if deep else (e.seat, (e.seat + 1) % players, None)
            for seat in seats:
                shown = e.for_seat(seat)
                if seat == e.seat:
                    assert shown == e, f"{where}: {e} altered for its owner"
                else:
                    assert shown == blank, f"{where}: {e} shown to seat {seat} as {shown}"
        else:
            for seat in everyone if deep else (0, None):
                shown = e.for_seat(seat)
                assert shown == e, f"{where}: public event {e} changed for seat {seat}"
            if not isinstance(e, PUBLIC_CARD_EVENTS):
                assert not cards_in(e), f"{where}: unexpected cards in {e}"


def public_log(log: list[E.Event], new: list[E.Event]) -> list[E.Event]:
    """The hand's public log after ``new``: every event of the hand from its ``HandStarted``
    on, as a spectator sees it (``View.log``)."""
    out = list(log)
    for e in new:
        if isinstance(e, E.HandStarted):
            out = []
        out.append(e.for_seat(None))
    return out


def check_removed(state: State, where: str) -> None:
    """Only the Reverses leave the deck, and only for two-player ``removed`` hands."""
    if state.removed:
        assert state.rules.two_player_reverse == "removed", where
        assert sum(state.in_hand) == 2, where
        assert sorted(state.removed) == sorted(c for c in FULL_DECK if c.kind.name == "REVERSE")


# ------------------------------------------------------------------------------ illegal actions
MALFORMED_TEXTS = (
    "",
    "   ",
    "R99",
    "R10",
    "X7",
    "W:X",
    "W4:",
    "R7:",
    "R7>",
    "R7>x",
    "R7>12",
    "R7>-1",
    ",",
    "catch",
    "catch x",
    "catch 12",
    "catch -1",
    "color",
    "color P",
    "colour purple",
    "draw 2",
    "pass now",
    "uno!",
    "play R5",
    "RS,,W4,",
)
"""Texts that never parse."""
SUSPECT_TEXTS = (
    "W",
    "W4",
    "W:R",
    "W4:G",
    "R7:R",
    "B5>1",
    "G0>9",
    "Y7>0",
    "R1,G2",
    "RS,RS",
    "BD2,BD2",
    "W,W:B",
    "catch 0",
    "catch 9",
    "color Y",
    "draw",
    "pass",
    "accept",
    "challenge",
    "uno",
)
"""Texts that parse but are usually illegal (a wild without colour, stray targets...)."""
COLORS_OR_NONE = (None, *Color)
WORDS = (Draw(), Pass(), Accept(), Challenge(), CallUno())
NOT_ACTIONS: tuple[Any, ...] = (None, 42, 3.5, b"draw", ("R7",), ["draw"], object(), Draw)
BAD_SEATS: tuple[Any, ...] = (-1, 10, 99, True, "0", None, 1.0)


def _canonical(action: Action) -> Action:
    """Multi-plays are listed once per outcome: first card, the middle sorted, last card."""
    if isinstance(action, Play) and len(action.cards) > 2:
        first, *middle, last = action.cards
        return replace(action, cards=(first, *sorted(middle), last))
    return action


def random_probe(
    state: State, legal: tuple[tuple[int, Action], ...], rnd: random.Random
) -> tuple[Any, Any]:
    """One random (seat, action) pair of a random kind, usually not legal now."""
    n = state.players
    cur = state.current
    seat = cur if rnd.random() < 0.6 else rnd.randrange(n)
    hand = state.hands[seat]
    kind = rnd.randrange(12)
    if kind == 0:  # a card the seat does not hold
        missing = [c for c in range(54) if c not in hand]
        return seat, Play((card(rnd.choice(missing)),), rnd.choice(COLORS_OR_NONE))
    if kind == 1 and hand:  # a card it holds, with a random colour and target
        target = rnd.choice((None, None, *range(n)))
        return seat, Play((rnd.choice(hand),), rnd.choice(COLORS_OR_NONE), target)
    if kind == 2 and len(hand) >= 2:  # several cards it holds
        return seat, Play(tuple(rnd.sample(hand, rnd.randint(2, min(3, len(hand))))))
    if kind == 3:  # a word, from any seat, in whatever phase this is
        return rnd.randrange(n), rnd.choice(WORDS)
    if kind == 4:
        return rnd.randrange(n), Catch(rnd.randrange(10))
    if kind == 5:
        return rnd.randrange(n), ChooseColor(rnd.choice(tuple(Color)))
    if kind == 6:
        return seat, rnd.choice(SUSPECT_TEXTS)
    if kind == 7:
        return rnd.randrange(n), rnd.choice(MALFORMED_TEXTS)
    if kind == 8:  # a legal action (object or text) from a seat that does not exist
        a = rnd.choice(legal)[1] if legal else Draw()
        return rnd.choice(BAD_SEATS), rnd.choice((a, str(a)))
    if kind == 9:
        return rnd.randrange(n), rnd.choice(NOT_ACTIONS)
    if kind == 10:  # plays that are not well formed
        bad: tuple[Any, ...] = (Play(()), Play((99,)), Play(("R7",)), Play((card(52),), "R"))  # type: ignore[arg-type]
        return seat, rnd.choice(bad)
    # server-only actions where they do not apply
    if not (state.rules.abandonment and n == 2) and rnd.random() < 0.5:
        return rnd.randrange(n), Leave()
    return (cur + rnd.randrange(1, n)) % n, Timeout()


def check_illegal_actions(
    state: State,
    legal: tuple[tuple[int, Action], ...],
    rnd: random.Random,
    where: str,
    probes: int,
) -> int:
    """Illegal actions raise typed errors with a snake_case code and leave the state as it was.

    Returns how many probes were made."""
    snapshot = state.copy()
    legal_set = set(legal)
    canon = {(s, _canonical(a)) for s, a in legal}
    done = 0
    for _ in range(3 * probes):
        if done >= probes:
            break
        seat, action = random_probe(state, legal, rnd)
        parsed: Any = action
        if isinstance(action, str):
            try:
                parsed = Action.parse(action)
            except MalformedAction:
                parsed = None
        if isinstance(parsed, (Timeout, EndHand)) and seat == state.current:
            continue  # server-only actions, legal for the seat on turn
        if type(seat) is int and isinstance(parsed, Action) and (seat, parsed) in legal_set:
            continue  # (bools and floats compare equal to seat numbers: not skipped)
        done += 1
        try:
            apply(state, seat, action)
        except MazziereError as err:
            w = f"{where}: seat {seat!r} action {action!r}"
            assert isinstance(err, (IllegalAction, MalformedAction)), w
            assert SNAKE_CASE.match(err.code), f"{w}: code {err.code!r} is not snake_case"
            assert err.message, f"{w}: empty message"
            if state.is_over and isinstance(parsed, Action) and type(seat) is int:
                assert isinstance(err, GameOver) or not 0 <= seat < state.players, w
        else:
            ok = isinstance(parsed, Play) and (seat, _canonical(parsed)) in canon
            assert ok, (
                f"{where}: engine accepted seat {seat!r} action {action!r}, which is not among "
                f"the legal actions {[(s, str(a)) for s, a in legal]}"
            )
        assert state == snapshot, f"{where}: state changed by refused action {action!r}"
    return done


# ------------------------------------------------------------------------------ random games
@dataclass
class Tally:
    games: int = 0
    deep_games: int = 0
    steps: int = 0
    probes: int = 0


TALLY = Tally()


@pytest.fixture(scope="module", autouse=True)
def report_tally() -> Iterator[None]:
    """With ``MAZZIERE_TALLY=path`` set, append this worker's games/steps/probes to ``path``."""
    yield
    path = os.environ.get("MAZZIERE_TALLY")
    if path:
        with open(path, "a") as out:
            out.write(f"{TALLY.games} {TALLY.deep_games} {TALLY.steps} {TALLY.probes}\n")


def play_checked_game(
    rules: Rules,
    players: int,
    seed: str,
    *,
    deep: bool,
    max_steps: int = 100_000,
    must_end: bool = True,
) -> tuple[State, list[str]]:
    """Play one random game, checking the invariants after every step; return the final state
    and its event texts.

    ``deep``: after every step look at every seat's view and a spectator's (repr'd every 8th
    step), try 2 illegal actions and parse every event's text back. Otherwise, to afford
    thousands of games, look at one view per step (the seats and the spectator in turn, repr'd
    every 64th step) and try 1 illegal action; cards, legal actions and ``for_seat`` are always
    checked at every step, and the whole game is always replayed.

    ``must_end``: a game still going after ``max_steps`` fails; without it the game is checked
    that far and replayed (random play under some rule mixes, with hands swapped or rotated
    and many-card plays to choose from, can go on for tens of thousands of steps)."""
    state, events = new_game_with_events(rules, players, seed)
    pick = random.Random(seed)
    probe_rnd = random.Random(f"{seed}/probes")
    actions: list[tuple[int, str]] = []
    texts = [str(e) for e in events]
    base = f"rules={describe(rules)} players={players} seed={seed!r}"
    check_events(events, players, f"{base} start")
    hand_log = public_log([], events)
    rotation: tuple[int | None, ...] = (*range(players), None)
    step = 0
    while True:
        where = f"{base} step={step}"
        try:
            check_cards_conserved(state, where)
            check_removed(state, where)
            legal = all_legal_actions(state)
            check_legal_exists(state, legal, where)
            if deep or state.is_over:
                check_views(state, legal, where, serialise=step % 8 == 0)
                TALLY.probes += check_illegal_actions(state, legal, probe_rnd, where, 2)
            else:
                seats = (rotation[step % len(rotation)],)
                check_views(state, legal, where, serialise=step % 64 == 0, seats=seats)
                TALLY.probes += check_illegal_actions(state, legal, probe_rnd, where, 1)
        except AssertionError as e:  # the report names the position: `mazziere position` it
            raise AssertionError(f"{e}\nposition: {format_position(state)}") from e
        if state.is_over or (step >= max_steps and not must_end):
            break
        assert step < max_steps, f"{where}: game did not end"
        seat, action = pick.choice(legal)
        text = str(action)
        assert Action.parse(text) == action, f"{where}: action text {text!r} does not round-trip"
        state, new = apply(state, seat, text)
        check_events(new, players, f"{where} after {seat}:{text}", deep=deep)
        hand_log = public_log(hand_log, new)
        assert state.public_log() == tuple(hand_log), f"{where}: the log is not the hand's"
        actions.append((seat, text))
        texts.extend(str(e) for e in new)
        step += 1
    if state.is_over:
        with pytest.raises(GameOver) as info:
            apply(state, state.current, Draw())
        assert info.value.code == "game_over"
    again, again_events = replay(rules, players, seed, list(actions))
    assert again == state, f"{base}: replay reached a different state"
    assert [str(e) for e in again_events] == texts, f"{base}: replay gave different events"
    TALLY.games += 1
    TALLY.steps += step
    TALLY.deep_games += deep
    return state, texts


@pytest.mark.parametrize(("name", "players", "k"), SINGLE_HAND_CASES)
def test_random_single_hands_keep_every_invariant(name: str, players: int, k: int) -> None:
    cfg = BY_NAME[name]
    rules = cfg.rules.with_options(match="single_hand")
    for i in range(cfg.single_hand_games):
        seed = f"{name}/{players}/{k}/{i}"
        state, texts = play_checked_game(rules, players, seed, deep=i == 0)
        assert state.result is not None and texts[-1].startswith("match_ended ")


@pytest.mark.parametrize("name", MATCH_CASES)
def test_random_matches_keep_every_invariant(name: str) -> None:
    """Full matches: several hands, dealer rotation, scores, eliminations, tie-breaks."""
    cfg = BY_NAME[name]
    rules = cfg.rules.with_options(**cfg.match_options)
    for i, players in enumerate(sorted(set(cfg.players))[::3]):
        seed = f"{name}/match/{players}"
        state, texts = play_checked_game(rules, players, seed, deep=i == 0)
        result = state.result
        assert result is not None and texts[-1].startswith("match_ended ")
        assert sorted(result.ranking) == list(range(state.sides))
        if rules.victory_points and players == 4:
            assert sorted(result.victory_points) in ([0, 2, 6, 12], [0, 4, 6, 10])
        else:
            assert result.victory_points == ()


@pytest.mark.parametrize("name", [c.name for c in CONFIGS if c.name in PRESETS])
def test_random_preset_match_with_its_own_target(name: str) -> None:
    """One match per preset exactly as the preset defines it (target 500, three hands...)."""
    rules = PRESETS[name]
    players = min(4, rules.max_players)
    state, texts = play_checked_game(rules, players, f"{name}/preset-match", deep=False)
    assert state.result is not None and texts[-1].startswith("match_ended ")


# ------------------------------------------------------------------------------ hypothesis
@st.composite
def rules_and_players(draw: st.DrawFn) -> tuple[Rules, int]:
    """Any valid mix of rule options and a seat count it allows."""
    opts: dict[str, Any] = {
        "hand_size": draw(st.sampled_from((7, 7, 5, 4, 1, 10))),
        "first_card": draw(st.sampled_from(("apply", "redraw_non_number"))),
        "dealer_selection": draw(st.sampled_from(("highest", "lowest", "random"))),
        "voluntary_draw": draw(st.booleans()),
        "drawn_card": draw(st.sampled_from(("may_play", "must_play"))),
        "two_player_reverse": draw(st.sampled_from(("skip", "normal", "removed"))),
        "draw2_skips": draw(st.booleans()),
        "reverse_skip_same": draw(st.booleans()),
        "wild4_rule": draw(st.sampled_from(("color", "any_playable", "none"))),
        "wild4_bluff": draw(st.booleans()),
        "challenge": draw(st.booleans()),
        "uno_call": draw(st.sampled_from(("auto", "catch", "off"))),
        "stacking": draw(st.sampled_from(("none", "draw2", "draw2_draw4", "all"))),
        "multi_play": draw(st.booleans()),
        "burn": draw(st.booleans()),
        "seven_swap": draw(st.booleans()),
        "jump_in": draw(st.booleans()),
        "go_out_on_action": draw(st.booleans()),
        "scoring": draw(st.sampled_from(("winner", "penalty"))),
        "match": "single_hand",
    }
    if opts["challenge"]:
        opts["challenge_by"] = draw(st.sampled_from(("victim", "any")))
    if opts["stacking"] in ("draw2_draw4", "all"):
        opts["stack_wild4_rule_applies"] = draw(st.booleans())
    zero = draw(st.sampled_from(("none", "rotate", "gives_four")))
    opts["zero_rotate"] = zero == "rotate"
    opts["zero_gives_four"] = zero == "gives_four"
    shape = draw(st.sampled_from(("any", "teams", "victory_points")))
    if shape == "any":
        # the deal must leave a first card to turn: at most 75 cards with redraw_non_number,
        # 103 otherwise (Rules.check_players refuses larger deals with deal_too_large)
        cap = 75 if opts.get("first_card") == "redraw_non_number" else 100
        players = draw(st.integers(2, min(10, cap // opts["hand_size"])))
    else:
        players = 4
        opts[shape] = True
    if opts["zero_gives_four"] and draw(st.booleans()):
        seats = draw(st.lists(st.integers(0, players - 1), min_size=2, max_size=4, unique=True))
        opts["zero_groups"] = (tuple(seats),)
    return Rules().with_options(**opts), players


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rp=rules_and_players(), seed=st.integers(0, 2**32 - 1))
def test_any_rule_mix_keeps_every_invariant(rp: tuple[Rules, int], seed: int) -> None:
    rules, players = rp
    play_checked_game(
        rules, players, f"mix/{seed}", deep=seed % 8 == 0, max_steps=3_000, must_end=False
    )


FUZZ_STATES: list[State] = []


def _fuzz_states() -> list[State]:
    """A few positions from random games of several rule sets, in every phase we can reach."""
    if not FUZZ_STATES:
        for cfg in CONFIGS:
            rules = cfg.rules
            state, _ = new_game_with_events(rules, cfg.players[-1], f"fuzz/{cfg.name}")
            pick = random.Random(cfg.name)
            for step in range(400):
                if state.is_over:
                    break
                if step % 37 == 0 or state.phase is not Phase.PLAY:
                    FUZZ_STATES.append(state)
                seat, action = pick.choice(all_legal_actions(state))
                state, _ = apply(state, seat, action)
            FUZZ_STATES.append(state)
    return FUZZ_STATES


@settings(max_examples=400, deadline=None)
@given(
    index=st.integers(0, 10_000),
    seat=st.one_of(st.integers(-3, 12), st.sampled_from(BAD_SEATS)),
    text=st.one_of(
        st.text(alphabet="RYGBWSD0123456789:>, +catchdrawpassuno-", max_size=12),
        st.sampled_from(MALFORMED_TEXTS + SUSPECT_TEXTS),
        st.text(max_size=8),
    ),
)
def test_any_text_is_applied_or_refused_with_a_typed_error(
    index: int, seat: Any, text: str
) -> None:
    """Whatever text a client sends, the engine applies a legal action or refuses with a
    typed error and leaves the state unchanged."""
    states = _fuzz_states()
    state = states[index % len(states)]
    legal = all_legal_actions(state)
    snapshot = state.copy()
    try:
        parsed: Action | None = Action.parse(text)
    except MalformedAction as err:
        assert SNAKE_CASE.match(err.code)
        parsed = None
    try:
        apply(state, seat, text)
    except MazziereError as err:
        assert isinstance(err, (IllegalAction, MalformedAction))
        assert SNAKE_CASE.match(err.code), err.code
        assert type(seat) is not int or (seat, parsed) not in set(legal), (
            f"legal action {text!r} of seat {seat} refused"
        )
    else:
        assert parsed is not None
        server_only = isinstance(parsed, (Timeout, EndHand)) or (
            isinstance(parsed, Leave) and state.rules.abandonment and state.players == 2
        )
        canon = {(s, _canonical(a)) for s, a in legal}
        assert type(seat) is int, f"accepted seat {seat!r}"
        assert server_only or (seat, _canonical(parsed)) in canon, (
            f"accepted {text!r} from seat {seat!r}, not a legal action"
        )
    assert state == snapshot
